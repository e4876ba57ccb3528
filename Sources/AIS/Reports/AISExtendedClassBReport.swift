/// Type 19: a class B station's extended position report, with its name, type and dimensions. Numbers are in
/// units, `nil` when the message says "not available".
public struct AISExtendedClassBReport: Sendable, Equatable {
    /// Speed over ground in knots.
    public var speed: Double?
    /// `true` for a position better than 10 m.
    public var accuracy: Bool
    public var longitude: Double?
    public var latitude: Double?
    /// Course over ground in degrees.
    public var course: Double?
    /// True heading in degrees.
    public var heading: Int?
    /// The second of the UTC minute the report was made.
    public var second: Int?
    public var shipName: AISText
    /// The ship and cargo type.
    public var shipType: Int?
    /// Metres from the position reference to bow, stern, port and starboard.
    public var toBow: Int
    public var toStern: Int
    public var toPort: Int
    public var toStarboard: Int
    /// The kind of position fixing device.
    public var epfd: Int
    /// `true` when RAIM is in use.
    public var raim: Bool
    /// 0 when data terminal equipment is available.
    public var dte: Int
    /// `true` in assigned mode.
    public var assigned: Bool

    @inline(__always)
    init(_ bits: AISBitReader) {
        typealias L = AISLayout.ExtendedClassBReport
        speed = bits.number(L.B.speed)
        accuracy = bits.flag(L.B.accuracy)
        longitude = bits.number(L.B.longitude)
        latitude = bits.number(L.B.latitude)
        course = bits.number(L.B.course)
        heading = bits.available(L.B.heading)
        second = bits.available(L.B.second)
        shipName = bits.text(L.shipName)
        shipType = bits.available(L.shipType)
        toBow = bits.integer(L.toBow)
        toStern = bits.integer(L.toStern)
        toPort = bits.integer(L.toPort)
        toStarboard = bits.integer(L.toStarboard)
        epfd = bits.integer(L.epfd)
        raim = bits.flag(L.raim)
        dte = bits.integer(L.dte)
        assigned = bits.flag(L.assigned)
    }
}
