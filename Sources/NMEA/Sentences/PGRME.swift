/// Garmin `$PGRME`, estimated error: horizontal, vertical and spherical position error.
///
///     $PGRME,15.0,M,45.0,M,25.0,M*1C
///
///           1   2 3   4 5   6
///     $PGRME,x.x,M,x.x,M,x.x,M*hh
///
/// 1. 2. Estimated horizontal position error, metres
/// 3. 4. Estimated vertical position error, metres
/// 5. 6. Estimated spherical position error, metres
public struct PGRME: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pgrme) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PGRME,15.0,M,45.0,M,25.0,M*1C"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// Estimated horizontal position error, metres
    public var horizontalErrorMeters: FixedPoint?
    /// Estimated vertical position error, metres
    public var verticalErrorMeters: FixedPoint?
    /// Estimated spherical position error, metres
    public var sphericalErrorMeters: FixedPoint?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        horizontalErrorMeters: FixedPoint?, verticalErrorMeters: FixedPoint?,
        sphericalErrorMeters: FixedPoint?
    ) {
        self.horizontalErrorMeters = horizontalErrorMeters
        self.verticalErrorMeters = verticalErrorMeters
        self.sphericalErrorMeters = sphericalErrorMeters
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        horizontalErrorMeters = fields.fixedPoint()
        fields.unit("M")
        verticalErrorMeters = fields.fixedPoint()
        fields.unit("M")
        sphericalErrorMeters = fields.fixedPoint()
        fields.unit("M")
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("hpe", horizontalErrorMeters)
        sink.field("vpe", verticalErrorMeters)
        sink.field("epe", sphericalErrorMeters)
    }
}
