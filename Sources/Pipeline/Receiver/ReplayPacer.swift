import NMEA

/// When to hand out each sentence of a recorded log so that it plays back at its recorded rate (or `speed` times it).
///
/// Sentences are paced by the UTC time they carry (see ``sentenceTime(_:)``): a sentence whose time differs from the
/// one before is due that much later (divided by `speed`) than the one before was due; sentences without a time
/// (GSA, GSV) go out straight after the sentence before them. Due times accumulate from one to the next, so the
/// replay does not drift; when the input falls behind (a slow pipe, a live stream on standard input, the process
/// suspended) the schedule starts again from now instead of rushing to catch up. A pause in the recording longer
/// than `maximumGap` seconds is shortened to it; time going backwards (the next of several files, a receiver
/// restart) costs no wait; midnight wraps.
///
/// **Receive times.** A log that says when each line arrived (a TAG block's `c:`, a leading Unix timestamp, an
/// Android line's time: ``ReceiveTime``) is paced by those instead, from the first line that has one on: the replay
/// then reproduces the arrival pattern itself — bursts, gaps, an epoch's sentences spread over its second — and
/// lines without one go out straight after the line before them. Receive times do not wrap at midnight.
public struct ReplayPacer: Sendable {
    public let speed: Double
    public let maximumGap: Double
    /// How late a sentence may be before the schedule starts again from now.
    public let lateness: Double
    private var lastTime: Double?
    private var lastDue: Double = 0
    /// Set by the first receive time: sentence times are ignored from then on.
    public private(set) var pacesByReceiveTime = false
    /// The first receive time: later ones are taken relative to it, so that milliseconds stay exact in a `Double`.
    private var receiveBase: Int64 = 0

    /// - Precondition: `speed` > 0.
    public init(speed: Double, maximumGap: Double = 10, lateness: Double = 0.5) {
        precondition(speed > 0, "speed must be positive")
        self.speed = speed
        self.maximumGap = maximumGap
        self.lateness = lateness
    }

    /// The moment (on the caller's clock, in seconds) at which a sentence stamped `time` (seconds since midnight,
    /// `nil` for none) is due, given that it is `now`. Call once per sentence, in order.
    /// - Complexity: O(1).
    public mutating func due(sentenceTime time: Double?, now: Double) -> Double {
        due(time: pacesByReceiveTime ? nil : time, wrapsAtMidnight: true, now: now)
    }

    /// The moment at which a line received at `milliseconds` (since 1970) is due, given that it is `now`. The first
    /// call switches the pacer to receive times (see the type's discussion); the line is then due at once.
    /// - Complexity: O(1).
    public mutating func due(receivedMilliseconds milliseconds: Int64, now: Double) -> Double {
        if !pacesByReceiveTime {
            pacesByReceiveTime = true
            receiveBase = milliseconds
            lastTime = nil
        }
        return due(time: Double(milliseconds &- receiveBase) / 1000, wrapsAtMidnight: false, now: now)
    }

    /// The line at `time` on the log's clock (`nil` for none): due that much after the line before.
    private mutating func due(time: Double?, wrapsAtMidnight: Bool, now: Double) -> Double {
        guard let time else { return lastTime == nil ? now : lastDue }
        guard let previous = lastTime else {
            lastTime = time
            lastDue = now
            return now
        }
        if time == previous { return lastDue }
        var delta = time - previous
        if wrapsAtMidnight && delta < -43_200 { delta += 86_400 }
        delta = min(max(delta, 0), maximumGap)
        var due = lastDue + delta / speed
        if due < now - lateness { due = now }
        lastTime = time
        lastDue = due
        return due
    }

    /// The UTC time of day (seconds since midnight) a sentence line carries, or `nil`: NMEA's own
    /// ``Sentence/time(inLine:)`` (the checksum is not checked here; the pipeline does).
    /// - Complexity: O(*n*) in the line's length (at most the first 96 bytes are looked at).
    public static func sentenceTime(_ line: UnsafeRawBufferPointer) -> Double? {
        Sentence.time(inLine: UnsafeRawBufferPointer(rebasing: line.prefix(96)))?.secondsSinceMidnight
    }

    /// ``sentenceTime(_:)`` of bytes in any collection (a line in an array, a slice of a buffer).
    public static func sentenceTime(_ line: some Collection<UInt8>) -> Double? {
        let bytes = Array(line.prefix(96))
        return bytes.withUnsafeBytes { sentenceTime($0) }
    }
}
