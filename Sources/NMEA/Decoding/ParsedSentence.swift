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
///
/// One case per ``SentenceKind``: the registry names the case for each decoder.
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
    case hdg(HDG)
    case hdm(HDM)
    case rot(ROT)
    case dpt(DPT)
    case dbt(DBT)
    case dbs(DBS)
    case dbk(DBK)
    case wpl(WPL)
    case rte(RTE)
    case rmb(RMB)
    case bwc(BWC)
    case bwr(BWR)
    case bww(BWW)
    case bod(BOD)
    case apb(APB)
    case xte(XTE)
    case aam(AAM)
    case mwv(MWV)
    case mwd(MWD)
    case vwr(VWR)
    case vwt(VWT)
    case vhw(VHW)
    case vbw(VBW)
    case vlw(VLW)
    case vpw(VPW)
    case mtw(MTW)
    case mta(MTA)
    case mda(MDA)
    case xdr(XDR)
    case rpm(RPM)
    case rsa(RSA)
    case alr(ALR)
    case alf(ALF)
    case hbt(HBT)
    case ttm(TTM)
    case tll(TLL)
    case ptnlGGK(PTNLGGK)
    case ptnlAVR(PTNLAVR)
    case ptnlPJK(PTNLPJK)
    case ptnlVGK(PTNLVGK)
    case ptnlVHD(PTNLVHD)
    case ptnlBPQ(PTNLBPQ)
    case ptnlPJT(PTNLPJT)
    case ptnlDG(PTNLDG)
    case pashr(PASHR)
    case pashrLTN(PASHRLTN)
    case pfecAttitude(PFECAttitude)
    case pfecHeave(PFECHeave)
    case prdid(PRDID)
    case pgrmt(PGRMT)
    case pgrmo(PGRMO)
    case pgrmw(PGRMW)
    case pklds(PKLDS)
    case pklsh(PKLSH)
    case pknds(PKNDS)
    case pknsh(PKNSH)
    case pkwdwpl(PKWDWPL)
    case pmtk001(PMTK001)
    case pmtk010(PMTK010)
    case ggah(SecondaryAntenna<GGA>)
    case gllh(SecondaryAntenna<GLL>)
    case gnsh(SecondaryAntenna<GNS>)
    case gsth(SecondaryAntenna<GST>)
    case gsah(SecondaryAntenna<GSA>)
    case gsvh(SecondaryAntenna<GSV>)
    case rmch(SecondaryAntenna<RMC>)
    case vtgh(SecondaryAntenna<VTG>)
    case grsh(SecondaryAntenna<GRS>)
    /// A sentence of a type not decoded here, with its view.
    case unknown(Sentence)

    /// Hands the decoded value to `visitor` (``SentenceVisitor/visitUnknown(_:)`` for ``unknown(_:)``).
    @inlinable @inline(__always)
    public func visit<Visitor: SentenceVisitor>(into visitor: inout Visitor) {
        switch self {
        case .rmc(let sentence): visitor.visit(sentence)
        case .gga(let sentence): visitor.visit(sentence)
        case .gsa(let sentence): visitor.visit(sentence)
        case .gsv(let sentence): visitor.visit(sentence)
        case .gll(let sentence): visitor.visit(sentence)
        case .vtg(let sentence): visitor.visit(sentence)
        case .zda(let sentence): visitor.visit(sentence)
        case .gst(let sentence): visitor.visit(sentence)
        case .gns(let sentence): visitor.visit(sentence)
        case .gbs(let sentence): visitor.visit(sentence)
        case .grs(let sentence): visitor.visit(sentence)
        case .txt(let sentence): visitor.visit(sentence)
        case .dtm(let sentence): visitor.visit(sentence)
        case .hdt(let sentence): visitor.visit(sentence)
        case .ths(let sentence): visitor.visit(sentence)
        case .pubxPosition(let sentence): visitor.visit(sentence)
        case .pubxSatellites(let sentence): visitor.visit(sentence)
        case .pubxTime(let sentence): visitor.visit(sentence)
        case .pgrme(let sentence): visitor.visit(sentence)
        case .pgrmz(let sentence): visitor.visit(sentence)
        case .pgrmm(let sentence): visitor.visit(sentence)
        case .hdg(let sentence): visitor.visit(sentence)
        case .hdm(let sentence): visitor.visit(sentence)
        case .rot(let sentence): visitor.visit(sentence)
        case .dpt(let sentence): visitor.visit(sentence)
        case .dbt(let sentence): visitor.visit(sentence)
        case .dbs(let sentence): visitor.visit(sentence)
        case .dbk(let sentence): visitor.visit(sentence)
        case .wpl(let sentence): visitor.visit(sentence)
        case .rte(let sentence): visitor.visit(sentence)
        case .rmb(let sentence): visitor.visit(sentence)
        case .bwc(let sentence): visitor.visit(sentence)
        case .bwr(let sentence): visitor.visit(sentence)
        case .bww(let sentence): visitor.visit(sentence)
        case .bod(let sentence): visitor.visit(sentence)
        case .apb(let sentence): visitor.visit(sentence)
        case .xte(let sentence): visitor.visit(sentence)
        case .aam(let sentence): visitor.visit(sentence)
        case .mwv(let sentence): visitor.visit(sentence)
        case .mwd(let sentence): visitor.visit(sentence)
        case .vwr(let sentence): visitor.visit(sentence)
        case .vwt(let sentence): visitor.visit(sentence)
        case .vhw(let sentence): visitor.visit(sentence)
        case .vbw(let sentence): visitor.visit(sentence)
        case .vlw(let sentence): visitor.visit(sentence)
        case .vpw(let sentence): visitor.visit(sentence)
        case .mtw(let sentence): visitor.visit(sentence)
        case .mta(let sentence): visitor.visit(sentence)
        case .mda(let sentence): visitor.visit(sentence)
        case .xdr(let sentence): visitor.visit(sentence)
        case .rpm(let sentence): visitor.visit(sentence)
        case .rsa(let sentence): visitor.visit(sentence)
        case .alr(let sentence): visitor.visit(sentence)
        case .alf(let sentence): visitor.visit(sentence)
        case .hbt(let sentence): visitor.visit(sentence)
        case .ttm(let sentence): visitor.visit(sentence)
        case .tll(let sentence): visitor.visit(sentence)
        case .ptnlGGK(let sentence): visitor.visit(sentence)
        case .ptnlAVR(let sentence): visitor.visit(sentence)
        case .ptnlPJK(let sentence): visitor.visit(sentence)
        case .ptnlVGK(let sentence): visitor.visit(sentence)
        case .ptnlVHD(let sentence): visitor.visit(sentence)
        case .ptnlBPQ(let sentence): visitor.visit(sentence)
        case .ptnlPJT(let sentence): visitor.visit(sentence)
        case .ptnlDG(let sentence): visitor.visit(sentence)
        case .pashr(let sentence): visitor.visit(sentence)
        case .pashrLTN(let sentence): visitor.visit(sentence)
        case .pfecAttitude(let sentence): visitor.visit(sentence)
        case .pfecHeave(let sentence): visitor.visit(sentence)
        case .prdid(let sentence): visitor.visit(sentence)
        case .pgrmt(let sentence): visitor.visit(sentence)
        case .pgrmo(let sentence): visitor.visit(sentence)
        case .pgrmw(let sentence): visitor.visit(sentence)
        case .pklds(let sentence): visitor.visit(sentence)
        case .pklsh(let sentence): visitor.visit(sentence)
        case .pknds(let sentence): visitor.visit(sentence)
        case .pknsh(let sentence): visitor.visit(sentence)
        case .pkwdwpl(let sentence): visitor.visit(sentence)
        case .pmtk001(let sentence): visitor.visit(sentence)
        case .pmtk010(let sentence): visitor.visit(sentence)
        case .ggah(let sentence): visitor.visit(sentence)
        case .gllh(let sentence): visitor.visit(sentence)
        case .gnsh(let sentence): visitor.visit(sentence)
        case .gsth(let sentence): visitor.visit(sentence)
        case .gsah(let sentence): visitor.visit(sentence)
        case .gsvh(let sentence): visitor.visit(sentence)
        case .rmch(let sentence): visitor.visit(sentence)
        case .vtgh(let sentence): visitor.visit(sentence)
        case .grsh(let sentence): visitor.visit(sentence)
        case .unknown(let sentence): visitor.visitUnknown(sentence)
        }
    }

    /// Decodes `sentence` by its type, refusing it when any field does not read.
    /// - Throws: the first bad field (``NMEAError/badField(index:reason:)``), or
    ///   ``NMEAError/tooFewFields(expected:found:)`` for a sentence without a single field.
    @inlinable @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        guard let kind = SentenceKind(sentence) else {
            self = .unknown(sentence)
            return
        }
        var body = Decoding(sentence: sentence, fieldErrors: nil)
        self = try kind.withDecoder(&body)
    }

    /// Decodes `sentence` by its type, keeping every field that reads: the others are absent and listed in
    /// `fieldErrors`.
    /// - Throws: ``NMEAError/tooFewFields(expected:found:)`` for a sentence without a single field.
    @inlinable @inline(__always)
    public init(_ sentence: Sentence, fieldErrors: inout FieldErrors) throws(NMEAError) {
        fieldErrors = FieldErrors()
        guard let kind = SentenceKind(sentence) else {
            self = .unknown(sentence)
            return
        }
        let outcome = withUnsafeMutablePointer(to: &fieldErrors) { errors -> Result<ParsedSentence, NMEAError> in
            var body = Decoding(sentence: sentence, fieldErrors: errors)
            do throws(NMEAError) {
                return .success(try kind.withDecoder(&body))
            } catch {
                return .failure(error)
            }
        }
        self = try outcome.get()
    }

    /// The case that holds `decoded`.
    @inlinable @inline(__always)
    public init<S: DecodableSentence>(_ decoded: S) {
        var body = Wrapping(decoded: decoded)
        self = S.kind.withDecoder(&body)
    }

    /// Which decoder produced this, or `nil` for ``unknown(_:)``.
    @inlinable @inline(__always)
    public var kind: SentenceKind? {
        var visitor = KindVisitor()
        visit(into: &visitor)
        return visitor.kind
    }

    @usableFromInline
    struct Decoding: SentenceDecoderBody {
        @usableFromInline let sentence: Sentence
        /// Where to list the fields that did not read; `nil` to refuse the sentence at the first.
        @usableFromInline let fieldErrors: UnsafeMutablePointer<FieldErrors>?

        @inlinable
        init(sentence: Sentence, fieldErrors: UnsafeMutablePointer<FieldErrors>?) {
            self.sentence = sentence
            self.fieldErrors = fieldErrors
        }

        @inlinable @inline(__always)
        func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) throws(NMEAError)
            -> ParsedSentence
        {
            guard let fieldErrors else { return parsed(try S(sentence)) }
            return parsed(try S(sentence, fieldErrors: &fieldErrors.pointee))
        }
    }

    @usableFromInline
    struct Wrapping<Decoded: DecodableSentence>: SentenceDecoderBody {
        @usableFromInline let decoded: Decoded

        @inlinable
        init(decoded: Decoded) { self.decoded = decoded }

        @inlinable @inline(__always)
        func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) -> ParsedSentence {
            parsed(decoded as! S)
        }
    }

    @usableFromInline
    struct KindVisitor: SentenceVisitor {
        @usableFromInline var kind: SentenceKind?

        @inlinable
        init() {}

        @inlinable @inline(__always)
        mutating func visit<S: DecodableSentence>(_ sentence: S) { kind = S.kind }
    }
}
