/// The binary applications of messages 6 (addressed) and 8 (broadcast) that are decoded to fields, by designated
/// area code (DAC) and function identifier (FI). Others are written as their bits (`"data":"BITS:HEX"`), as gpsd
/// writes them.
extension AISLayout {
    /// The application fields of a type 6 message (its application data starts at bit 88).
    static func addressedApplication(dac: Int, fid: Int) -> [AISField]? {
        switch (dac, fid) {
        case (1, 12): dangerousCargo236
        case (1, 14): tidalWindow236
        case (1, 15): airDraughtAddressed
        case (1, 16): personsOnBoard289
        case (1, 18): clearanceToEnterPort
        case (1, 20): berthingData
        case (1, 25): dangerousCargo289
        case (1, 28): routeAddressed
        case (1, 30): textAddressed
        case (1, 32): tidalWindow289
        case (200, 55): personsOnBoard
        case (235, 10), (250, 10): atonMonitoring
        default: nil
        }
    }

    /// The application fields of a type 8 message (its application data starts at bit 56).
    static func broadcastApplication(dac: Int, fid: Int) -> [AISField]? {
        switch (dac, fid) {
        case (1, 11): meteorological236
        case (1, 13): fairwayClosed
        case (1, 15): airDraughtBroadcast
        case (1, 17): vtsTargets
        case (1, 19): marineTrafficSignal
        case (1, 27): routeBroadcast
        case (1, 29): textBroadcast
        case (1, 31): meteorological289
        case (200, 10): inlandStaticData
        default: nil
        }
    }

    /// DAC 200, FI 55 (inland AIS): the number of persons on board.
    static let personsOnBoard: [AISField] = [F("crew", 88, 8), F("passengers", 96, 13), F("personnel", 109, 8)]

    /// DAC 235/250, FI 10 (UK and Irish lighthouse authorities): monitoring of an aid to navigation.
    static let atonMonitoring: [AISField] = [
        F("off_pos", 131, 1, .bool), F("alarm", 122, 1, .bool), F("stat_ext", 123, 8),
        F("ana_int", 88, 10, .unsigned(scale: 0.05)), F("ana_ext1", 98, 10, .unsigned(scale: 0.05)),
        F("ana_ext2", 108, 10, .unsigned(scale: 0.05)), F("racon", 118, 2), F("light", 120, 2),
    ]

    /// DAC 200, FI 10 (inland AIS): a vessel's European number, dimensions, type, hazard and load.
    static let inlandStaticData: [AISField] = [
        F("vin", 56, 48, .text), F("length", 104, 13, .unsigned(scale: 0.1, notAvailable: 0)),
        F("beam", 117, 10, .unsigned(scale: 0.1, notAvailable: 0)), F("shiptype", 127, 14),
        F("hazard", 141, 3), F("draught", 144, 11, .unsigned(scale: 0.01, notAvailable: 0)), F("loaded", 155, 2),
        F("speed_q", 157, 1, .bool), F("course_q", 158, 1, .bool), F("heading_q", 159, 1, .bool),
    ]

    /// DAC 1, FI 31 (IMO circular 289): meteorological and hydrological data.
    static let meteorological289: [AISField] = [
        latitude(81, 24, thousandthMinute), longitude(56, 25, thousandthMinute), F("accuracy", 105, 1, .bool),
        F("timestamp", 106, 16, .dayTime), F("wspeed", 122, 7, .unsigned(notAvailable: 127)),
        F("wgust", 129, 7, .unsigned(notAvailable: 127)), F("wdir", 136, 9, .unsigned(notAvailable: 360)),
        F("wgustdir", 145, 9, .unsigned(notAvailable: 360)),
        F("humidity", 165, 7, .unsigned(notAvailable: 101)),
        F("airtemp", 154, 11, .signed(scale: 0.1, notAvailable: -1024)),
        F("dewpoint", 172, 10, .signed(scale: 0.1, notAvailable: 501)),
        F("pressure", 182, 9, .unsigned(notAvailable: 511)), F("pressuretend", 191, 2, .unsigned(notAvailable: 3)),
        F("visgreater", 193, 1, .bool), F("visibility", 194, 7, .unsigned(scale: 0.1, notAvailable: 127)),
        F("waterlevel", 201, 12, .unsigned(scale: 0.01, notAvailable: 4001)),
        F("leveltrend", 213, 2, .unsigned(notAvailable: 3)),
        F("cspeed", 215, 8, .unsigned(scale: 0.1, notAvailable: 255)),
        F("cdir", 223, 9, .unsigned(notAvailable: 360)), F("cspeed2", 232, 8, .unsigned(scale: 0.1, notAvailable: 255)),
        F("cdir2", 240, 9, .unsigned(notAvailable: 360)), F("cdepth2", 249, 5, .unsigned(notAvailable: 31)),
        F("cspeed3", 254, 8, .unsigned(scale: 0.1, notAvailable: 255)),
        F("cdir3", 262, 9, .unsigned(notAvailable: 360)),
        F("cdepth3", 271, 5, .unsigned(notAvailable: 31)),
        F("waveheight", 276, 8, .unsigned(scale: 0.1, notAvailable: 255)),
        F("waveperiod", 284, 6, .unsigned(notAvailable: 63)), F("wavedir", 290, 9, .unsigned(notAvailable: 360)),
        F("swellheight", 299, 8, .unsigned(scale: 0.1, notAvailable: 255)),
        F("swellperiod", 307, 6, .unsigned(notAvailable: 63)), F("swelldir", 313, 9, .unsigned(notAvailable: 360)),
        F("seastate", 322, 4, .unsigned(notAvailable: 13)),
        F("watertemp", 326, 10, .signed(scale: 0.1, notAvailable: 501)),
        F("preciptype", 336, 3, .unsigned(notAvailable: 7)),
        F("salinity", 339, 9, .unsigned(scale: 0.1, notAvailable: 510)),
        F("ice", 348, 2, .unsigned(notAvailable: 3)),
    ]

    /// DAC 1, FI 11 (IMO circular 236, superseded by FI 31): meteorological and hydrological data.
    static let meteorological236: [AISField] = [
        latitude(56, 24, thousandthMinute), longitude(80, 25, thousandthMinute),
        F("timestamp", 105, 16, .dayTime), F("wspeed", 121, 7, .unsigned(notAvailable: 127)),
        F("wgust", 128, 7, .unsigned(notAvailable: 127)), F("wdir", 135, 9, .unsigned(notAvailable: 511)),
        F("wgustdir", 144, 9, .unsigned(notAvailable: 511)), F("airtemp", 153, 11, .unsigned(notAvailable: 2047)),
        F("humidity", 164, 7, .unsigned(notAvailable: 127)), F("dewpoint", 171, 10, .unsigned(notAvailable: 1023)),
        F("pressure", 181, 9, .unsigned(notAvailable: 511)), F("pressuretend", 190, 2, .unsigned(notAvailable: 3)),
        F("visibility", 192, 8, .unsigned(notAvailable: 255)), F("waterlevel", 200, 9, .unsigned(notAvailable: 511)),
        F("leveltrend", 209, 2, .unsigned(notAvailable: 3)), F("cspeed", 211, 8, .unsigned(notAvailable: 255)),
        F("cdir", 219, 9, .unsigned(notAvailable: 511)), F("cspeed2", 228, 8, .unsigned(notAvailable: 255)),
        F("cdir2", 236, 9, .unsigned(notAvailable: 511)), F("cdepth2", 245, 5, .unsigned(notAvailable: 31)),
        F("cspeed3", 250, 8, .unsigned(notAvailable: 255)), F("cdir3", 258, 9, .unsigned(notAvailable: 511)),
        F("cdepth3", 267, 5, .unsigned(notAvailable: 31)), F("waveheight", 272, 8, .unsigned(notAvailable: 255)),
        F("waveperiod", 280, 6, .unsigned(notAvailable: 63)), F("wavedir", 286, 9, .unsigned(notAvailable: 511)),
        F("swellheight", 295, 8, .unsigned(notAvailable: 255)), F("swellperiod", 303, 6, .unsigned(notAvailable: 63)),
        F("swelldir", 309, 9, .unsigned(notAvailable: 511)), F("seastate", 318, 4, .unsigned(notAvailable: 15)),
        F("watertemp", 322, 10, .unsigned(notAvailable: 1023)), F("preciptype", 332, 3, .unsigned(notAvailable: 7)),
        F("salinity", 335, 9, .unsigned(notAvailable: 511)), F("ice", 344, 2, .unsigned(notAvailable: 3)),
    ]
}
