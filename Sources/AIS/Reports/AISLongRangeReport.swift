/// Type 27: a long-range broadcast (received by satellite): a coarse position, speed and course. Numbers are in
/// units, `nil` when the message says "not available".
public struct AISLongRangeReport: Sendable, Equatable {
    /// The navigational status.
    public var status: Int
    /// `true` for a position better than 10 m.
    public var accuracy: Bool
    /// Degrees, to a tenth of a minute.
    public var longitude: Double?
    public var latitude: Double?
    /// Speed over ground in whole knots.
    public var speed: Int?
    /// Course over ground in whole degrees.
    public var course: Int?
    /// `true` when RAIM is in use.
    public var raim: Bool
    /// `true` when the position is more than five seconds old (the position latency bit).
    public var isStale: Bool

    @inline(__always)
    init(_ bits: AISBitReader) {
        typealias L = AISLayout.LongRange
        status = bits.integer(L.status)
        accuracy = bits.flag(L.accuracy)
        longitude = bits.number(L.longitude)
        latitude = bits.number(L.latitude)
        speed = bits.available(L.speed)
        course = bits.available(L.course)
        raim = bits.flag(L.raim)
        isStale = bits.flag(L.isStale)
    }
}
