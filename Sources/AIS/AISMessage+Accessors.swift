/// The values most uses need, whatever the type that carries them: where a station is, how it moves, what it is
/// called. Each is `nil` when the message's type does not carry it or says "not available". They are read from the
/// type's report (``report``), or by name from the tables for the types without one. Each accessor reads the report
/// again: one that wants several values (``Vessel/update(_:at:)``) reads it once and takes each from it with the
/// `(of:)` form.
extension AISMessage {
    /// The field called `name` (gpsd's name) in this message, if its type has one.
    public func field(named name: StaticString) -> AISField? {
        var found: AISField?
        forEachField { field in
            if found == nil, Self.same(field.name, name) { found = field }
        }
        return found
    }

    static func same(_ a: StaticString, _ b: StaticString) -> Bool {
        a.utf8CodeUnitCount == b.utf8CodeUnitCount
            && a.withUTF8Buffer { x in b.withUTF8Buffer { y in x.elementsEqual(y) } }
    }

    /// The value of the field called `name`, in units.
    public func value(named name: StaticString) -> AISValue? {
        field(named: name).flatMap { value($0) }
    }

    private func number(_ name: StaticString) -> Double? {
        switch value(named: name) {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The reported position in degrees (WGS 84), for the types that report one (1–4, 9, 11, 17–19, 21, 27) and
    /// the binary applications that carry one (meteorological data, a port's clearance, a traffic signal): for
    /// those, where the observation, the port or the signal is, not the sender.
    public var position: (latitude: Double, longitude: Double)? { motion(of: report).position }

    /// Speed over ground in knots.
    public var speedKnots: Double? { motion(of: report).speed }

    /// Course over ground in degrees.
    public var courseDegrees: Double? { motion(of: report).course }

    /// What a track holds of a report of the station's own position (``reportsOwnPosition``), all read from one
    /// report: the position rounded to seven decimals (1.1 cm, finer than a position report's 1/10,000 minute,
    /// 0.19 m), the speed in m/s and the course in degrees. A position is a ratio (minutes / 600,000), mostly with no
    /// short decimal: as a `Double` it would be written in 16 or 17 digits (`52.85825166666667`), which a track does
    /// not need and costs its writer most. `nil` for other types, or without a position.
    public var trackPoint: (latitude: Double, longitude: Double, speed: Double?, course: Double?)? {
        guard reportsOwnPosition else { return nil }
        let motion = motion(of: report)
        guard let position = motion.position else { return nil }
        return (
            (position.latitude * 1e7).rounded() / 1e7, (position.longitude * 1e7).rounded() / 1e7,
            motion.speed.map { $0 * 1852 / 3600 }, motion.course
        )
    }

    /// Position, speed in knots and course, from `report`, this message's (or by name, for the types without one).
    func motion(of report: AISReport) -> (
        position: (latitude: Double, longitude: Double)?, speed: Double?, course: Double?
    ) {
        func located(_ latitude: Double?, _ longitude: Double?) -> (latitude: Double, longitude: Double)? {
            guard let latitude, let longitude else { return nil }
            return (latitude, longitude)
        }
        switch report {
        case .position(let r): return (located(r.latitude, r.longitude), r.speed, r.course)
        case .classBPosition(let r): return (located(r.latitude, r.longitude), r.speed, r.course)
        case .extendedClassB(let r): return (located(r.latitude, r.longitude), r.speed, r.course)
        case .longRange(let r):
            return (located(r.latitude, r.longitude), r.speed.map(Double.init), r.course.map(Double.init))
        case .baseStation(let r): return (located(r.latitude, r.longitude), nil, nil)
        case .aidToNavigation(let r): return (located(r.latitude, r.longitude), nil, nil)
        case .staticAndVoyage, .staticData: return (nil, nil, nil)
        case .other(let type):
            // Types 22 and 23 name an area's corners, not a position; binary messages' speeds are not the sender's.
            let position = type == 22 || type == 23 ? nil : located(number("lat"), number("lon"))
            let moves = type != 6 && type != 8
            return (position, moves ? number("speed") : nil, moves ? number("course") : nil)
        }
    }

    /// `true` for the types whose position is the sending station's own, where it is (class A 1–3, SAR aircraft 9,
    /// class B 18 and 19, long range 27): a point of its track. A base station (4) or an aid to navigation (21)
    /// stays where it is.
    public var reportsOwnPosition: Bool {
        switch type {
        case 1, 2, 3, 9, 18, 19, 27: true
        default: false
        }
    }

    /// `true` for the types whose report carries neither names nor dimensions (position and time reports): the
    /// accessors of those answer without reading the report.
    private var carriesNoStaticData: Bool {
        switch type {
        case 1, 2, 3, 4, 11, 18, 27: true
        default: false
        }
    }

    /// True heading in degrees.
    public var headingDegrees: Int? { headingDegrees(of: report) }

    /// ``headingDegrees`` from `report`, this message's.
    func headingDegrees(of report: AISReport) -> Int? {
        switch report {
        case .position(let r): r.heading
        case .classBPosition(let r): r.heading
        case .extendedClassB(let r): r.heading
        case .baseStation, .staticAndVoyage, .aidToNavigation, .staticData, .longRange: nil
        case .other: number("heading").map { Int($0) }
        }
    }

    /// The navigational status (0 under way using engine … 15 not defined), for types 1–3 and 27.
    public var navigationStatus: Int? {
        switch report {
        case .position(let r): r.status
        case .longRange(let r): r.status
        default: nil
        }
    }

    /// The vessel's (or aid's) name: types 5, 19, 21 and 24.
    public var shipName: String? { carriesNoStaticData ? nil : shipName(of: report) }

    /// ``shipName`` from `report`, this message's.
    func shipName(of report: AISReport) -> String? {
        let name: AISText
        switch report {
        case .staticAndVoyage(let r): name = r.shipName
        case .extendedClassB(let r): name = r.shipName
        case .aidToNavigation(let r): name = r.name
        case .staticData(let r): name = r.shipName
        default: return nil
        }
        return name.isEmpty ? nil : string(name)
    }

    /// The call sign: types 5 and 24.
    public var callSign: String? { carriesNoStaticData ? nil : callSign(of: report) }

    /// ``callSign`` from `report`, this message's.
    func callSign(of report: AISReport) -> String? {
        let callSign: AISText
        switch report {
        case .staticAndVoyage(let r): callSign = r.callSign
        case .staticData(let r): callSign = r.callSign
        case .other:
            guard case .text(let text) = value(named: "callsign") else { return nil }
            callSign = text
        default: return nil
        }
        return callSign.isEmpty ? nil : string(callSign)
    }

    /// The destination: type 5 (a type 6 clearance to enter port, DAC 1 FI 18, names a port too, the one its
    /// addressee is cleared for: not the sender's destination).
    public var destination: String? { type == 5 ? destination(of: report) : nil }

    /// ``destination`` from `report`, this message's.
    func destination(of report: AISReport) -> String? {
        guard type == 5, case .staticAndVoyage(let r) = report, !r.destination.isEmpty else { return nil }
        return string(r.destination)
    }

    /// The ship and cargo type (ITU-R M.1371 table 53): types 5, 19 and 24.
    public var shipType: Int? { carriesNoStaticData ? nil : shipType(of: report) }

    /// ``shipType`` from `report`, this message's.
    func shipType(of report: AISReport) -> Int? {
        switch report {
        case .staticAndVoyage(let r): r.shipType
        case .extendedClassB(let r): r.shipType
        case .staticData(let r): r.shipType
        default: nil
        }
    }

    /// Length and beam in metres, from the distances of the position reference to bow, stern, port and starboard:
    /// types 5, 19, 21 and 24.
    public var dimensions: (length: Int, beam: Int)? { carriesNoStaticData ? nil : dimensions(of: report) }

    /// ``dimensions`` from `report`, this message's.
    func dimensions(of report: AISReport) -> (length: Int, beam: Int)? {
        let distances: (Int?, Int?, Int?, Int?)
        switch report {
        case .staticAndVoyage(let r): distances = (r.toBow, r.toStern, r.toPort, r.toStarboard)
        case .extendedClassB(let r): distances = (r.toBow, r.toStern, r.toPort, r.toStarboard)
        case .aidToNavigation(let r): distances = (r.toBow, r.toStern, r.toPort, r.toStarboard)
        case .staticData(let r): distances = (r.toBow, r.toStern, r.toPort, r.toStarboard)
        case .position, .baseStation, .classBPosition, .longRange: return nil
        case .other:
            distances = (
                number("to_bow").map { Int($0) }, number("to_stern").map { Int($0) },
                number("to_port").map { Int($0) }, number("to_starboard").map { Int($0) }
            )
        }
        guard let bow = distances.0, let stern = distances.1, let port = distances.2, let starboard = distances.3,
            bow + stern > 0
        else { return nil }
        return (bow + stern, port + starboard)
    }
}
