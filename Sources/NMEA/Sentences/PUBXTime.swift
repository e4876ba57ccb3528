/// u-blox `$PUBX,04`, time of day and clock information.
///
///     $PUBX,04,073731.00,091202,113851.00,1196,15D,1930035,-2660.664,43,*5D
///
///          1  2         3      4         5    6   7       8         9
///     $PUBX,04,hhmmss.ss,ddmmyy,UTC_TOW  ,wwww,ls,clkB   ,clkD     ,granularity*hh
///
/// 1. Message ID `04`
/// 2. UTC time
/// 3. UTC date, `ddmmyy`
/// 4. UTC time of week, seconds
/// 5. UTC week number
/// 6. Leap seconds; a trailing `D` means the firmware's default, not yet confirmed from the satellites
/// 7. Receiver clock bias, nanoseconds
/// 8. Receiver clock drift, nanoseconds per second
/// 9. Time pulse granularity, nanoseconds
public struct PUBXTime: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pubx, messageID: "0", "4") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PUBX,04,073731.00,091202,113851.00,1196,15D,1930035,-2660.664,43,*5D"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var time: UTCTime?
    public var date: UTCDate?
    public var timeOfWeekSeconds: FixedPoint?
    public var weekNumber: Int?
    public var leapSeconds: Int?
    /// `true` when the leap seconds value is the firmware default (`15D`).
    public var leapSecondsAreDefault: Bool
    public var clockBiasNanoseconds: FixedPoint?
    public var clockDriftNanosecondsPerSecond: FixedPoint?
    public var timePulseGranularityNanoseconds: Int?

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectPUBXMessage(4)
        time = fields.time()
        date = fields.date()
        timeOfWeekSeconds = fields.fixedPoint()
        weekNumber = fields.integer()
        let leapIndex = fields.index
        if let field = fields.nextField(), !field.isEmpty {
            // Indexes into the buffer, not a `Slice` of it, whose generic accessors allocate in debug builds.
            let bytes = field.bytes
            leapSecondsAreDefault = bytes[bytes.count - 1] == UInt8(ascii: "D")
            let digitCount = leapSecondsAreDefault ? bytes.count - 1 : bytes.count
            var value = 0
            for index in 0..<digitCount {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10, value < 1000 else { throw .badField(index: leapIndex, reason: .notANumber) }
                value = value * 10 + Int(digit)
            }
            leapSeconds = digitCount == 0 ? nil : value
        } else {
            leapSeconds = nil
            leapSecondsAreDefault = false
        }
        clockBiasNanoseconds = fields.fixedPoint()
        clockDriftNanosecondsPerSecond = fields.fixedPoint()
        timePulseGranularityNanoseconds = fields.integer()
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("time", time)
        sink.field("date", date)
        sink.field("time_of_week", timeOfWeekSeconds)
        sink.field("week", weekNumber)
        sink.field("leap_seconds", leapSeconds)
        if leapSeconds != nil { sink.field("leap_seconds_default", leapSecondsAreDefault) }
        sink.field("clock_bias_ns", clockBiasNanoseconds)
        sink.field("clock_drift_ns_per_s", clockDriftNanosecondsPerSecond)
        sink.field("time_pulse_granularity_ns", timePulseGranularityNanoseconds)
    }
}
