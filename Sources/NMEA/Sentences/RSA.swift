/// RSA, rudder sensor angle: the starboard (or only) rudder and the port rudder.
///
///     $AGRSA,-5.2,A,-4.9,A*4C
///
///            1   2 3   4
///     $--RSA,x.x,A,x.x,A*hh
///
/// 1. Starboard (or only) rudder angle, degrees; negative: the bow turns to port
/// 2. Its status: `A` valid, `V` not valid
/// 3. Port rudder angle, degrees; negative: the bow turns to port
/// 4. Its status: `A` valid, `V` not valid
///
/// A vessel with one rudder leaves the port fields empty (status `V`).
public struct RSA: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.rsa) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$AGRSA,-5.2,A,-4.9,A*4C"
    }

    /// Who sent the sentence.
    public var talker: Talker
    /// The starboard rudder, or the only one. Negative: to port.
    public var starboardDegrees: FixedPoint?
    public var isStarboardValid: Bool?
    /// Negative: to port.
    public var portDegrees: FixedPoint?
    public var isPortValid: Bool?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = Talker("AG"), starboardDegrees: FixedPoint?, isStarboardValid: Bool?,
        portDegrees: FixedPoint? = nil, isPortValid: Bool? = nil
    ) {
        self.talker = talker
        self.starboardDegrees = starboardDegrees
        self.isStarboardValid = isStarboardValid
        self.portDegrees = portDegrees
        self.isPortValid = isPortValid
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        starboardDegrees = fields.fixedPoint()
        isStarboardValid = fields.status()
        portDegrees = fields.fixedPoint()
        isPortValid = fields.status()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("starboard_rudder_deg", starboardDegrees)
        sink.field("starboard_valid", isStarboardValid)
        sink.field("port_rudder_deg", portDegrees)
        sink.field("port_valid", isPortValid)
    }
}
