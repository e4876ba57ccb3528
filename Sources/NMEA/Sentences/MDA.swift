/// MDA, meteorological composite: pressure, temperatures, humidity, dew point and wind in one sentence.
///
///     $WIMDA,29.92,I,1.013,B,21.4,C,18.6,C,65.2,,14.6,C,270.5,T,268.1,M,14.2,N,7.3,M*33
///
///            1    2 3     4 5   6 7   8 9   10  11  12 13  14 15  16 17  18 19  20
///     $--MDA,x.xx,I,x.xxx,B,x.x,C,x.x,C,x.x,x.x,x.x,C,x.x,T,x.x,M,x.x,N,x.x,M*hh
///
/// 1. 2. Barometric pressure, inches of mercury, `I`
/// 3. 4. Barometric pressure, bars, `B`
/// 5. 6. Air temperature, degrees Celsius, `C`
/// 7. 8. Water temperature, degrees Celsius, `C`
/// 9. Relative humidity, percent
/// 10. Absolute humidity, percent
/// 11. 12. Dew point, degrees Celsius, `C`
/// 13. 14. Wind direction, degrees true, `T`
/// 15. 16. Wind direction, degrees magnetic, `M`
/// 17. 18. Wind speed, knots, `N`
/// 19. 20. Wind speed, m/s, `M`
///
/// Weather stations leave empty what they do not measure (the water temperature, the absolute humidity). Obsolete
/// since NMEA 4.00 (XDR and MWD replace it), still sent by many.
public struct MDA: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.mda) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$WIMDA,29.92,I,1.013,B,21.4,C,18.6,C,65.2,,14.6,C,270.5,T,268.1,M,14.2,N,7.3,M*33"
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var pressureInchesOfMercury: FixedPoint?
    public var pressureBars: FixedPoint?
    public var airTemperatureCelsius: FixedPoint?
    public var waterTemperatureCelsius: FixedPoint?
    public var relativeHumidityPercent: FixedPoint?
    public var absoluteHumidityPercent: FixedPoint?
    public var dewPointCelsius: FixedPoint?
    public var wind: WindDirectionAndSpeed

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .weatherInstruments, pressureInchesOfMercury: FixedPoint? = nil,
        pressureBars: FixedPoint? = nil, airTemperatureCelsius: FixedPoint? = nil,
        waterTemperatureCelsius: FixedPoint? = nil, relativeHumidityPercent: FixedPoint? = nil,
        absoluteHumidityPercent: FixedPoint? = nil, dewPointCelsius: FixedPoint? = nil,
        wind: WindDirectionAndSpeed = WindDirectionAndSpeed()
    ) {
        self.talker = talker
        self.pressureInchesOfMercury = pressureInchesOfMercury
        self.pressureBars = pressureBars
        self.airTemperatureCelsius = airTemperatureCelsius
        self.waterTemperatureCelsius = waterTemperatureCelsius
        self.relativeHumidityPercent = relativeHumidityPercent
        self.absoluteHumidityPercent = absoluteHumidityPercent
        self.dewPointCelsius = dewPointCelsius
        self.wind = wind
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        pressureInchesOfMercury = fields.fixedPoint()
        fields.unit("I")
        pressureBars = fields.fixedPoint()
        fields.unit("B")
        airTemperatureCelsius = fields.fixedPoint()
        fields.unit("C")
        waterTemperatureCelsius = fields.fixedPoint()
        fields.unit("C")
        relativeHumidityPercent = fields.fixedPoint()
        absoluteHumidityPercent = fields.fixedPoint()
        dewPointCelsius = fields.fixedPoint()
        fields.unit("C")
        wind = fields.windDirectionAndSpeed()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("pressure_inhg", pressureInchesOfMercury)
        sink.field("pressure_bar", pressureBars)
        sink.field("air_temperature_c", airTemperatureCelsius)
        sink.field("water_temperature_c", waterTemperatureCelsius)
        sink.field("relative_humidity_percent", relativeHumidityPercent)
        sink.field("absolute_humidity_percent", absoluteHumidityPercent)
        sink.field("dew_point_c", dewPointCelsius)
        wind.describe(to: &sink)
    }
}
