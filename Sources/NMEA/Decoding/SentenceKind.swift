/// The registry of decoded sentence types: one case per type, and in ``withDecoder(_:)`` the one line that names
/// its decoder and the ``ParsedSentence`` case holding its values.
///
/// Everything per type derives from here: dispatch by address (``init(_:)``), ``name``, ``DecoderStatistics``,
/// ``ParsedSentence``, the fuzz target's addresses and the tests that every type decodes its
/// ``DecodableSentence/sample``.
///
/// **Adding a type** is its file (field diagram, sample, values, one decoding `init`,
/// ``DecodableSentence/describe(to:)``) plus its registration: a case here with its line in ``withDecoder(_:)``, and
/// its ``ParsedSentence`` case with its line in ``ParsedSentence/visit(into:)``. The compiler's exhaustive switches
/// point at each line. A type that carries fix data (a time, a position…) also gets its merge in ``FixAssembler``;
/// one that carries none needs nothing there (its place in the receiver's cycle still counts, as an unknown type's
/// does).
public enum SentenceKind: Int, CaseIterable, Sendable {
    case rmc, gga, gsa, gsv, gll, vtg, zda, gst, gns, gbs, grs, txt, dtm, hdt, ths
    case pubxPosition, pubxSatellites, pubxTime, pgrme, pgrmz, pgrmm

    /// Calls `body` with this kind's decoder type and the ``ParsedSentence`` case for its values.
    @inlinable @inline(__always)
    public func withDecoder<Body: SentenceDecoderBody>(_ body: inout Body) throws(Body.Failure) -> Body.Output {
        switch self {
        case .rmc: try body.decoder(RMC.self, ParsedSentence.rmc)
        case .gga: try body.decoder(GGA.self, ParsedSentence.gga)
        case .gsa: try body.decoder(GSA.self, ParsedSentence.gsa)
        case .gsv: try body.decoder(GSV.self, ParsedSentence.gsv)
        case .gll: try body.decoder(GLL.self, ParsedSentence.gll)
        case .vtg: try body.decoder(VTG.self, ParsedSentence.vtg)
        case .zda: try body.decoder(ZDA.self, ParsedSentence.zda)
        case .gst: try body.decoder(GST.self, ParsedSentence.gst)
        case .gns: try body.decoder(GNS.self, ParsedSentence.gns)
        case .gbs: try body.decoder(GBS.self, ParsedSentence.gbs)
        case .grs: try body.decoder(GRS.self, ParsedSentence.grs)
        case .txt: try body.decoder(TXT.self, ParsedSentence.txt)
        case .dtm: try body.decoder(DTM.self, ParsedSentence.dtm)
        case .hdt: try body.decoder(HDT.self, ParsedSentence.hdt)
        case .ths: try body.decoder(THS.self, ParsedSentence.ths)
        case .pubxPosition: try body.decoder(PUBXPosition.self, ParsedSentence.pubxPosition)
        case .pubxSatellites: try body.decoder(PUBXSatellites.self, ParsedSentence.pubxSatellites)
        case .pubxTime: try body.decoder(PUBXTime.self, ParsedSentence.pubxTime)
        case .pgrme: try body.decoder(PGRME.self, ParsedSentence.pgrme)
        case .pgrmz: try body.decoder(PGRMZ.self, ParsedSentence.pgrmz)
        case .pgrmm: try body.decoder(PGRMM.self, ParsedSentence.pgrmm)
        }
    }

    /// The decoder for `sentence`, or `nil` when none decodes its type.
    ///
    /// One hashed lookup on the packed letters of the address, in a table built from the registry.
    @inlinable @inline(__always)
    public init?(_ sentence: Sentence) {
        guard let kind = sentenceKindTable.kind(of: sentence) else { return nil }
        self = kind
    }

    /// How sentences of this kind are addressed.
    public var address: SentenceAddress {
        struct Address: SentenceDecoderBody {
            func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) -> SentenceAddress {
                S.address
            }
        }
        var body = Address()
        return withDecoder(&body)
    }

    /// The name used in output: `"RMC"`, `"PUBX,00"`, `"PGRME"`…
    public var name: String { address.name }
}

/// What ``SentenceKind/withDecoder(_:)`` hands a kind's decoder type to: a generic function, written as a type.
public protocol SentenceDecoderBody {
    associatedtype Output = Void
    associatedtype Failure: Error = Never
    /// Called with the decoder `type` and `parsed`, the ``ParsedSentence`` case that holds its values.
    mutating func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) throws(Failure)
        -> Output
}

/// Address → kind, built once from the registry: open addressing over 64 slots keyed by the packed type letters.
@usableFromInline
struct SentenceKindTable: Sendable {
    /// The packed letters of each slot's type; 0 for an empty slot (no registered type packs to 0).
    @usableFromInline var types: InlineArray<64, UInt64>
    /// Each slot's kind (bits 0–7), whether the address is proprietary (bit 8) and its message ID's two bytes
    /// (bits 16–31, 0 when it has none).
    @usableFromInline var entries: InlineArray<64, UInt32>

    init() {
        types = InlineArray(repeating: 0)
        entries = InlineArray(repeating: 0)
        for kind in SentenceKind.allCases {
            let address = kind.address
            precondition(address.type.rawValue != 0, "\(kind) has an empty type")
            let id = Array(address.messageID.utf8)
            precondition(id.isEmpty || id.count == 2, "\(kind): a message ID has two characters")
            let packedID = id.isEmpty ? 0 : UInt32(id[0]) | UInt32(id[1]) << 8
            var slot = SentenceKindTable.slot(address.type)
            while types[slot] != 0 { slot = (slot + 1) & 63 }
            types[slot] = address.type.rawValue
            entries[slot] = UInt32(kind.rawValue) | (address.isProprietary ? 1 << 8 : 0) | packedID << 16
        }
    }

    @inlinable @inline(__always)
    static func slot(_ type: SentenceType) -> Int {
        Int(truncatingIfNeeded: (type.rawValue &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    @inlinable @inline(__always)
    func kind(of sentence: Sentence) -> SentenceKind? {
        let type = sentence.type.rawValue
        let proprietary: UInt32 = sentence.talker == .proprietary ? 1 << 8 : 0
        var slot = SentenceKindTable.slot(sentence.type)
        while true {
            let stored = types[unchecked: slot]
            if stored == 0 { return nil }
            let entry = entries[unchecked: slot]
            if stored == type && entry & (1 << 8) == proprietary {
                let id = entry >> 16
                if id == 0 || id == sentence.messageID { return SentenceKind(rawValue: Int(entry & 0xFF)) }
            }
            slot = (slot + 1) & 63
        }
    }
}

@usableFromInline
let sentenceKindTable = SentenceKindTable()

extension Sentence {
    /// The first two bytes of field 1, packed as ``SentenceKindTable`` keeps message IDs (`00` of `$PUBX,00`); 0
    /// when the sentence is shorter.
    @inlinable
    var messageID: UInt32 {
        guard fieldsOffset + 2 <= bytes.count else { return 0 }
        return UInt32(bytes[fieldsOffset]) | UInt32(bytes[fieldsOffset + 1]) << 8
    }
}
