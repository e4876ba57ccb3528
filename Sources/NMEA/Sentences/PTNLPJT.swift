/// Trimble `$PTNL,PJT`, projection type: the names of the coordinate system and projection that the local grid
/// positions of ``PTNLPJK`` are given in.
///
///     $PTNL,PJT,NAD83(Conus),California Zone 4 0404,*5D
///
///           1   2    3
///     $PTNL,PJT,c--c,c--c,*hh
///
/// 1. Message ID `PJT`
/// 2. Coordinate system name (may hold several words)
/// 3. Projection name (may hold several words)
///
/// The layout is the Trimble R7/R8 and 5700 user guides' ("PTNL,PJT Projection Type") and Trimble's receiver help;
/// the sample is their example with its checksum corrected (they print `*51`). The help calls field 3 the project
/// name, the guides (and their example, a state plane zone) the projection name; pynmea2 reads the same two fields
/// (`coord_name`, `project_name`). Trimble's example ends in a comma, an empty field after the two: it, and anything
/// after it, is not read. An empty name is absent, and left out of `nmea parse`'s JSON.
public struct PTNLPJT: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.ptnl, messageID: "P", "J", "T") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PTNL,PJT,NAD83(Conus),California Zone 4 0404,*5D"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    /// `NAD83(Conus)`; empty when not sent.
    public var coordinateSystem: ShortText
    /// `California Zone 4 0404`; empty when not sent.
    public var projection: ShortText

    public init(coordinateSystem: ShortText, projection: ShortText) {
        self.coordinateSystem = coordinateSystem
        self.projection = projection
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        coordinateSystem = fields.text()
        projection = fields.text()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        if !coordinateSystem.isEmpty { sink.field("coordinate_system", text: coordinateSystem) }
        if !projection.isEmpty { sink.field("projection", text: projection) }
    }
}
