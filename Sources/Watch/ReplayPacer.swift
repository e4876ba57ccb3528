/// When to hand out each sentence of a recorded log so that it plays back at its recorded rate (or `speed` times it).
///
/// Sentences are paced by the UTC time they carry (RMC, GGA, GLL, GNS, ZDA, GST, GBS, GRS; see
/// ``ReplayPacer/sentenceTime(_:)``): a sentence whose time differs from the one before is due that much later (divided
/// by `speed`) than the one before was due; sentences without a time (GSA, GSV) go out straight after the sentence
/// before them. Due times accumulate from one to the next, so the replay does not drift; when the input falls
/// behind (a slow pipe, a live stream on standard input, the process suspended) the schedule starts again from now
/// instead of rushing to catch up. A pause in the recording longer than `maximumGap` seconds is shortened to it;
/// time going backwards (the next of several files, a receiver restart) costs no wait; midnight wraps.
public struct ReplayPacer: Sendable {
    public let speed: Double
    public let maximumGap: Double
    /// How late a sentence may be before the schedule starts again from now.
    public let lateness: Double
    private var lastTime: Double?
    private var lastDue: Double = 0

    public init(speed: Double, maximumGap: Double = 10, lateness: Double = 0.5) {
        precondition(speed > 0, "speed must be positive")
        self.speed = speed
        self.maximumGap = maximumGap
        self.lateness = lateness
    }

    /// The moment (on the caller's clock, in seconds) at which a sentence stamped `time` (seconds since midnight,
    /// `nil` for none) is due, given that it is `now`. Call once per sentence, in order.
    public mutating func due(sentenceTime time: Double?, now: Double) -> Double {
        guard let time else { return lastTime == nil ? now : lastDue }
        guard let previous = lastTime else {
            lastTime = time
            lastDue = now
            return now
        }
        if time == previous { return lastDue }
        var delta = time - previous
        if delta < -43_200 { delta += 86_400 }
        delta = min(max(delta, 0), maximumGap)
        var due = lastDue + delta / speed
        if due < now - lateness { due = now }
        lastTime = time
        lastDue = due
        return due
    }

    /// The UTC time of day (seconds since midnight) a sentence line carries, or `nil`: field 1 of RMC, GGA, GNS,
    /// ZDA, GST, GBS and GRS, field 5 of GLL, from any talker. The checksum is not checked here (the pipeline does).
    public static func sentenceTime(_ line: some Collection<UInt8>) -> Double? {
        let bytes = Array(line.prefix(96))
        guard bytes.count > 7, bytes[0] == UInt8(ascii: "$") || bytes[0] == UInt8(ascii: "!") else { return nil }
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")), comma == 6 else { return nil }
        let type = String(decoding: bytes[3..<6], as: UTF8.self)
        let fieldIndex: Int
        switch type {
        case "RMC", "GGA", "GNS", "ZDA", "GST", "GBS", "GRS": fieldIndex = 1
        case "GLL": fieldIndex = 5
        default: return nil
        }
        let fields = bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard fields.count > fieldIndex else { return nil }
        var field = Array(fields[fieldIndex])
        if let star = field.firstIndex(of: UInt8(ascii: "*")) { field = Array(field[..<star]) }
        guard field.count >= 6 else { return nil }
        var digits: [Int] = []
        for byte in field.prefix(6) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            digits.append(Int(byte - UInt8(ascii: "0")))
        }
        let hours = digits[0] * 10 + digits[1]
        let minutes = digits[2] * 10 + digits[3]
        let seconds = digits[4] * 10 + digits[5]
        guard hours < 24, minutes < 60, seconds < 61 else { return nil }
        var fraction = 0.0
        if field.count > 7, field[6] == UInt8(ascii: ".") {
            var scale = 0.1
            for byte in field[7...] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                fraction += Double(byte - UInt8(ascii: "0")) * scale
                scale /= 10
            }
        }
        return Double(hours * 3600 + minutes * 60 + seconds) + fraction
    }
}
