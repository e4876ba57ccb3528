/// A sentence decoded into its type, or left as a view when its type is not one this library decodes.
///
///     try framer.feed(bytes) { event in
///         guard case .sentence(let sentence) = event else { return }
///         switch try? ParsedSentence(sentence) {
///         case .rmc(let rmc): …
///         case .unknown(let sentence): … // decode your own from `sentence.fieldReader`
///         default: break
///         }
///     }
///
/// Like ``Sentence``, a `ParsedSentence` is valid only inside the callback (its `.unknown` and `.pubxSatellites`
/// cases are views). The structs in the other cases own their values and may be kept.
public enum ParsedSentence {
    case rmc(RMC)
    case gga(GGA)
    case gsa(GSA)
    case gsv(GSV)
    case gll(GLL)
    case vtg(VTG)
    case zda(ZDA)
    case gst(GST)
    case gns(GNS)
    case gbs(GBS)
    case grs(GRS)
    case txt(TXT)
    case dtm(DTM)
    case hdt(HDT)
    case ths(THS)
    case pubxPosition(PUBXPosition)
    case pubxSatellites(PUBXSatellites)
    case pubxTime(PUBXTime)
    case pgrme(PGRME)
    case pgrmz(PGRMZ)
    case pgrmm(PGRMM)
    /// A sentence of a type not decoded here, with its view.
    case unknown(Sentence)

    /// Decodes `sentence` by its type.
    /// - Throws: the decoder's ``NMEAError`` when a field is malformed or missing.
    @inlinable @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        var builder = Builder(result: .unknown(sentence))
        try sentence.decode(into: &builder)
        self = builder.result
    }

    /// Makes a `ParsedSentence` from whichever type the sentence decoded into.
    @usableFromInline
    struct Builder: SentenceVisitor {
        @usableFromInline var result: ParsedSentence

        @inlinable
        init(result: ParsedSentence) { self.result = result }

        @inlinable @inline(__always) mutating func visit(_ sentence: RMC) { result = .rmc(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: GGA) { result = .gga(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: GSA) { result = .gsa(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: GSV) { result = .gsv(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: GLL) { result = .gll(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: VTG) { result = .vtg(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: ZDA) { result = .zda(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: GST) { result = .gst(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: GNS) { result = .gns(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: GBS) { result = .gbs(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: GRS) { result = .grs(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: TXT) { result = .txt(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: DTM) { result = .dtm(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: HDT) { result = .hdt(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: THS) { result = .ths(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: PUBXPosition) { result = .pubxPosition(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: PUBXSatellites) {
            result = .pubxSatellites(sentence)
        }
        @inlinable @inline(__always) mutating func visit(_ sentence: PUBXTime) { result = .pubxTime(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: PGRME) { result = .pgrme(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: PGRMZ) { result = .pgrmz(sentence) }
        @inlinable @inline(__always) mutating func visit(_ sentence: PGRMM) { result = .pgrmm(sentence) }
        // `.unknown` is where the result starts.
    }

    /// Which decoder produced this, or `nil` for ``unknown(_:)``.
    @inlinable @inline(__always)
    public var kind: SentenceKind? {
        switch self {
        case .rmc: .rmc
        case .gga: .gga
        case .gsa: .gsa
        case .gsv: .gsv
        case .gll: .gll
        case .vtg: .vtg
        case .zda: .zda
        case .gst: .gst
        case .gns: .gns
        case .gbs: .gbs
        case .grs: .grs
        case .txt: .txt
        case .dtm: .dtm
        case .hdt: .hdt
        case .ths: .ths
        case .pubxPosition: .pubxPosition
        case .pubxSatellites: .pubxSatellites
        case .pubxTime: .pubxTime
        case .pgrme: .pgrme
        case .pgrmz: .pgrmz
        case .pgrmm: .pgrmm
        case .unknown: nil
        }
    }
}

/// The sentences this library decodes, one case per decoder.
public enum SentenceKind: Int, CaseIterable, Sendable {
    case rmc, gga, gsa, gsv, gll, vtg, zda, gst, gns, gbs, grs, txt, dtm, hdt, ths
    case pubxPosition, pubxSatellites, pubxTime, pgrme, pgrmz, pgrmm

    /// The decoder for `sentence`, or `nil` when none decodes its type.
    ///
    /// This is the dispatch table: one integer comparison per type, on the packed letters of the address.
    @inlinable @inline(__always)
    public init?(_ sentence: Sentence) {
        if sentence.talker == .proprietary {
            switch sentence.type {
            case .pubx:
                // The message ID is the first field: `$PUBX,00`.
                let bytes = sentence.bytes
                guard sentence.fieldsOffset + 2 <= bytes.count, bytes[sentence.fieldsOffset] == UInt8(ascii: "0")
                else { return nil }
                switch bytes[sentence.fieldsOffset + 1] {
                case UInt8(ascii: "0"): self = .pubxPosition
                case UInt8(ascii: "3"): self = .pubxSatellites
                case UInt8(ascii: "4"): self = .pubxTime
                default: return nil
                }
            case .pgrme: self = .pgrme
            case .pgrmz: self = .pgrmz
            case .pgrmm: self = .pgrmm
            default: return nil
            }
            return
        }
        switch sentence.type {
        case .gsv: self = .gsv
        case .gsa: self = .gsa
        case .rmc: self = .rmc
        case .gga: self = .gga
        case .gll: self = .gll
        case .vtg: self = .vtg
        case .zda: self = .zda
        case .gst: self = .gst
        case .gns: self = .gns
        case .gbs: self = .gbs
        case .grs: self = .grs
        case .txt: self = .txt
        case .dtm: self = .dtm
        case .hdt: self = .hdt
        case .ths: self = .ths
        default: return nil
        }
    }

    /// The name used in output: `"RMC"`, `"PUBX00"`, `"PGRME"`…
    public var name: String {
        switch self {
        case .rmc: "RMC"
        case .gga: "GGA"
        case .gsa: "GSA"
        case .gsv: "GSV"
        case .gll: "GLL"
        case .vtg: "VTG"
        case .zda: "ZDA"
        case .gst: "GST"
        case .gns: "GNS"
        case .gbs: "GBS"
        case .grs: "GRS"
        case .txt: "TXT"
        case .dtm: "DTM"
        case .hdt: "HDT"
        case .ths: "THS"
        case .pubxPosition: "PUBX,00"
        case .pubxSatellites: "PUBX,03"
        case .pubxTime: "PUBX,04"
        case .pgrme: "PGRME"
        case .pgrmz: "PGRMZ"
        case .pgrmm: "PGRMM"
        }
    }
}
