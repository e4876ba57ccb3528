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
    public static var address: SentenceAddress { .proprietary(.pgrme) }
    public static var sample: String {
        "$PGRME,15.0,M,45.0,M,25.0,M*1C"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var horizontalErrorMeters: FixedPoint?
    public var verticalErrorMeters: FixedPoint?
    public var sphericalErrorMeters: FixedPoint?

    public init(
        horizontalErrorMeters: FixedPoint?, verticalErrorMeters: FixedPoint?,
        sphericalErrorMeters: FixedPoint?
    ) {
        self.horizontalErrorMeters = horizontalErrorMeters
        self.verticalErrorMeters = verticalErrorMeters
        self.sphericalErrorMeters = sphericalErrorMeters
    }

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

    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("hpe", horizontalErrorMeters)
        sink.field("vpe", verticalErrorMeters)
        sink.field("epe", sphericalErrorMeters)
    }
}
