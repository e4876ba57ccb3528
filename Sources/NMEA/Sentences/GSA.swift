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
    ///
    /// Where the DOPs are depends on how many fields the sentence has (2 + 12k + 3, or one more for the system ID).
    /// The usual count — twelve slots, 17 or 18 fields — is read without counting: ``read(_:layout:)`` checks at the
    /// end that the sentence had that many fields. Only a sentence with another count is counted and read again.
    @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        self.init(
            talker: sentence.talker, selectionMode: nil, fixType: nil, satellites: FixedList(), pdop: nil,
            hdop: nil, vdop: nil)
        switch GSA.read(sentence, layout: nil, into: &self) {
        case nil: return
        case .field(let error): throw error
        case .otherLayout:
            let count = sentence.fieldCount
            guard count >= 5 else { throw .tooFewFields(expected: 17, found: count) }
            let hasSystemID = (count - 6) % 12 == 0
            satellites.removeAll()
            switch GSA.read(sentence, layout: (count - 5 - (hasSystemID ? 1 : 0), hasSystemID), into: &self) {
            case nil: return
            case .field(let error): throw error
            case .otherLayout: preconditionFailure("a GSA read with its counted layout")
            }
        }
    }

    /// Why ``read(_:layout:into:)`` gave no value: a field that did not decode, or (for the usual layout only) a
    /// sentence with another number of fields.
    enum Failure: Error {
        case field(NMEAError)
        case otherLayout
    }

    /// Reads the fields into `gsa` (whose list of satellites is empty) with the layout's number of PRN slots, and a
    /// system ID after the DOPs if it has one; with no layout, the usual twelve slots, and a system ID when exactly
    /// one field follows the DOPs.
    @inline(__always)
    static func read(_ sentence: Sentence, layout: (slots: Int, hasSystemID: Bool)?, into gsa: inout GSA)
        -> Failure?
    {
        var fields = sentence.fieldReader
        do throws(NMEAError) {
            gsa.selectionMode = try fields.character()
            gsa.fixType = try fields.integer(in: 1...3).map { GSAFixType(rawValue: UInt8($0))! }
            for _ in 0..<(layout?.slots ?? 12) {
                if let prn = try fields.integer(in: 0...65535) { gsa.satellites.append(UInt16(prn)) }
            }
            gsa.pdop = try fields.fixedPoint()
            gsa.hdop = try fields.fixedPoint()
            gsa.vdop = try fields.fixedPoint()
            let hasSystemID: Bool
            if let layout {
                hasSystemID = layout.hasSystemID
            } else {
                // 17 fields: nothing follows; 18: the system ID, the last field. Anything else is another layout.
                guard !fields.ranPastEnd, !fields.hasMore || fields.isAtLastField else { return .otherLayout }
                hasSystemID = fields.hasMore
            }
            gsa.systemID = hasSystemID ? try fields.integer(in: 0...15).map(UInt8.init) : nil
            return nil
        } catch {
            // An error belongs to the usual layout only if the sentence has its count.
            if layout == nil && !(17...18).contains(sentence.fieldCount) { return .otherLayout }
            return .field(error)
        }
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
