/// The values most uses need, by name, whatever the type that carries them: where a station is, how it moves, what
/// it is called. Each is `nil` when the message's type does not carry it or says "not available".
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
    public var position: (latitude: Double, longitude: Double)? {
        let coordinates: (Double?, Double?)
        switch report {
        case .position(let r): coordinates = (r.latitude, r.longitude)
        case .baseStation(let r): coordinates = (r.latitude, r.longitude)
        case .classBPosition(let r): coordinates = (r.latitude, r.longitude)
        case .extendedClassB(let r): coordinates = (r.latitude, r.longitude)
        case .aidToNavigation(let r): coordinates = (r.latitude, r.longitude)
        case .longRange(let r): coordinates = (r.latitude, r.longitude)
        case .staticAndVoyage, .staticData: return nil
        case .other(let type):
            guard type != 22, type != 23 else { return nil }
            coordinates = (number("lat"), number("lon"))
        }
        guard let latitude = coordinates.0, let longitude = coordinates.1 else { return nil }
        return (latitude, longitude)
    }

    /// ``position`` rounded to seven decimals (1.1 cm, finer than a position report's 1/10,000 minute, 0.19 m): what a
    /// track holds. A position is a ratio (minutes / 600,000), mostly with no short decimal: as a `Double` it would be
    /// written in 16 or 17 digits (`52.85825166666667`), which a track does not need and costs its writer most.
    public var trackPosition: (latitude: Double, longitude: Double)? {
        position.map { (($0.latitude * 1e7).rounded() / 1e7, ($0.longitude * 1e7).rounded() / 1e7) }
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

    /// Speed over ground in knots.
    public var speedKnots: Double? {
        switch report {
        case .position(let r): r.speed
        case .classBPosition(let r): r.speed
        case .extendedClassB(let r): r.speed
        case .longRange(let r): r.speed.map(Double.init)
        case .baseStation, .staticAndVoyage, .aidToNavigation, .staticData: nil
        case .other(let type): type == 8 || type == 6 ? nil : number("speed")
        }
    }

    /// Course over ground in degrees.
    public var courseDegrees: Double? {
        switch report {
        case .position(let r): r.course
        case .classBPosition(let r): r.course
        case .extendedClassB(let r): r.course
        case .longRange(let r): r.course.map(Double.init)
        case .baseStation, .staticAndVoyage, .aidToNavigation, .staticData: nil
        case .other(let type): type == 8 || type == 6 ? nil : number("course")
        }
    }

    /// True heading in degrees.
    public var headingDegrees: Int? {
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
    public var shipName: String? {
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
    public var callSign: String? {
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
    public var destination: String? {
        guard case .staticAndVoyage(let r) = report, !r.destination.isEmpty else { return nil }
        return string(r.destination)
    }

    /// The ship and cargo type (ITU-R M.1371 table 53): types 5, 19 and 24.
    public var shipType: Int? {
        switch report {
        case .staticAndVoyage(let r): r.shipType
        case .extendedClassB(let r): r.shipType
        case .staticData(let r): r.shipType
        default: nil
        }
    }

    /// Length and beam in metres, from the distances of the position reference to bow, stern, port and starboard:
    /// types 5, 19, 21 and 24.
    public var dimensions: (length: Int, beam: Int)? {
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
