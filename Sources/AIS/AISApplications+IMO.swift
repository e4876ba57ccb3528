/// The international applications (DAC 1) of IMO circulars 236 and 289 that gpsd decodes, beside the
/// meteorological ones (``AISLayout/meteorological236``, ``AISLayout/meteorological289``): bit positions from the
/// message's first bit, names and order as gpsd writes them.
extension AISLayout {
    /// Hours (24) and minutes (60) that say "not available".
    static func hour(_ name: StaticString, _ start: Int) -> F { F(name, start, 5, .unsigned(notAvailable: 24)) }
    static func minute(_ name: StaticString, _ start: Int) -> F { F(name, start, 6, .unsigned(notAvailable: 60)) }

    /// Type 6, FI 12 (IMO 236): a dangerous cargo indication.
    static let dangerousCargo236: [AISField] = [
        F("lastport", 88, 30, .text), F("departure", 118, 20, .monthDayTime), F("nextport", 138, 30, .text),
        F("eta", 168, 20, .monthDayTime), F("dangerous", 188, 120, .text), F("imdcat", 308, 24, .text),
        F("unid", 332, 13), F("amount", 345, 10), F("unit", 355, 2),
    ]

    /// The repeated groups of every table, each listed once: a field holds its group's place here.
    static let groups: [AISGroup] = [
        tidalWindows236, tidalWindows289, cargos, waypointsAddressed, waypointsBroadcast, vtsTargetGroup,
    ]

    /// Type 6, FI 14 (IMO 236): tidal windows of 93 bits, a position in ten-thousandths of a minute.
    static let tidalWindow236 = tidalWindowTable(tidalWindows236)
    static let tidalWindows236 = tidalWindows(
        [longitude(27, 28, tenThousandthMinute), latitude(0, 27, tenThousandthMinute)], positionBits: 55, speedBits: 7)

    /// Type 6, FI 32 (IMO 289): tidal windows of 88 bits, a position in thousandths of a minute.
    static let tidalWindow289 = tidalWindowTable(tidalWindows289)
    static let tidalWindows289 = tidalWindows(
        [longitude(0, 25, thousandthMinute), latitude(25, 24, thousandthMinute)], positionBits: 49, speedBits: 8)

    /// The month and day, then the windows as long as the message goes on.
    static func tidalWindowTable(_ windows: AISGroup) -> [AISField] {
        [F("month", 88, 4), F("day", 92, 5), F("tidals", 97, 0, .group(windows))]
    }

    /// Tidal windows (FI 14, 32), each a position (`position`, in its first `positionBits` bits), from and to
    /// times, and the current's direction and speed (tenths of a knot in `speedBits` bits, all ones not available).
    static func tidalWindows(_ position: [F], positionBits p: Int, speedBits: Int) -> AISGroup {
        let window: [F] =
            position + [
                hour("from_hour", p), minute("from_min", p + 5), hour("to_hour", p + 11), minute("to_min", p + 16),
                F("cdir", p + 22, 9, .unsigned(notAvailable: 360)),
                F("cspeed", p + 31, speedBits, .unsigned(scale: 0.1, notAvailable: (1 << speedBits) - 1)),
            ]
        return AISGroup(stride: p + 31 + speedBits, count: .startingAtOrBeforeEnd, window)
    }

    /// Type 6, FI 15 (IMO 236): extended static data, the air draught (decimetres).
    static let airDraughtAddressed: [AISField] = [F("airdraught", 88, 11)]

    /// Type 8, FI 15 (IMO 236): extended static data, the air draught (decimetres).
    static let airDraughtBroadcast: [AISField] = [F("airdraught", 56, 11)]

    /// Type 6, FI 16 (IMO 236 and 289): the number of persons on board.
    static let personsOnBoard289: [AISField] = [F("persons", 88, 13, .unsigned(notAvailable: 0))]

    /// Type 6, FI 18 (IMO 289): the time of clearance to enter a port.
    static let clearanceToEnterPort: [AISField] = [
        F("linkage", 88, 10), F("arrival", 98, 20, .monthDayTime), F("portname", 118, 120, .text),
        F("destination", 238, 30, .text), longitude(268, 25, thousandthMinute), latitude(293, 24, thousandthMinute),
    ]

    /// Type 6, FI 20 (IMO 289): berthing data: the berth, the arrival, and the services (each 0…3: not known,
    /// available, not available, no data).
    static let berthingData: [AISField] =
        [
            F("linkage", 88, 10), F("berth_length", 98, 9, .unsigned(notAvailable: 0)), F("position", 115, 3),
            F("arrival", 118, 20, .monthDayTimeUnpadded), F("availability", 138, 1),
        ] + berthServices + [
            F("berth_name", 191, 120, .text), longitude(311, 25, thousandthMinute, name: "berth_lon"),
            latitude(336, 24, thousandthMinute, name: "berth_lat"),
            F("berth_depth", 107, 8, .unsigned(scale: 0.1, notAvailable: 0)),
        ]

    /// The 26 services of a berth, two bits each from bit 139, in gpsd's order.
    static let berthServices: [AISField] = [
        F("agent", 139, 2), F("fuel", 141, 2), F("chandler", 143, 2), F("stevedore", 145, 2),
        F("electrical", 147, 2), F("water", 149, 2), F("customs", 151, 2), F("cartage", 153, 2), F("crane", 155, 2),
        F("lift", 157, 2), F("medical", 159, 2), F("navrepair", 161, 2), F("provisions", 163, 2),
        F("shiprepair", 165, 2), F("surveyor", 167, 2), F("steam", 169, 2), F("tugs", 171, 2),
        F("solidwaste", 173, 2), F("liquidwaste", 175, 2), F("hazardouswaste", 177, 2), F("ballast", 179, 2),
        F("additional", 181, 2), F("regional1", 183, 2), F("regional2", 185, 2), F("future1", 187, 2),
        F("future2", 189, 2),
    ]

    /// Type 6, FI 25 (IMO 289): a dangerous cargo indication, cargos of 17 bits as long as the message goes on.
    static let dangerousCargo289: [AISField] = [
        F("unit", 88, 2), F("amount", 90, 10), F("cargos", 100, 0, .group(cargos)),
    ]

    static let cargos = AISGroup(stride: 17, count: .startingBeforeEnd, [F("code", 0, 4), F("subtype", 4, 13)])

    /// A waypoint of a route (FI 27 and 28).
    static let waypoint: [AISField] = [longitude(0, 28, tenThousandthMinute), latitude(28, 27, tenThousandthMinute)]
    /// The waypoints of FI 28, counted by bits 144…148, and of FI 27, counted by bits 112…116.
    static let waypointsAddressed = AISGroup(stride: 55, count: .counted(start: 144, width: 5), waypoint)
    static let waypointsBroadcast = AISGroup(stride: 55, count: .counted(start: 112, width: 5), waypoint)

    /// Type 6, FI 28 (IMO 289): route information, its waypoints counted by bits 144…148.
    static let routeAddressed: [AISField] = [
        F("linkage", 88, 10), F("sender", 98, 3), F("rtype", 101, 5), F("start", 106, 20, .monthDayTime),
        F("duration", 126, 18),
        F("waypoints", 149, 0, .group(waypointsAddressed)),
    ]

    /// Type 8, FI 27 (IMO 289): route information, its waypoints counted by bits 112…116.
    static let routeBroadcast: [AISField] = [
        F("linkage", 56, 10), F("sender", 66, 3), F("rtype", 69, 5), F("start", 74, 20, .monthDayTime),
        F("duration", 94, 18),
        F("waypoints", 117, 0, .group(waypointsBroadcast)),
    ]

    /// Type 6, FI 30 (IMO 289): a text description, to the end of the message.
    static let textAddressed: [AISField] = [F("linkage", 88, 10), F("text", 98, 0, .text)]

    /// Type 8, FI 29 (IMO 289): a text description, to the end of the message.
    static let textBroadcast: [AISField] = [F("linkage", 56, 10), F("text", 66, 0, .text)]

    /// Type 8, FI 13 (IMO 236): a fairway closed, from when to when.
    static let fairwayClosed: [AISField] = [
        F("reason", 56, 120, .text), F("closefrom", 176, 120, .text), F("closeto", 296, 120, .text),
        F("radius", 416, 10), F("extunit", 426, 2),
        F("from", 428, 20, .dayMonthTime), F("to", 448, 20, .dayMonthTime),
    ]

    /// Type 8, FI 19 (IMO 289): a marine traffic signal.
    static let marineTrafficSignal: [AISField] = [
        F("linkage", 56, 10), F("station", 66, 120, .text), longitude(186, 25, thousandthMinute),
        latitude(211, 24, thousandthMinute), F("status", 235, 2), F("signal", 237, 5), hour("hour", 242),
        minute("minute", 247), F("nextsignal", 253, 5),
    ]

    /// Type 8, FI 17 (IMO 289): VTS-generated targets, 122 bits each, as long as the message goes on; a target's
    /// first two bits say how it is identified (0 MMSI, 1 IMO number, 2 call sign, 3 other).
    static let vtsTargets: [AISField] = [F("targets", 56, 0, .group(vtsTargetGroup))]

    static let vtsTargetGroup = AISGroup(
        stride: 122, count: .startingAtOrBeforeEnd, selector: 0, width: 2,
        [
            vtsTarget(F("mmsi", 12, 32, .decimalText)), vtsTarget(F("imo", 12, 32, .decimalText)),
            vtsTarget(F("callsign", 2, 42, .text)), vtsTarget(F("other", 2, 42, .text)),
        ])

    /// A VTS target identified by `identifier` (an MMSI or IMO number is the low 32 bits of its 42, as gpsd reads
    /// it).
    static func vtsTarget(_ identifier: F) -> [AISField] {
        [
            F("idtype", 0, 2), identifier, latitude(48, 24, thousandthMinute), longitude(72, 25, thousandthMinute),
            F("course", 97, 9, .unsigned(notAvailable: 360)), F("second", 106, 6, .unsigned(notAvailable: 60)),
            F("speed", 112, 10, .unsigned(notAvailable: 1023)),
        ]
    }
}
