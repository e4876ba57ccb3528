/// GSA, GNSS DOP and active satellites: the fix type, the satellites used, and the dilutions of precision.
///
///     $GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39
///     $GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2*09     (NMEA 4.10: system ID)
///
///            1 2 3                                 14 15  16  17  18
///     $--GSA,a,x,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,x.x,x.x,x.x,h*hh
///
///  1. Selection mode: `M` manual, `A` automatic
///  2. Fix type: 1 none, 2 2D, 3 3D
///  3.–14. PRNs of the satellites used (empty slots are skipped; above 99 for SBAS and BeiDou on some receivers)
/// 15. PDOP
/// 16. HDOP
/// 17. VDOP
/// 18. System ID (NMEA 4.10; see ``GNSSSystem``)
///
/// Some receivers send more than 12 PRN slots (24 have been seen); the three DOPs are always the last three fields
/// before the optional system ID, and up to ``maximumSatellites`` PRNs are kept.
public struct GSA: DecodableSentence, Hashable, Sendable {
    public static var kind: SentenceKind { .gsa }
    public static var address: SentenceAddress { .standard(.gsa) }
    public static var sample: String {
        "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39"
    }
    /// The most PRNs kept from one sentence.
    public static let maximumSatellites = 24

    public var talker: Talker
    /// `M` (manual) or `A` (automatic).
    public var selectionMode: UInt8?
    public var fixType: GSAFixType?
    /// PRNs (satellite IDs) of the satellites used, in sentence order, empty slots left out.
    public var satellites: FixedList<24, UInt16>
    public var pdop: FixedPoint?
    public var hdop: FixedPoint?
    public var vdop: FixedPoint?
    /// The NMEA 4.10 system ID, when sent; `nil` otherwise. The talker may also tell the system.
    public var systemID: UInt8?

    public init(
        talker: Talker = .gps, selectionMode: UInt8? = UInt8(ascii: "A"), fixType: GSAFixType?,
        satellites: FixedList<24, UInt16>, pdop: FixedPoint?, hdop: FixedPoint?, vdop: FixedPoint?,
        systemID: UInt8? = nil
    ) {
        self.talker = talker
        self.selectionMode = selectionMode
        self.fixType = fixType
        self.satellites = satellites
        self.pdop = pdop
        self.hdop = hdop
        self.vdop = vdop
        self.systemID = systemID
    }

    /// The satellite system of the PRNs: from the system ID when sent, else from the talker.
    public var system: GNSSSystem? {
        if let systemID { return GNSSSystem(rawValue: systemID) }
        return talker.system
    }

    /// The one decoding body: any form, field by field, with exact errors.
    @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        let count = sentence.fieldCount
        guard count >= 5 else { throw .tooFewFields(expected: 17, found: count) }
        // 2 + 12k + 3 fields, or one more for the system ID.
        let hasSystemID = (count - 6) % 12 == 0
        let slots = count - 5 - (hasSystemID ? 1 : 0)
        var fields = sentence.fieldReader
        talker = sentence.talker
        selectionMode = try fields.character()
        fixType = try fields.integer(in: 1...3).map { GSAFixType(rawValue: UInt8($0))! }
        satellites = FixedList()
        for _ in 0..<slots {
            if let prn = try fields.integer(in: 0...65535) { satellites.append(UInt16(prn)) }
        }
        pdop = try fields.fixedPoint()
        hdop = try fields.fixedPoint()
        vdop = try fields.fixedPoint()
        systemID = hasSystemID ? try fields.integer(in: 0...15).map(UInt8.init) : nil
    }

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("selection", letter: selectionMode)
        sink.field("fix", fixType.map { Int($0.rawValue) })
        sink.beginList("prns")
        for prn in satellites { sink.element(Int(prn)) }
        sink.endList()
        sink.field("pdop", pdop)
        sink.field("hdop", hdop)
        sink.field("vdop", vdop)
        sink.field("system_id", systemID.map(Int.init))
    }
}
