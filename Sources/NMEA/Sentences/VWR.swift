/// VWR, relative (apparent) wind speed and angle, left or right of the bow.
///
///     $IIVWR,045.0,L,12.6,N,6.5,M,23.3,K*52
///
///            1   2 3   4 5   6 7   8
///     $--VWR,x.x,a,x.x,N,x.x,M,x.x,K*hh
///
/// 1. 2. Wind angle off the bow, degrees (0 to 180), `L` from the left (port) or `R` from the right (starboard)
/// 3. 4. Wind speed, knots, `N`
/// 5. 6. Wind speed, m/s, `M`
/// 7. 8. Wind speed, km/h, `K`
///
/// The angle is kept signed: negative from the left. Obsolete since NMEA 4.00 (MWV replaces it), still sent by many
/// instruments.
public struct VWR: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.vwr) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$IIVWR,045.0,L,12.6,N,6.5,M,23.3,K*52"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var wind: WindAngleAndSpeeds

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .integratedInstrumentation, wind: WindAngleAndSpeeds) {
        self.talker = talker
        self.wind = wind
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        wind = fields.windAngleAndSpeeds()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        wind.describe(to: &sink)
    }
}
