/// Garmin `$PGRMT`, sensor status: the product and software version and the results of the receiver's self-tests,
/// sent once a minute.
///
///     $PGRMT,GPS 16-HVS VER 3.20,P,P,R,R,P,,31,R*2D
///
///            1    2 3 4 5 6 7 8   9
///     $PGRMT,c--c,a,a,a,a,a,a,x.x,a*hh
///
/// 1. Product, model and software version (free text)
/// 2. ROM checksum test: `P` pass, `F` fail
/// 3. Receiver failure discrete: `P` pass, `F` fail
/// 4. Stored data: `R` retained, `L` lost
/// 5. Real-time clock: `R` retained, `L` lost
/// 6. Oscillator drift discrete: `P` pass, `F` excessive drift detected
/// 7. Data collection discrete: `C` collecting, empty when not
/// 8. Sensor (board) temperature, degrees Celsius
/// 9. Sensor configuration data: `R` retained, `L` lost
///
/// Newer sensors (GPS 15x, 20x) send only the version and leave the rest empty.
public struct PGRMT: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pgrmt) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PGRMT,GPS 16-HVS VER 3.20,P,P,R,R,P,,31,R*2D"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var product: ShortText
    public var romChecksumPassed: Bool?
    public var receiverPassed: Bool?
    public var storedDataRetained: Bool?
    public var clockRetained: Bool?
    public var oscillatorPassed: Bool?
    /// `true` when collecting (`C`); `nil` when the field is empty.
    public var isCollectingData: Bool?
    public var temperatureCelsius: FixedPoint?
    public var configurationRetained: Bool?

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        product: ShortText, romChecksumPassed: Bool? = nil, receiverPassed: Bool? = nil,
        storedDataRetained: Bool? = nil, clockRetained: Bool? = nil, oscillatorPassed: Bool? = nil,
        isCollectingData: Bool? = nil, temperatureCelsius: FixedPoint? = nil, configurationRetained: Bool? = nil
    ) {
        self.product = product
        self.romChecksumPassed = romChecksumPassed
        self.receiverPassed = receiverPassed
        self.storedDataRetained = storedDataRetained
        self.clockRetained = clockRetained
        self.oscillatorPassed = oscillatorPassed
        self.isCollectingData = isCollectingData
        self.temperatureCelsius = temperatureCelsius
        self.configurationRetained = configurationRetained
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        product = fields.text()
        romChecksumPassed = fields.letter(in: "PF").map { $0 == UInt8(ascii: "P") }
        receiverPassed = fields.letter(in: "PF").map { $0 == UInt8(ascii: "P") }
        storedDataRetained = fields.letter(in: "RL").map { $0 == UInt8(ascii: "R") }
        clockRetained = fields.letter(in: "RL").map { $0 == UInt8(ascii: "R") }
        oscillatorPassed = fields.letter(in: "PF").map { $0 == UInt8(ascii: "P") }
        isCollectingData = fields.letter(in: "C").map { _ in true }
        temperatureCelsius = fields.fixedPoint()
        configurationRetained = fields.letter(in: "RL").map { $0 == UInt8(ascii: "R") }
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("product", text: product)
        sink.field("rom_checksum_passed", romChecksumPassed)
        sink.field("receiver_passed", receiverPassed)
        sink.field("stored_data_retained", storedDataRetained)
        sink.field("clock_retained", clockRetained)
        sink.field("oscillator_passed", oscillatorPassed)
        sink.field("collecting_data", isCollectingData)
        sink.field("temperature_c", temperatureCelsius)
        sink.field("configuration_retained", configurationRetained)
    }
}
