/// Type 18: a class B station's position report. Each value is in units, `nil` when the message says "not
/// available".
public struct AISClassBPositionReport: Sendable, Equatable {
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
    /// `true` for a carrier-sense (CS) unit, `false` for a SOTDMA one.
    public var carrierSense: Bool
    /// `true` when the unit has a display for type 12 and 14 messages.
    public var display: Bool
    /// `true` when the unit has a DSC function.
    public var dsc: Bool
    /// `true` when the unit can use the whole marine band.
    public var band: Bool
    /// `true` when the unit takes channel management (type 22).
    public var acceptsChannelManagement: Bool
    /// `true` when RAIM is in use.
    public var raim: Bool
    /// The radio status.
    public var radio: Int

    @inline(__always)
    init(_ bits: AISBitReader) {
        typealias L = AISLayout.ClassBPositionReport
        speed = bits.number(L.speed)
        accuracy = bits.flag(L.accuracy)
        longitude = bits.number(L.longitude)
        latitude = bits.number(L.latitude)
        course = bits.number(L.course)
        heading = bits.available(L.heading)
        second = bits.available(L.second)
        carrierSense = bits.flag(L.carrierSense)
        display = bits.flag(L.display)
        dsc = bits.flag(L.dsc)
        band = bits.flag(L.band)
        acceptsChannelManagement = bits.flag(L.acceptsChannelManagement)
        raim = bits.flag(L.raim)
        radio = bits.integer(L.radio)
    }
}
