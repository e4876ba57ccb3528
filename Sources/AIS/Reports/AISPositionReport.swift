/// Types 1, 2 and 3: a class A station's position report (scheduled, assigned, or in answer to an interrogation).
/// Each value is in units, `nil` when the message says "not available".
public struct AISPositionReport: Sendable, Equatable {
    /// The navigational status: 0 under way using engine, 1 at anchor, 5 moored … 15 not defined.
    public var status: Int
    /// The rate of turn in degrees per minute (positive to starboard), from the indicator's square law.
    public var turn: Double?
    /// Speed over ground in knots (102.2 means 102.2 or more).
    public var speed: Double?
    /// `true` for a position better than 10 m (a DGNSS fix).
    public var accuracy: Bool
    public var longitude: Double?
    public var latitude: Double?
    /// Course over ground in degrees.
    public var course: Double?
    /// True heading in degrees.
    public var heading: Int?
    /// The second of the UTC minute the report was made (61–63 for a station without a position).
    public var second: Int?
    /// The special manoeuvre indicator: 0 not available, 1 none, 2 engaged in one.
    public var maneuver: Int
    /// `true` when RAIM is in use.
    public var raim: Bool
    /// The radio status (SOTDMA or ITDMA communication state).
    public var radio: Int

    @inline(__always)
    init(_ bits: AISBitReader) {
        typealias L = AISLayout.PositionReport
        status = bits.integer(L.status)
        turn = bits.number(L.turn)
        speed = bits.number(L.speed)
        accuracy = bits.flag(L.accuracy)
        longitude = bits.number(L.longitude)
        latitude = bits.number(L.latitude)
        course = bits.number(L.course)
        heading = bits.available(L.heading)
        second = bits.available(L.second)
        maneuver = bits.integer(L.maneuver)
        raim = bits.flag(L.raim)
        radio = bits.integer(L.radio)
    }
}
