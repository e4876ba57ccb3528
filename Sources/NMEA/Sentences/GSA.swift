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
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.gsa) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39"
    }
    /// The most PRNs kept from one sentence.
    public static let maximumSatellites = 24

    /// Who sent the sentence.
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

    /// A value with the given fields, for tests and for writing sentences.
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
    ///
    /// Where the DOPs are depends on how many fields the sentence has (2 + 12k + 3, or one more for the system ID).
    /// The usual count — twelve slots, 17 or 18 fields — is read without counting: ``read(_:slots:systemID:)`` says
    /// at the end whether the sentence had that many fields. Only a sentence with another count is counted and read
    /// again: with as many slots as its count leaves before the three DOPs, or, with fewer than five fields (cut
    /// short, as `$GPGSA,A,`), as slots alone.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        self.init(
            talker: sentence.talker, selectionMode: nil, fixType: nil, satellites: FixedList(), pdop: nil,
            hdop: nil, vdop: nil)
        if read(&fields, slots: 12, systemID: nil) {
            try fields.requireRead(1)
            return
        }
        let count = sentence.fieldCount
        try fields.require(1)
        let hasSystemID = count >= 5 && (count - 6) % 12 == 0
        let slots = count >= 5 ? count - 5 - (hasSystemID ? 1 : 0) : count - 2
        self = GSA(
            talker: sentence.talker, selectionMode: nil, fixType: nil, satellites: FixedList(), pdop: nil,
            hdop: nil, vdop: nil)
        fields = sentence.fieldReader
        _ = read(&fields, slots: slots, systemID: hasSystemID)
    }

    /// Reads the fields with `slots` PRN slots and then the DOPs, and a system ID after them when `systemID` says
    /// so; when it is `nil` (the usual layout), when exactly one field follows the DOPs.
    /// - Returns: `false` when `systemID` is `nil` and the sentence turned out to have another number of fields than
    ///   17 or 18 (nothing is then to be kept).
    @inline(__always)
    mutating func read(_ fields: inout FieldReader, slots: Int, systemID: Bool?) -> Bool {
        selectionMode = fields.letter(in: "MA")
        fixType = fields.integer(in: 1...3).map { GSAFixType(rawValue: UInt8($0))! }
        for _ in 0..<max(slots, 0) {
            if let prn = fields.integer(in: 0...65535) { satellites.append(UInt16(prn)) }
        }
        pdop = fields.fixedPoint()
        hdop = fields.fixedPoint()
        vdop = fields.fixedPoint()
        let hasSystemID: Bool
        if let systemID {
            hasSystemID = systemID
        } else {
            // 17 fields: nothing follows; 18: the system ID, the last field. Anything else is another layout.
            guard !fields.ranPastEnd, !fields.hasMore || fields.isAtLastField else { return false }
            hasSystemID = fields.hasMore
        }
        if hasSystemID {
            let start = fields.position
            let id = fields.hexadecimal()
            if let id, id > 15 {
                fields.reject(.outOfRange, fieldAt: start)
            } else {
                self.systemID = id.map(UInt8.init)
            }
        }
        return true
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
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
