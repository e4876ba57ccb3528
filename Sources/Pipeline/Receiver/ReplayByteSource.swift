import NMEA
import System

/// A recorded log replayed as if a receiver were sending it: at the rate it was recorded (``ReplayPacer``), `speed`
/// times faster, or, with no speed, as fast as it can be read.
///
///     pipeline.start(try ReplayByteSource(path: "drive.nmea"))                 // a 1 Hz log: an epoch a second
///     pipeline.start(try ReplayByteSource(path: "drive.nmea", speed: 10))      // ten times faster
///     let view = pipeline.makeConsumer(name: "view")
///     pipeline.start(ReplayByteSource(FileByteSource(fileDescriptor: .standardInput, name: "-"), speed: nil,
///                                     waitingFor: view))                       // as fast as `view` keeps up
///
/// **Pacing.** Paced, the bytes go out a line at a time, each when ``ReplayPacer`` says it is due (by its receive
/// time when the log has them — TAG blocks, leading timestamps, Android lines — else by the time its sentence
/// carries); unpaced, in whole chunks. Bytes that are not sentences pass through unchanged, so the pipeline
/// sees exactly the file. The file is read through a ``FileByteSource`` (its connected status first, its end of file
/// last; a pipe or FIFO is waited for at most the read's timeout, so a stop request is noticed).
///
/// **Waiting for a reader.** A file, unlike a receiver, can wait: given a consumer (`waitingFor`), the source hands
/// out no more than the ring has room for behind that consumer, and holds back while it has none, so it loses
/// nothing to a slow reader (one line of output per fix when piped, at `--speed max`).
public final class ReplayByteSource: ByteSource {
    /// Times faster than recorded; `nil`: as fast as the file can be read.
    public let speed: Double?
    private let file: FileByteSource
    private var pacer: ReplayPacer?
    private let reader: RingConsumer<PipelineRecord>?
    /// Bytes read from the file and not yet handed out, from `start`.
    private var pending: [UInt8] = []
    private var start = 0
    /// When the line at `start` is due (computed once per line).
    private var due: Double?
    private var ended: ReceiverStatus.Reason?
    private var scratch = [UInt8](repeating: 0, count: 16_384)

    /// Replays what `file` reads.
    /// - Parameters:
    ///   - speed: times faster than recorded (> 0), or `nil` for as fast as it can be read.
    ///   - maximumGap: the longest pause between two sentences, in recorded seconds (before dividing by `speed`).
    ///   - reader: a consumer of the pipeline this source feeds, never to be left more than a ring behind.
    public init(
        _ file: FileByteSource, speed: Double?, maximumGap: Double = 10,
        waitingFor reader: RingConsumer<PipelineRecord>? = nil
    ) {
        self.file = file
        self.speed = speed.map { max($0, 1e-6) }
        pacer = self.speed.map { ReplayPacer(speed: $0, maximumGap: maximumGap) }
        self.reader = reader
    }

    /// Replays the file at `path`.
    /// - Throws: ``FileByteSource/OpenError`` when it cannot be opened.
    public convenience init(
        path: String, speed: Double? = 1, maximumGap: Double = 10,
        waitingFor reader: RingConsumer<PipelineRecord>? = nil
    ) throws(FileByteSource.OpenError) {
        self.init(try FileByteSource(path: path), speed: speed, maximumGap: maximumGap, waitingFor: reader)
    }

    /// - Complexity: O(*n*) in the bytes handed out; sleeps at most `timeout`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        let room = roomForBytes(buffer.count)
        guard room > 0 else {
            sleep(for: .milliseconds(2))
            return .timedOut
        }
        while true {
            let length = nextLength()
            if length > 0 {
                if let wait = waitForLine(timeout: timeout) { return wait }
                let count = min(length, room)
                pending.withUnsafeBytes { bytes in
                    buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: count)
                }
                start += count
                if count == length { due = nil }
                if start >= 65_536 || start == pending.count {
                    pending.removeFirst(start)
                    start = 0
                }
                return .bytes(count)
            }
            if let ended { return .end(ended) }
            let event = scratch.withUnsafeMutableBytes { file.read(into: $0, timeout: timeout) }
            switch event {
            case .bytes(let count):
                pending += scratch[0..<count]
            case .end(let reason):
                ended = reason
            case .status, .timedOut:
                return event
            }
        }
    }

    /// The most bytes one read may hand out: all of `bufferSize` without a reader to wait for; otherwise what the
    /// ring has room for, counting two records (a sentence and a fix) for every 8 bytes, the shortest sentence,
    /// plus a few status and raw records — 0 while the reader is too far behind.
    private func roomForBytes(_ bufferSize: Int) -> Int {
        guard let reader else { return bufferSize }
        let free = reader.ring.capacity - Int(min(reader.lag, UInt64(reader.ring.capacity)))
        return min(bufferSize, max(free - 8, 0) * 4)
    }

    /// How many bytes at `start` go out next: a whole line when paced (0 while a line's end has not been read,
    /// unless the file has ended or 4 KiB are waiting), everything read when not.
    private func nextLength() -> Int {
        let available = pending.count - start
        guard available > 0, pacer != nil else { return available }
        if let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) { return newline + 1 - start }
        return ended != nil || available >= 4096 ? available : 0
    }

    /// Sleeps until the line at `start` is due, at most `timeout`: `.timedOut` when it is still not due then.
    private func waitForLine(timeout: Duration) -> ByteSourceEvent? {
        guard var pacer else { return nil }
        let now = MonotonicTime.now().seconds
        if due == nil {
            let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) ?? pending.count
            let (received, time) = pending.withUnsafeBytes { bytes in
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                let received = ReceiveTime.inLine(line)
                return (received, received == nil ? ReplayPacer.sentenceTime(line) : nil)
            }
            if let received {
                due = pacer.due(receivedMilliseconds: received, now: now)
            } else {
                due = pacer.due(sentenceTime: time, now: now)
            }
            self.pacer = pacer
        }
        let wait = due! - now
        guard wait > 0 else { return nil }
        sleep(for: .nanoseconds(Int64(min(wait, Double(timeout.nanosecondsClamped) / 1e9) * 1e9)))
        return due! > MonotonicTime.now().seconds ? .timedOut : nil
    }
}
