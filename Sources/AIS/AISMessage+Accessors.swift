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
        guard type != 22, type != 23, let latitude = number("lat"), let longitude = number("lon") else { return nil }
        return (latitude, longitude)
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
    public var speedKnots: Double? { type == 8 || type == 6 ? nil : number("speed") }
    /// Course over ground in degrees.
    public var courseDegrees: Double? { type == 8 || type == 6 ? nil : number("course") }
    /// True heading in degrees.
    public var headingDegrees: Int? { number("heading").map { Int($0) } }
    /// The navigational status (0 under way using engine … 15 not defined), for types 1–3 and 27.
    public var navigationStatus: Int? { [1, 2, 3, 27].contains(type) ? number("status").map { Int($0) } : nil }

    /// The vessel's (or aid's) name: types 5, 19, 21 and 24.
    public var shipName: String? {
        switch type {
        case 5, 19, 21, 24: break
        default: return nil
        }
        return switch value(named: type == 21 ? "name" : "shipname") {
        case .text(let text): text.isEmpty ? nil : string(text)
        default: nil
        }
    }

    /// The call sign: types 5 and 24.
    public var callSign: String? {
        switch value(named: "callsign") {
        case .text(let text): text.isEmpty ? nil : string(text)
        default: nil
        }
    }

    /// The destination: type 5 (a type 6 clearance to enter port, DAC 1 FI 18, names a port too, the one its
    /// addressee is cleared for: not the sender's destination).
    public var destination: String? {
        guard type == 5 else { return nil }
        return switch value(named: "destination") {
        case .text(let text): text.isEmpty ? nil : string(text)
        default: nil
        }
    }

    /// The ship and cargo type (ITU-R M.1371 table 53): types 5, 19 and 24.
    public var shipType: Int? {
        [5, 19, 24].contains(type) ? number("shiptype").map { Int($0) } : nil
    }

    /// Length and beam in metres, from the distances of the position reference to bow, stern, port and starboard:
    /// types 5, 19, 21 and 24.
    public var dimensions: (length: Int, beam: Int)? {
        guard let bow = number("to_bow"), let stern = number("to_stern"), let port = number("to_port"),
            let starboard = number("to_starboard"), bow + stern > 0
        else { return nil }
        return (Int(bow + stern), Int(port + starboard))
    }
}
