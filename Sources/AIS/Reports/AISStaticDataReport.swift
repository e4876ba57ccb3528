/// Type 24: a class B station's static data, parts A (the name) and B together, as ``AISDecoder`` pairs them. An
/// auxiliary craft (MMSI 98XXXYYYY) names its mother ship instead of its dimensions. Numbers are `nil` when "not
/// available" or not sent.
public struct AISStaticDataReport: Sendable, Equatable {
    public var shipName: AISText
    /// The ship and cargo type.
    public var shipType: Int?
    /// The maker's ID (three characters; older units send seven).
    public var vendorID: AISText
    /// The unit's model and serial number.
    public var model: Int
    public var serial: Int
    public var callSign: AISText
    /// Metres from the position reference to bow, stern, port and starboard; `nil` for an auxiliary craft.
    public var toBow: Int?
    public var toStern: Int?
    public var toPort: Int?
    public var toStarboard: Int?
    /// The mother ship of an auxiliary craft.
    public var mothershipMMSI: Int?

    @inline(__always)
    init(_ bits: AISBitReader) {
        let isAuxiliary = bits.isAuxiliaryCraft
        typealias L = AISLayout.StaticDataReport
        shipName = bits.text(L.shipName)
        shipType = bits.available(L.shipType)
        vendorID = bits.text(L.vendorID)
        model = bits.integer(L.model)
        serial = bits.integer(L.serial)
        callSign = bits.text(L.callSign)
        if isAuxiliary {
            mothershipMMSI = bits.available(L.mothershipMMSI)
        } else {
            toBow = bits.available(L.toBow)
            toStern = bits.available(L.toStern)
            toPort = bits.available(L.toPort)
            toStarboard = bits.available(L.toStarboard)
        }
    }
}
