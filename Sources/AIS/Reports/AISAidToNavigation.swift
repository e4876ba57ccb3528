/// Type 21: an aid to navigation's report (a buoy, a light, a virtual mark). Its name includes the extension sent
/// after the fixed fields when it is longer than 20 characters. Numbers are `nil` when "not available".
public struct AISAidToNavigation: Sendable, Equatable {
    /// The kind of aid (ITU-R M.1371 table 74): 1 reference point … 31 light vessel.
    public var aidType: Int
    public var name: AISText
    /// `true` for a position better than 10 m.
    public var accuracy: Bool
    public var longitude: Double?
    public var latitude: Double?
    /// Metres from the position reference to bow, stern, port and starboard.
    public var toBow: Int
    public var toStern: Int
    public var toPort: Int
    public var toStarboard: Int
    /// The kind of position fixing device.
    public var epfd: Int
    /// The second of the UTC minute the report was made.
    public var second: Int?
    /// `true` when a floating aid is off its assigned position.
    public var offPosition: Bool
    /// `true` when RAIM is in use.
    public var raim: Bool
    /// `true` for a virtual aid (no physical mark where it is).
    public var isVirtual: Bool

    @inline(__always)
    init(_ bits: AISBitReader) {
        typealias L = AISLayout.AidToNavigation
        aidType = bits.integer(L.aidType)
        name = bits.text(L.name)
        accuracy = bits.flag(L.accuracy)
        longitude = bits.number(L.longitude)
        latitude = bits.number(L.latitude)
        toBow = bits.integer(L.toBow)
        toStern = bits.integer(L.toStern)
        toPort = bits.integer(L.toPort)
        toStarboard = bits.integer(L.toStarboard)
        epfd = bits.integer(L.epfd)
        second = bits.available(L.second)
        offPosition = bits.flag(L.offPosition)
        raim = bits.flag(L.raim)
        isVirtual = bits.flag(L.isVirtual)
    }
}
