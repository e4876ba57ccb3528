/// The field tables of every AIS message type (ITU-R M.1371-5) and of the binary applications of types 6 and 8
/// that gpsd decodes, in gpsd's order, with gpsd's names. A type's fields follow the common header (type, repeat
/// indicator, MMSI), which every message has.
public enum AISLayout {
    typealias F = AISField

    /// Tenths of a minute of arc to degrees (17/18-bit positions), and their "not available" values (91°, 181°).
    static let tenthMinute = 1.0 / 600
    /// Ten-thousandths of a minute of arc to degrees (27/28-bit positions).
    static let tenThousandthMinute = 1.0 / 600_000
    /// Thousandths of a minute of arc to degrees (the meteorological application's 24/25-bit positions).
    static let thousandthMinute = 1.0 / 60_000

    @inline(__always)
    static func longitude(_ start: Int, _ width: Int, _ scale: Double, name: StaticString = "lon") -> F {
        F(name, start, width, .signed(scale: scale, notAvailable: Int((181 / scale).rounded())))
    }

    @inline(__always)
    static func latitude(_ start: Int, _ width: Int, _ scale: Double, name: StaticString = "lat") -> F {
        F(name, start, width, .signed(scale: scale, notAvailable: Int((91 / scale).rounded())))
    }

    /// The fields of the common header.
    public static let header: [AISField] = [F("type", 0, 6), F("repeat", 6, 2), F("mmsi", 8, 30)]

    /// The fields after the header of every message of `type`, in order, when they are the same for every message
    /// of that type; `nil` for a type whose fields depend on its content (6, 8, 22, 24, 25, 26: an application, a
    /// part, an addressing flag) or that is not one (0, 28 and over). A message of a type with fixed fields may
    /// still be too short for some of them: they read as "not available" (``AISMessage/value(_:)``).
    public static func fixedFields(ofType type: Int) -> [AISField]? {
        switch type {
        case 1, 2, 3: positionReport
        case 4, 11: baseStationReport
        case 5: staticAndVoyageData
        case 7, 13: acknowledge
        case 9: searchAndRescueAircraft
        case 10: dateInquiry
        case 12: addressedSafety
        case 14: broadcastSafety
        case 15: interrogation
        case 16: assignmentMode
        case 17: dgnssBroadcast
        case 18: classBPositionReport
        case 19: extendedClassBReport
        case 20: dataLinkManagement
        case 21: aidToNavigation
        case 23: groupAssignment
        case 27: longRange
        default: nil
        }
    }

    /// Types 1, 2 and 3: the position report of a class A station.
    static let positionReport: [AISField] = PositionReport.fields

    /// The fields of types 1–3 one by one: the table lists them, ``AISPositionReport`` reads them.
    enum PositionReport {
        @inline(__always) static var status: F { F("status", 38, 4) }
        @inline(__always) static var turn: F { F("turn", 42, 8, .rateOfTurn) }
        @inline(__always) static var speed: F { F("speed", 50, 10, .unsigned(scale: 0.1, notAvailable: 1023)) }
        @inline(__always) static var accuracy: F { F("accuracy", 60, 1, .bool) }
        @inline(__always) static var longitude: F { AISLayout.longitude(61, 28, tenThousandthMinute) }
        @inline(__always) static var latitude: F { AISLayout.latitude(89, 27, tenThousandthMinute) }
        @inline(__always) static var course: F { F("course", 116, 12, .unsigned(scale: 0.1, notAvailable: 3600)) }
        @inline(__always) static var heading: F { F("heading", 128, 9, .unsigned(notAvailable: 511)) }
        @inline(__always) static var second: F { F("second", 137, 6, .unsigned(notAvailable: 60)) }
        @inline(__always) static var maneuver: F { F("maneuver", 143, 2) }
        @inline(__always) static var raim: F { F("raim", 148, 1, .bool) }
        @inline(__always) static var radio: F { F("radio", 149, 19) }
        static var fields: [F] {
            [status, turn, speed, accuracy, longitude, latitude, course, heading, second, maneuver, raim, radio]
        }
    }

    /// Types 4 and 11: a base station's report, or an answer to a UTC and date inquiry.
    static let baseStationReport: [AISField] = BaseStationReport.fields

    /// The fields of types 4 and 11 one by one: the table lists them, ``AISBaseStationReport`` reads them.
    enum BaseStationReport {
        @inline(__always) static var timestamp: F { F("timestamp", 38, 40, .timestamp) }
        @inline(__always) static var accuracy: F { F("accuracy", 78, 1, .bool) }
        @inline(__always) static var longitude: F { AISLayout.longitude(79, 28, tenThousandthMinute) }
        @inline(__always) static var latitude: F { AISLayout.latitude(107, 27, tenThousandthMinute) }
        @inline(__always) static var epfd: F { F("epfd", 134, 4) }
        @inline(__always) static var raim: F { F("raim", 148, 1, .bool) }
        @inline(__always) static var radio: F { F("radio", 149, 19) }
        static var fields: [F] { [timestamp, accuracy, longitude, latitude, epfd, raim, radio] }
    }

    /// Type 5: a class A station's static and voyage data.
    static let staticAndVoyageData: [AISField] = StaticAndVoyageData.fields

    /// The fields of type 5 one by one: the table lists them, ``AISStaticAndVoyageData`` reads them.
    enum StaticAndVoyageData {
        @inline(__always) static var imo: F { F("imo", 40, 30, .unsigned(notAvailable: 0)) }
        @inline(__always) static var aisVersion: F { F("ais_version", 38, 2) }
        @inline(__always) static var callSign: F { F("callsign", 70, 42, .text) }
        @inline(__always) static var shipName: F { F("shipname", 112, 120, .text) }
        @inline(__always) static var shipType: F { F("shiptype", 232, 8, .unsigned(notAvailable: 0)) }
        @inline(__always) static var toBow: F { F("to_bow", 240, 9) }
        @inline(__always) static var toStern: F { F("to_stern", 249, 9) }
        @inline(__always) static var toPort: F { F("to_port", 258, 6) }
        @inline(__always) static var toStarboard: F { F("to_starboard", 264, 6) }
        @inline(__always) static var epfd: F { F("epfd", 270, 4) }
        @inline(__always) static var eta: F { F("eta", 274, 20, .monthDayTime) }
        @inline(__always) static var draught: F { F("draught", 294, 8, .unsigned(scale: 0.1, notAvailable: 0)) }
        @inline(__always) static var destination: F { F("destination", 302, 120, .text) }
        @inline(__always) static var dte: F { F("dte", 422, 1) }
        static var fields: [F] {
            [
                imo, aisVersion, callSign, shipName, shipType, toBow, toStern, toPort, toStarboard, epfd, eta, draught,
                destination, dte,
            ]
        }
    }

    /// Type 6 before its application: an addressed binary message.
    static let addressedBinary: [AISField] = [
        F("seqno", 38, 2), F("dest_mmsi", 40, 30), F("retransmit", 70, 1, .bool), F("dac", 72, 10), F("fid", 82, 6),
    ]

    /// Type 8 before its application: a broadcast binary message.
    static let broadcastBinary: [AISField] = [F("dac", 40, 10), F("fid", 50, 6)]

    /// Types 7 and 13: acknowledgements of binary and safety messages (up to four stations).
    static let acknowledge: [AISField] = [
        F("mmsi1", 40, 30), F("mmsi2", 72, 30), F("mmsi3", 104, 30), F("mmsi4", 136, 30),
    ]

    /// Type 9: a search-and-rescue aircraft's position report.
    static let searchAndRescueAircraft: [AISField] = [
        F("alt", 38, 12, .unsigned(notAvailable: 4095)), F("speed", 50, 10, .unsigned(notAvailable: 1023)),
        F("accuracy", 60, 1, .bool), longitude(61, 28, tenThousandthMinute), latitude(89, 27, tenThousandthMinute),
        F("course", 116, 12, .unsigned(scale: 0.1, notAvailable: 3600)),
        F("second", 128, 6, .unsigned(notAvailable: 60)), F("regional", 134, 8), F("dte", 142, 1),
        F("raim", 147, 1, .bool), F("radio", 148, 20),
    ]

    /// Type 10: a UTC and date inquiry.
    static let dateInquiry: [AISField] = [F("dest_mmsi", 40, 30)]

    /// Type 12: an addressed safety message.
    static let addressedSafety: [AISField] = [
        F("seqno", 38, 2), F("dest_mmsi", 40, 30), F("retransmit", 70, 1, .bool), F("text", 72, 0, .text),
    ]

    /// Type 14: a broadcast safety message.
    static let broadcastSafety: [AISField] = [F("text", 40, 0, .text)]

    /// Type 15: an interrogation.
    static let interrogation: [AISField] = [
        F("mmsi1", 40, 30), F("type1_1", 70, 6), F("offset1_1", 76, 12), F("type1_2", 90, 6),
        F("offset1_2", 96, 12), F("mmsi2", 110, 30), F("type2_1", 140, 6), F("offset2_1", 146, 12),
    ]

    /// Type 16: an assigned mode command.
    static let assignmentMode: [AISField] = [
        F("mmsi1", 40, 30), F("offset1", 70, 12), F("increment1", 82, 10), F("mmsi2", 92, 30),
        F("offset2", 122, 12), F("increment2", 134, 10),
    ]

    /// Type 17: a DGNSS broadcast (its RTCM 2 words as data).
    static let dgnssBroadcast: [AISField] = [
        longitude(40, 18, tenthMinute), latitude(58, 17, tenthMinute), F("data", 80, 0, .data),
    ]

    /// Type 18: a class B station's position report.
    static let classBPositionReport: [AISField] = ClassBPositionReport.fields

    /// The fields of type 18 one by one: the table lists them, ``AISClassBPositionReport`` reads them.
    enum ClassBPositionReport {
        @inline(__always) static var reserved: F { F("reserved", 38, 8) }
        @inline(__always) static var speed: F { F("speed", 46, 10, .unsigned(scale: 0.1, notAvailable: 1023)) }
        @inline(__always) static var accuracy: F { F("accuracy", 56, 1, .bool) }
        @inline(__always) static var longitude: F { AISLayout.longitude(57, 28, tenThousandthMinute) }
        @inline(__always) static var latitude: F { AISLayout.latitude(85, 27, tenThousandthMinute) }
        @inline(__always) static var course: F { F("course", 112, 12, .unsigned(scale: 0.1, notAvailable: 3600)) }
        @inline(__always) static var heading: F { F("heading", 124, 9, .unsigned(notAvailable: 511)) }
        @inline(__always) static var second: F { F("second", 133, 6, .unsigned(notAvailable: 60)) }
        @inline(__always) static var regional: F { F("regional", 139, 2) }
        @inline(__always) static var carrierSense: F { F("cs", 141, 1, .bool) }
        @inline(__always) static var display: F { F("display", 142, 1, .bool) }
        @inline(__always) static var dsc: F { F("dsc", 143, 1, .bool) }
        @inline(__always) static var band: F { F("band", 144, 1, .bool) }
        @inline(__always) static var acceptsChannelManagement: F { F("msg22", 145, 1, .bool) }
        @inline(__always) static var raim: F { F("raim", 147, 1, .bool) }
        @inline(__always) static var radio: F { F("radio", 148, 20) }
        static var fields: [F] {
            [
                reserved, speed, accuracy, longitude, latitude, course, heading, second, regional, carrierSense,
                display, dsc, band, acceptsChannelManagement, raim, radio,
            ]
        }
    }

    /// Type 19: a class B station's extended position report, with its name and dimensions.
    static let extendedClassBReport: [AISField] = ExtendedClassBReport.fields

    /// The fields of type 19 one by one: the table lists them, ``AISExtendedClassBReport`` reads them. Its first
    /// bits, to the second of the minute, are type 18's (``ClassBPositionReport``).
    enum ExtendedClassBReport {
        typealias B = ClassBPositionReport
        @inline(__always) static var regional: F { F("regional", 139, 4) }
        @inline(__always) static var shipName: F { F("shipname", 143, 120, .text) }
        @inline(__always) static var shipType: F { F("shiptype", 263, 8, .unsigned(notAvailable: 0)) }
        @inline(__always) static var toBow: F { F("to_bow", 271, 9) }
        @inline(__always) static var toStern: F { F("to_stern", 280, 9) }
        @inline(__always) static var toPort: F { F("to_port", 289, 6) }
        @inline(__always) static var toStarboard: F { F("to_starboard", 295, 6) }
        @inline(__always) static var epfd: F { F("epfd", 301, 4) }
        @inline(__always) static var raim: F { F("raim", 305, 1, .bool) }
        @inline(__always) static var dte: F { F("dte", 306, 1) }
        @inline(__always) static var assigned: F { F("assigned", 307, 1, .bool) }
        static var fields: [F] {
            [
                B.reserved, B.speed, B.accuracy, B.longitude, B.latitude, B.course, B.heading, B.second, regional,
                shipName, shipType, toBow, toStern, toPort, toStarboard, epfd, raim, dte, assigned,
            ]
        }
    }

    /// Type 20: data link management (up to four slot reservations).
    static let dataLinkManagement: [AISField] = [
        F("offset1", 40, 12), F("number1", 52, 4), F("timeout1", 56, 3), F("increment1", 59, 11),
        F("offset2", 70, 12), F("number2", 82, 4), F("timeout2", 86, 3), F("increment2", 89, 11),
        F("offset3", 100, 12), F("number3", 112, 4), F("timeout3", 116, 3), F("increment3", 119, 11),
        F("offset4", 130, 12), F("number4", 142, 4), F("timeout4", 146, 3), F("increment4", 149, 11),
    ]

    /// Type 21: an aid to navigation's report (its name continues after bit 272 when longer than 20 characters).
    static let aidToNavigation: [AISField] = AidToNavigation.fields

    /// The fields of type 21 one by one: the table lists them, ``AISAidToNavigation`` reads them.
    enum AidToNavigation {
        @inline(__always) static var aidType: F { F("aid_type", 38, 5) }
        @inline(__always) static var name: F { F("name", 43, 120, .text) }
        @inline(__always) static var accuracy: F { F("accuracy", 163, 1, .bool) }
        @inline(__always) static var longitude: F { AISLayout.longitude(164, 28, tenThousandthMinute) }
        @inline(__always) static var latitude: F { AISLayout.latitude(192, 27, tenThousandthMinute) }
        @inline(__always) static var toBow: F { F("to_bow", 219, 9) }
        @inline(__always) static var toStern: F { F("to_stern", 228, 9) }
        @inline(__always) static var toPort: F { F("to_port", 237, 6) }
        @inline(__always) static var toStarboard: F { F("to_starboard", 243, 6) }
        @inline(__always) static var epfd: F { F("epfd", 249, 4) }
        @inline(__always) static var second: F { F("second", 253, 6, .unsigned(notAvailable: 60)) }
        @inline(__always) static var regional: F { F("regional", 260, 8) }
        @inline(__always) static var offPosition: F { F("off_position", 259, 1, .bool) }
        @inline(__always) static var raim: F { F("raim", 268, 1, .bool) }
        @inline(__always) static var isVirtual: F { F("virtual_aid", 269, 1, .bool) }
        static var fields: [F] {
            [
                aidType, name, accuracy, longitude, latitude, toBow, toStern, toPort, toStarboard, epfd, second,
                regional, offPosition, raim, isVirtual,
            ]
        }
    }

    /// Type 22 for an area: channel management.
    static let channelManagementArea: [AISField] = [
        F("channel_a", 40, 12), F("channel_b", 52, 12), F("txrx", 64, 4), F("power", 68, 1, .bool),
        longitude(69, 18, tenthMinute, name: "ne_lon"), latitude(87, 17, tenthMinute, name: "ne_lat"),
        longitude(104, 18, tenthMinute, name: "sw_lon"), latitude(122, 17, tenthMinute, name: "sw_lat"),
        F("addressed", 139, 1, .bool), F("band_a", 140, 1, .bool), F("band_b", 141, 1, .bool), F("zonesize", 142, 3),
    ]

    /// Type 22 for two stations: channel management.
    static let channelManagementAddressed: [AISField] = [
        F("channel_a", 40, 12), F("channel_b", 52, 12), F("txrx", 64, 4), F("power", 68, 1, .bool),
        F("dest1", 69, 30), F("dest2", 104, 30),
        F("addressed", 139, 1, .bool), F("band_a", 140, 1, .bool), F("band_b", 141, 1, .bool), F("zonesize", 142, 3),
    ]

    /// Type 23: a group assignment command.
    static let groupAssignment: [AISField] = [
        longitude(40, 18, tenthMinute, name: "ne_lon"), latitude(58, 17, tenthMinute, name: "ne_lat"),
        longitude(75, 18, tenthMinute, name: "sw_lon"), latitude(93, 17, tenthMinute, name: "sw_lat"),
        F("stationtype", 110, 4), F("shiptype", 114, 8), F("interval", 146, 4), F("quiet", 150, 4),
    ]

    /// Type 24, parts A and B together (as gpsd reports them, once part B follows part A): the decoder puts part
    /// A's name after part B's 168 bits.
    static let staticDataReport: [AISField] = StaticDataReport.fields

    /// Type 24 part B of an auxiliary craft (MMSI 98XXXYYYY): its mother ship instead of dimensions.
    static let staticDataReportAuxiliary: [AISField] = StaticDataReport.auxiliaryFields

    /// The fields of type 24 one by one: the tables list them, ``AISStaticDataReport`` reads them.
    enum StaticDataReport {
        @inline(__always) static var shipName: F { F("shipname", 168, 120, .text) }
        @inline(__always) static var shipType: F { F("shiptype", 40, 8, .unsigned(notAvailable: 0)) }
        @inline(__always) static var vendorID: F { F("vendorid", 48, 42, .text) }
        @inline(__always) static var model: F { F("model", 66, 4) }
        @inline(__always) static var serial: F { F("serial", 70, 20) }
        @inline(__always) static var callSign: F { F("callsign", 90, 42, .text) }
        @inline(__always) static var toBow: F { F("to_bow", 132, 9) }
        @inline(__always) static var toStern: F { F("to_stern", 141, 9) }
        @inline(__always) static var toPort: F { F("to_port", 150, 6) }
        @inline(__always) static var toStarboard: F { F("to_starboard", 156, 6) }
        @inline(__always) static var mothershipMMSI: F { F("mothership_mmsi", 132, 30) }
        static var fields: [F] {
            [shipName, shipType, vendorID, model, serial, callSign, toBow, toStern, toPort, toStarboard]
        }
        static var auxiliaryFields: [F] { [shipName, shipType, vendorID, model, serial, callSign, mothershipMMSI] }
    }

    /// Type 25 and 26 headers are variable; see ``AISMessage/fields``.
    static let singleSlotHeader: [AISField] = [F("addressed", 38, 1, .bool), F("structured", 39, 1, .bool)]

    /// Type 27: a long-range broadcast.
    static let longRange: [AISField] = LongRange.fields

    /// The fields of type 27 one by one: the table lists them, ``AISLongRangeReport`` reads them.
    enum LongRange {
        @inline(__always) static var status: F { F("status", 40, 4) }
        @inline(__always) static var accuracy: F { F("accuracy", 38, 1, .bool) }
        @inline(__always) static var longitude: F { AISLayout.longitude(44, 18, tenthMinute) }
        @inline(__always) static var latitude: F { AISLayout.latitude(62, 17, tenthMinute) }
        @inline(__always) static var speed: F { F("speed", 79, 6, .unsigned(notAvailable: 63)) }
        @inline(__always) static var course: F { F("course", 85, 9, .unsigned(notAvailable: 511)) }
        @inline(__always) static var raim: F { F("raim", 39, 1, .bool) }
        @inline(__always) static var isStale: F { F("gnss", 94, 1, .bool) }
        static var fields: [F] { [status, accuracy, longitude, latitude, speed, course, raim, isStale] }
    }

    /// The fewest bits each type needs (the end of its last fixed field), indexed by type.
    static let minimumBits: InlineArray<28, Int16> = [
        0, 168, 168, 168, 168, 424, 88, 72, 56, 168, 72, 168, 72, 40, 40, 88, 96, 80, 168, 312, 72, 272, 168, 160,
        160, 40, 60, 96,
    ]
}
