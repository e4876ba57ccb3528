/// RPM, revolutions of an engine or a shaft, and the propeller's pitch.
///
///     $ERRPM,E,1,2418.2,10.5,A*48
///
///            1 2 3   4   5
///     $--RPM,a,x,x.x,x.x,A*hh
///
/// 1. Source: `S` shaft, `E` engine
/// 2. Engine or shaft number, from the centreline: odd to starboard, even to port, 0 on the centreline (or the only
///    one)
/// 3. Speed, revolutions per minute; negative: counter-clockwise
/// 4. Propeller pitch, percent of the maximum; negative: astern
/// 5. Status: `A` valid, `V` not valid
public struct RPM: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.rpm) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$ERRPM,E,1,2418.2,10.5,A*48"
    }

    /// What turns.
    public enum Source: UInt8, Hashable, Sendable {
        case engine = 69  // E
        case shaft = 83  // S
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var source: Source?
    public var number: Int?
    /// Negative: counter-clockwise.
    public var revolutionsPerMinute: FixedPoint?
    /// Negative: astern.
    public var pitchPercent: FixedPoint?
    public var isValid: Bool?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = Talker("ER"), source: Source?, number: Int?, revolutionsPerMinute: FixedPoint?,
        pitchPercent: FixedPoint? = nil, isValid: Bool?
    ) {
        self.talker = talker
        self.source = source
        self.number = number
        self.revolutionsPerMinute = revolutionsPerMinute
        self.pitchPercent = pitchPercent
        self.isValid = isValid
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        source = fields.letter(in: "ES").flatMap(Source.init(rawValue:))
        number = fields.integer(in: 0...99)
        revolutionsPerMinute = fields.fixedPoint()
        pitchPercent = fields.fixedPoint()
        isValid = fields.status()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("source", letter: source?.rawValue)
        sink.field("number", number)
        sink.field("rpm", revolutionsPerMinute)
        sink.field("pitch_percent", pitchPercent)
        sink.field("valid", isValid)
    }
}
