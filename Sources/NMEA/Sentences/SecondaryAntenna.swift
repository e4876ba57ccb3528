/// A standard sentence about the secondary antenna of a dual-antenna Unicore receiver (UM982 and its kin): the
/// type's letters followed by `H` (`$GNGGAH`, `$GNRMCH`, `$GPGSVH`…), with exactly the fields of the standard type,
/// which decodes them.
///
///     $GNGGAH,073346.00,4004.73874301,N,11614.19077585,E,1,28,0.6,64.2831,M,8.4925,M,,*35
///
/// Nine types have such a variant; each field diagram is the standard one:
///
/// | variant | decoded by | fields |
/// | --- | --- | --- |
/// | `GGAH` | ``GGA`` | `$--GGAH,hhmmss.ss,ddmm.mm,a,dddmm.mm,a,x,xx,x.x,x.x,M,x.x,M,x.x,xxxx*hh` |
/// | `GLLH` | ``GLL`` | `$--GLLH,ddmm.mm,a,dddmm.mm,a,hhmmss.ss,A,a*hh` |
/// | `GNSH` | ``GNS`` | `$--GNSH,hhmmss.ss,ddmm.mm,a,dddmm.mm,a,c--c,xx,x.x,x.x,x.x,x.x,xxxx,a*hh` |
/// | `GSTH` | ``GST`` | `$--GSTH,hhmmss.ss,x.x,x.x,x.x,x.x,x.x,x.x,x.x*hh` |
/// | `GSAH` | ``GSA`` | `$--GSAH,a,x,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,x.x,x.x,x.x,h*hh` |
/// | `GSVH` | ``GSV`` | `$--GSVH,x,x,xx,xx,xx,xxx,xx,…,h*hh` |
/// | `RMCH` | ``RMC`` | `$--RMCH,hhmmss.ss,A,ddmm.mm,a,dddmm.mm,a,x.x,x.x,ddmmyy,x.x,a,a,a*hh` |
/// | `VTGH` | ``VTG`` | `$--VTGH,x.x,T,x.x,M,x.x,N,x.x,K,a*hh` |
/// | `GRSH` | ``GRS`` | `$--GRSH,hhmmss.ss,x,x.x,x.x,…,x.x,h,h*hh` |
///
/// Unicore's ordinary sentences already carry eight decimals of minutes; the `H` does not mean more of them, but the
/// other antenna (the one a heading is measured to). A ``FixAssembler`` takes a variant in place of its standard
/// type only from a receiver that sends no sentence of that standard type, so that one antenna's fixes and sky are
/// never mixed with the other's.
///
/// One generic wrapper rather than nine decoders: the registry has a kind for each variant (so each is counted,
/// named and fuzzed on its own), and every kind decodes with its standard type's one body.
@dynamicMemberLookup
public struct SecondaryAntenna<Base: SecondaryAntennaVariant>: DecodableSentence, Hashable, Sendable {
    public static var kind: SentenceKind { Base.secondaryAntennaKind }
    /// The standard type's letters and `H`.
    public static var address: SentenceAddress {
        .standard(SentenceType(rawValue: Base.address.type.rawValue | UInt64(UInt8(ascii: "H")) << 24))
    }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String { Base.secondaryAntennaSample }

    /// The sentence decoded as its standard type.
    public var base: Base
    /// Who sent the sentence.
    public var talker: Talker { base.talker }

    public init(_ base: Base) {
        self.base = base
    }

    /// The standard type's values: `ggah.latitude` is `ggah.base.latitude`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Base, Value>) -> Value {
        base[keyPath: keyPath]
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        base = try Base(sentence, reading: &fields)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        base.describe(to: &sink)
    }

    /// This value in its ``ParsedSentence`` case (`.ggah`…).
    public var parsedSentence: ParsedSentence { Base.parsedSentence(secondaryAntenna: self) }

    /// Merged as the standard type (under this variant's address) while the receiver has sent no sentence of that
    /// type, which is the primary antenna's; otherwise only its place in the cycle.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        let type = Self.address.type
        guard assembler.hasSentPrimary(Base.kind) else { return base.merge(into: &assembler, as: type) }
        return SentenceSignature(talker, type, isLastPart: base.isLastPart)
    }
}

/// A standard type that a dual-antenna Unicore receiver also sends for its secondary antenna (see
/// ``SecondaryAntenna``). Its three letters and `H` address the variant.
public protocol SecondaryAntennaVariant: DecodableSentence, Hashable, Sendable {
    /// The registry's kind for the variant.
    static var secondaryAntennaKind: SentenceKind { get }
    /// One sentence of the variant as a receiver sent it.
    static var secondaryAntennaSample: String { get }
    /// The ``ParsedSentence`` case that holds the variant.
    static func parsedSentence(secondaryAntenna sentence: SecondaryAntenna<Self>) -> ParsedSentence
    /// Merges this sentence into `assembler`'s epoch as a sentence of `type` (its own, or the variant's `GGAH`…),
    /// giving its place in the cycle as ``DecodableSentence/merge(into:)`` does.
    func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature?
    /// `false` for a part of a multi-part message other than its last (a `GSV` before the last of its group).
    var isLastPart: Bool { get }
}

extension SecondaryAntennaVariant {
    /// A message in one part: `true`.
    public var isLastPart: Bool { true }
}

// The samples are a Unicore receiver's output (pynmeagps's `tests/unicore_nmea.log`).

extension GGA: SecondaryAntennaVariant {
    public static var secondaryAntennaSample: String {
        "$GNGGAH,073346.00,4004.73874301,N,11614.19077585,E,1,28,0.6,64.2831,M,8.4925,M,,*35"
    }
}

extension GLL: SecondaryAntennaVariant {
    public static var secondaryAntennaSample: String {
        "$GNGLLH,4004.73814597,N,11614.19908275,E,054501.00,A,D*37"
    }
}

extension GNS: SecondaryAntennaVariant {
    public static var secondaryAntennaSample: String {
        "$GNGNSH,074444.00,4004.73864213,N,11614.19082153,E,ANAAA,28,0.7,64.6536,8.4925,,,S*25"
    }
}

extension GST: SecondaryAntennaVariant {
    public static var secondaryAntennaSample: String {
        "$GNGSTH,055543.00,0.45,0.01,0.01,127.6430,0.010,0.010,0.019*0F"
    }
}

extension GSA: SecondaryAntennaVariant {
    public static var secondaryAntennaSample: String {
        "$GNGSAH,M,3,01,04,09,19,21,31,,,,,,,1.1,0.6,0.9,3*7D"
    }
}

extension GSV: SecondaryAntennaVariant {
    public static var secondaryAntennaSample: String {
        "$GPGSVH,2,1,08,16,28,217,38,32,39,140,45,03,29,290,32,31,66,033,50,1*2F"
    }
}

extension RMC: SecondaryAntennaVariant {
    public static var secondaryAntennaSample: String {
        "$GNRMCH,055808.00,A,4004.73817916,N,11614.19891207,E,0.004,99.7,311221,6.9,W,D,V*3A"
    }
}

extension VTG: SecondaryAntennaVariant {
    public static var secondaryAntennaSample: String {
        "$GNVTGH,113.125,T,120.041,M,0.01474,N,0.02730,K,D*73"
    }
}

extension GRS: SecondaryAntennaVariant {
    public static var secondaryAntennaSample: String {
        "$GNGRSH,055209.00,0,0.0,0.8,0.1,,0.1,2.2,0.2,,,,,,1,1*18"
    }
}
