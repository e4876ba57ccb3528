/// The registry of decoded sentence types: one case per type, and in ``withDecoder(_:)`` the one line that names
/// its decoder and the ``ParsedSentence`` case holding its values.
///
/// Everything per type derives from here: dispatch by address (``init(_:)``), ``name``, ``DecoderStatistics``,
/// ``ParsedSentence``, the fuzz target's addresses and the tests that every type decodes its
/// ``DecodableSentence/sample``.
///
/// **Adding a type** is its file (field diagram, sample, values, its `kind` and `address`, one decoding `init`,
/// ``DecodableSentence/describe(to:)``) plus its registration: a case here with its line in ``withDecoder(_:)``, and
/// its ``ParsedSentence`` case with its line in ``ParsedSentence/visit(into:)``. The compiler's exhaustive switches
/// point at each line. A type that carries fix data (a time, a position…) also gets its merge in ``FixAssembler``;
/// one that carries none needs nothing there (its place in the receiver's cycle still counts, as an unknown type's
/// does).
public enum SentenceKind: Int, CaseIterable, Sendable {
    case rmc, gga, gsa, gsv, gll, vtg, zda, gst, gns, gbs, grs, txt, dtm, hdt, ths
    case pubxPosition, pubxSatellites, pubxTime, pgrme, pgrmz, pgrmm
    case hdg, hdm, rot, dpt, dbt, dbs, dbk
    case wpl, rte, rmb, bwc, bwr, bww, bod, apb, xte, aam
    case mwv, mwd, vwr, vwt, vhw, vbw, vlw, vpw, mtw, mta, mda, xdr, rpm, rsa
    case alr, alf, hbt, ttm, tll
    case ptnlGGK, ptnlAVR, ptnlPJK, ptnlVGK, ptnlVHD, ptnlBPQ, ptnlPJT, ptnlDG, pashr, pashrLTN
    case pfecAttitude, pfecHeave, prdid, pgrmt, pgrmo, pgrmw
    case pklds, pklsh, pknds, pknsh, pkwdwpl, pmtk001, pmtk010
    case ggah, gllh, gnsh, gsth, gsah, gsvh, rmch, vtgh, grsh

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
        case .hdg: try body.decoder(HDG.self, ParsedSentence.hdg)
        case .hdm: try body.decoder(HDM.self, ParsedSentence.hdm)
        case .rot: try body.decoder(ROT.self, ParsedSentence.rot)
        case .dpt: try body.decoder(DPT.self, ParsedSentence.dpt)
        case .dbt: try body.decoder(DBT.self, ParsedSentence.dbt)
        case .dbs: try body.decoder(DBS.self, ParsedSentence.dbs)
        case .dbk: try body.decoder(DBK.self, ParsedSentence.dbk)
        case .wpl: try body.decoder(WPL.self, ParsedSentence.wpl)
        case .rte: try body.decoder(RTE.self, ParsedSentence.rte)
        case .rmb: try body.decoder(RMB.self, ParsedSentence.rmb)
        case .bwc: try body.decoder(BWC.self, ParsedSentence.bwc)
        case .bwr: try body.decoder(BWR.self, ParsedSentence.bwr)
        case .bww: try body.decoder(BWW.self, ParsedSentence.bww)
        case .bod: try body.decoder(BOD.self, ParsedSentence.bod)
        case .apb: try body.decoder(APB.self, ParsedSentence.apb)
        case .xte: try body.decoder(XTE.self, ParsedSentence.xte)
        case .aam: try body.decoder(AAM.self, ParsedSentence.aam)
        case .mwv: try body.decoder(MWV.self, ParsedSentence.mwv)
        case .mwd: try body.decoder(MWD.self, ParsedSentence.mwd)
        case .vwr: try body.decoder(VWR.self, ParsedSentence.vwr)
        case .vwt: try body.decoder(VWT.self, ParsedSentence.vwt)
        case .vhw: try body.decoder(VHW.self, ParsedSentence.vhw)
        case .vbw: try body.decoder(VBW.self, ParsedSentence.vbw)
        case .vlw: try body.decoder(VLW.self, ParsedSentence.vlw)
        case .vpw: try body.decoder(VPW.self, ParsedSentence.vpw)
        case .mtw: try body.decoder(MTW.self, ParsedSentence.mtw)
        case .mta: try body.decoder(MTA.self, ParsedSentence.mta)
        case .mda: try body.decoder(MDA.self, ParsedSentence.mda)
        case .xdr: try body.decoder(XDR.self, ParsedSentence.xdr)
        case .rpm: try body.decoder(RPM.self, ParsedSentence.rpm)
        case .rsa: try body.decoder(RSA.self, ParsedSentence.rsa)
        case .alr: try body.decoder(ALR.self, ParsedSentence.alr)
        case .alf: try body.decoder(ALF.self, ParsedSentence.alf)
        case .hbt: try body.decoder(HBT.self, ParsedSentence.hbt)
        case .ttm: try body.decoder(TTM.self, ParsedSentence.ttm)
        case .tll: try body.decoder(TLL.self, ParsedSentence.tll)
        case .ptnlGGK: try body.decoder(PTNLGGK.self, ParsedSentence.ptnlGGK)
        case .ptnlAVR: try body.decoder(PTNLAVR.self, ParsedSentence.ptnlAVR)
        case .ptnlPJK: try body.decoder(PTNLPJK.self, ParsedSentence.ptnlPJK)
        case .ptnlVGK: try body.decoder(PTNLVGK.self, ParsedSentence.ptnlVGK)
        case .ptnlVHD: try body.decoder(PTNLVHD.self, ParsedSentence.ptnlVHD)
        case .ptnlBPQ: try body.decoder(PTNLBPQ.self, ParsedSentence.ptnlBPQ)
        case .ptnlPJT: try body.decoder(PTNLPJT.self, ParsedSentence.ptnlPJT)
        case .ptnlDG: try body.decoder(PTNLDG.self, ParsedSentence.ptnlDG)
        case .pashr: try body.decoder(PASHR.self, ParsedSentence.pashr)
        case .pashrLTN: try body.decoder(PASHRLTN.self, ParsedSentence.pashrLTN)
        case .pfecAttitude: try body.decoder(PFECAttitude.self, ParsedSentence.pfecAttitude)
        case .pfecHeave: try body.decoder(PFECHeave.self, ParsedSentence.pfecHeave)
        case .prdid: try body.decoder(PRDID.self, ParsedSentence.prdid)
        case .pgrmt: try body.decoder(PGRMT.self, ParsedSentence.pgrmt)
        case .pgrmo: try body.decoder(PGRMO.self, ParsedSentence.pgrmo)
        case .pgrmw: try body.decoder(PGRMW.self, ParsedSentence.pgrmw)
        case .pklds: try body.decoder(PKLDS.self, ParsedSentence.pklds)
        case .pklsh: try body.decoder(PKLSH.self, ParsedSentence.pklsh)
        case .pknds: try body.decoder(PKNDS.self, ParsedSentence.pknds)
        case .pknsh: try body.decoder(PKNSH.self, ParsedSentence.pknsh)
        case .pkwdwpl: try body.decoder(PKWDWPL.self, ParsedSentence.pkwdwpl)
        case .pmtk001: try body.decoder(PMTK001.self, ParsedSentence.pmtk001)
        case .pmtk010: try body.decoder(PMTK010.self, ParsedSentence.pmtk010)
        case .ggah: try body.decoder(SecondaryAntenna<GGA>.self, ParsedSentence.ggah)
        case .gllh: try body.decoder(SecondaryAntenna<GLL>.self, ParsedSentence.gllh)
        case .gnsh: try body.decoder(SecondaryAntenna<GNS>.self, ParsedSentence.gnsh)
        case .gsth: try body.decoder(SecondaryAntenna<GST>.self, ParsedSentence.gsth)
        case .gsah: try body.decoder(SecondaryAntenna<GSA>.self, ParsedSentence.gsah)
        case .gsvh: try body.decoder(SecondaryAntenna<GSV>.self, ParsedSentence.gsvh)
        case .rmch: try body.decoder(SecondaryAntenna<RMC>.self, ParsedSentence.rmch)
        case .vtgh: try body.decoder(SecondaryAntenna<VTG>.self, ParsedSentence.vtgh)
        case .grsh: try body.decoder(SecondaryAntenna<GRS>.self, ParsedSentence.grsh)
        }
    }

    /// The decoder for `sentence`, or `nil` when none decodes its type.
    ///
    /// One hashed lookup on the packed letters of the address, in a table built once from the registry.
    @inlinable @inline(__always)
    public init?(_ sentence: Sentence) {
        guard let kind = SentenceKindTable.kind(of: sentence) else { return nil }
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

    /// The second address this kind's sentences arrive under (``DecodableSentence/alternativeAddress``), if any.
    public var alternativeAddress: SentenceAddress? {
        struct Address: SentenceDecoderBody {
            func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) -> SentenceAddress? {
                S.alternativeAddress
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

/// Address → kind, built once from the registry (every kind's address, and its alternative address where it has one):
/// open addressing over 128 slots keyed by the packed type letters.
@usableFromInline
enum SentenceKindTable {
    /// One slot of the table.
    @usableFromInline
    struct Slot {
        /// The packed letters of the type; 0 for an empty slot (no registered type packs to 0).
        @usableFromInline var type: UInt64 = 0
        /// As ``SentenceAddress/messageID``.
        @usableFromInline var messageID: UInt64 = 0
        @usableFromInline var isProprietary = false
        @usableFromInline var kind = SentenceKind.rmc
    }

    @usableFromInline static let mask = 127

    /// The slots, in memory of their own: looking one up reads 24 bytes, never copies the table. Written once,
    /// before first use, and only read after.
    @usableFromInline
    nonisolated(unsafe) static let slots: UnsafePointer<Slot> = {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: mask + 1)
        slots.initialize(repeating: Slot(), count: mask + 1)
        func insert(_ address: SentenceAddress, _ kind: SentenceKind) {
            precondition(address.type.rawValue != 0, "\(kind) has an empty type")
            var index = slot(address.type)
            while slots[index].type != 0 { index = (index + 1) & mask }
            slots[index] = Slot(
                type: address.type.rawValue, messageID: address.messageID, isProprietary: address.isProprietary,
                kind: kind)
        }
        for kind in SentenceKind.allCases {
            insert(kind.address, kind)
            if let alternative = kind.alternativeAddress { insert(alternative, kind) }
        }
        return UnsafePointer(slots)
    }()

    @inlinable @inline(__always)
    static func slot(_ type: SentenceType) -> Int {
        Int(truncatingIfNeeded: (type.rawValue &* 0x9E37_79B9_7F4A_7C15) >> 57)
    }

    @inlinable @inline(__always)
    static func kind(of sentence: Sentence) -> SentenceKind? {
        let slots = SentenceKindTable.slots
        let type = sentence.type.rawValue
        let proprietary = sentence.talker == .proprietary
        var index = slot(sentence.type)
        while true {
            let slot = slots[index]
            if slot.type == 0 { return nil }
            if slot.type == type && slot.isProprietary == proprietary
                && (slot.messageID == 0 || sentence.hasMessageID(slot.messageID))
            {
                return slot.kind
            }
            index = (index + 1) & mask
        }
    }
}

extension Sentence {
    /// `true` when field 1 is the message `id` (``SentenceAddress/messageID``): the same characters, all of them, or
    /// for ``SentenceAddress/numberMessageID`` a field that begins with a digit or is empty (anything but a word).
    /// Only proprietary addresses shared by several messages ask.
    @usableFromInline @inline(never)
    func hasMessageID(_ id: UInt64) -> Bool {
        guard fieldsOffset < bytes.count else {
            return id == SentenceAddress.numberMessageID && fieldsOffset == bytes.count
        }
        let start = bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) + fieldsOffset
        let count = bytes.count - fieldsOffset
        if id == SentenceAddress.numberMessageID {
            return start[0] == UInt8(ascii: ",") || start[0] &- UInt8(ascii: "0") < 10
        }
        var packed: UInt64 = 0
        var offset = 0
        while offset < count && start[offset] != UInt8(ascii: ",") {
            guard offset < 8 else { return false }
            packed |= UInt64(start[offset]) << (8 * UInt64(offset))
            offset += 1
        }
        return packed == id
    }
}
