/// Types 4 and 11: a base station's report of its position and the UTC time, or a station's answer to a UTC and
/// date inquiry. Each value is in units, `nil` when the message says "not available".
public struct AISBaseStationReport: Sendable, Equatable {
    /// The UTC time as sent: 0 for a part not available (year 0, month 0, day 0, hour 24, minute 60, second 60).
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// `true` for a position better than 10 m.
    public var accuracy: Bool
    public var longitude: Double?
    public var latitude: Double?
    /// The kind of position fixing device: 1 GPS, 2 GLONASS … 15 internal GNSS.
    public var epfd: Int
    /// `true` when RAIM is in use.
    public var raim: Bool
    /// The radio status.
    public var radio: Int

    @inline(__always)
    init(_ bits: AISBitReader) {
        typealias L = AISLayout.BaseStationReport
        if case .timestamp(let year, let month, let day, let hour, let minute, let second) = bits.value(L.timestamp) {
            (self.year, self.month, self.day, self.hour, self.minute, self.second) =
                (year, month, day, hour, minute, second)
        } else {
            (year, month, day, hour, minute, second) = (0, 0, 0, 24, 60, 60)
        }
        accuracy = bits.flag(L.accuracy)
        longitude = bits.number(L.longitude)
        latitude = bits.number(L.latitude)
        epfd = bits.integer(L.epfd)
        raim = bits.flag(L.raim)
        radio = bits.integer(L.radio)
    }
}
