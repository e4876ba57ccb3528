/// VWT, true wind speed and angle, left or right of the bow.
///
///     $IIVWT,030.5,R,10.2,N,5.2,M,18.9,K*4D
///
///            1   2 3   4 5   6 7   8
///     $--VWT,x.x,a,x.x,N,x.x,M,x.x,K*hh
///
/// 1. 2. True wind angle off the bow, degrees (0 to 180), `L` from the left (port) or `R` from the right (starboard)
/// 3. 4. True wind speed, knots, `N`
/// 5. 6. True wind speed, m/s, `M`
/// 7. 8. True wind speed, km/h, `K`
///
/// The angle is kept signed: negative from the left. Obsolete since NMEA 4.00 (MWV replaces it), still sent by many
/// instruments.
public struct VWT: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.vwt) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$IIVWT,030.5,R,10.2,N,5.2,M,18.9,K*4D"
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
