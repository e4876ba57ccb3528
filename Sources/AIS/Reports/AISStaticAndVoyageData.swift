/// Type 5: a class A station's static and voyage data. Texts are where they are in the message
/// (``AISMessage/string(_:)`` makes a `String` of one); numbers are `nil` when the message says "not available".
public struct AISStaticAndVoyageData: Sendable, Equatable {
    /// The IMO number.
    public var imo: Int?
    /// The AIS version: 0 for ITU-R M.1371-1, 1 for -3, 2 for -5.
    public var aisVersion: Int
    public var callSign: AISText
    public var shipName: AISText
    /// The ship and cargo type (ITU-R M.1371 table 53).
    public var shipType: Int?
    /// Metres from the position reference to bow, stern, port and starboard.
    public var toBow: Int
    public var toStern: Int
    public var toPort: Int
    public var toStarboard: Int
    /// The kind of position fixing device.
    public var epfd: Int
    /// The estimated time of arrival (month, day, hour, minute; 0, 0, 24, 60 when not available).
    public var eta: (month: Int, day: Int, hour: Int, minute: Int)
    /// The present maximum draught in metres.
    public var draught: Double?
    public var destination: AISText
    /// 0 when data terminal equipment is available, 1 when not.
    public var dte: Int

    @inline(__always)
    init(_ bits: AISBitReader) {
        typealias L = AISLayout.StaticAndVoyageData
        imo = bits.available(L.imo)
        aisVersion = bits.integer(L.aisVersion)
        callSign = bits.text(L.callSign)
        shipName = bits.text(L.shipName)
        shipType = bits.available(L.shipType)
        toBow = bits.integer(L.toBow)
        toStern = bits.integer(L.toStern)
        toPort = bits.integer(L.toPort)
        toStarboard = bits.integer(L.toStarboard)
        epfd = bits.integer(L.epfd)
        if case .monthDayTime(let month, let day, let hour, let minute) = bits.value(L.eta) {
            eta = (month, day, hour, minute)
        } else {
            eta = (0, 0, 24, 60)
        }
        draught = bits.number(L.draught)
        destination = bits.text(L.destination)
        dte = bits.integer(L.dte)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.imo == b.imo && a.aisVersion == b.aisVersion && a.callSign == b.callSign && a.shipName == b.shipName
            && a.shipType == b.shipType && a.toBow == b.toBow && a.toStern == b.toStern && a.toPort == b.toPort
            && a.toStarboard == b.toStarboard && a.epfd == b.epfd && a.eta == b.eta && a.draught == b.draught
            && a.destination == b.destination && a.dte == b.dte
    }
}
