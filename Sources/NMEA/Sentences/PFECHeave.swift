/// Furuno `$PFEC,GPhve`, heave: how far the antenna rose or sank with the sea, from a satellite compass.
///
///     $PFEC,GPhve,-0.125,A*14
///
///           1     2   3
///     $PFEC,GPhve,x.x,A*hh
///
/// 1. Message ID `GPhve`
/// 2. Heave, metres
/// 3. Status: `A` valid, `V` not valid
public struct PFECHeave: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pfec, messageID: "G", "P", "h", "v", "e") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PFEC,GPhve,-0.125,A*14"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var heaveMeters: FixedPoint?
    public var isValid: Bool?

    public init(heaveMeters: FixedPoint?, isValid: Bool?) {
        self.heaveMeters = heaveMeters
        self.isValid = isValid
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        heaveMeters = fields.fixedPoint()
        isValid = fields.status()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("heave_m", heaveMeters)
        sink.field("valid", isValid)
    }
}
