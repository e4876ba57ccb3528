import Pipeline
import System

/// A recorded NMEA log replayed at the rate it was recorded (or `speed` times faster), for serving a file as if a
/// receiver were sending it.
///
///     let publisher = PositionPublisher()
///     publisher.start(try ReplayByteSource(path: "drive.nmea"))               // 1 Hz log: one epoch a second
///     publisher.start(try ReplayByteSource(path: "drive.nmea", speed: 10))    // ten times faster
///     publisher.start(try ReplayByteSource(path: "drive.nmea", speed: nil))   // as fast as it can be read
///
/// **Pacing.** The log is handed out line by line. A line whose sentence carries a time (RMC, GGA, GLL, GNS, ZDA,
/// GST, GBS, GRS) and is later than the epoch in hand starts a new epoch, which is held back until as much time has
/// passed since the previous epoch as the times say (divided by `speed`); other lines follow at once. A gap longer
/// than ``maximumGap`` (the receiver was off) is shortened to it; a time earlier than the last (a second log
/// appended, or a receiver reset) starts afresh without waiting; midnight is crossed forwards. Bytes that are not
/// sentences pass through unchanged, so the pipeline sees exactly the file.
public final class ReplayByteSource: ByteSource {
    /// The name reported in the connected status.
    public let name: String
    /// Times faster than recorded; `nil`: as fast as the file can be read.
    public let speed: Double?
    /// The longest pause between two epochs (before dividing by `speed`).
    public let maximumGap: Duration
    private let descriptor: FileDescriptor
    private let closesOnDeinit: Bool
    private var announced = false
    private var endOfFile = false
    /// Bytes read from the file and not yet handed out.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// The time (seconds of the day) of the epoch in hand, and when it was released.
    private var epochTime: Double?
    private var epochReleased = MonotonicTime(nanoseconds: 0)
    /// The next line's release time, once computed (the line is at `pendingStart`).
    private var nextRelease: MonotonicTime?

    /// Replays `path`.
    /// - Throws: ``Pipeline/FileByteSource/OpenError`` when it cannot be opened.
    public init(path: String, speed: Double? = 1, maximumGap: Duration = .seconds(5)) throws(FileByteSource.OpenError) {
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec, .noControllingTerminal])
        } catch {
            throw FileByteSource.OpenError(path: path, errorNumber: error.rawValue)
        }
        name = path
        self.speed = speed.map { max($0, 1e-6) }
        self.maximumGap = maximumGap
        closesOnDeinit = true
    }

    /// Replays what `fileDescriptor` yields (standard input, a pipe); it stays open.
    public init(
        fileDescriptor: FileDescriptor, name: String, speed: Double? = 1, maximumGap: Duration = .seconds(5)
    ) {
        descriptor = fileDescriptor
        self.name = name
        self.speed = speed.map { max($0, 1e-6) }
        self.maximumGap = maximumGap
        closesOnDeinit = false
    }

    deinit {
        if closesOnDeinit { try? descriptor.close() }
    }

    /// - Complexity: O(*n*) in the bytes handed out; sleeps at most `timeout`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) -> ByteSourceEvent {
        if !announced {
            announced = true
            return .status(.connected(device: name))
        }
        var written = 0
        reading: while written < buffer.count {
            let line: Line
            switch nextLine(timeout: timeout) {
            case .line(let next): line = next
            case .end: break reading
            case .wait:
                if written > 0 { break reading }
                return .timedOut
            }
            let release = releaseTime(of: line)
            let now = MonotonicTime.now()
            if release > now {
                if written > 0 { break }
                let wait = min(release - now, timeout)
                sleep(for: wait)
                if MonotonicTime.now() < release { return .timedOut }
            }
            // Hand out the line (or as much of it as fits).
            let count = min(line.count - line.offset, buffer.count - written)
            pending.withUnsafeBytes { bytes in
                (buffer.baseAddress! + written).copyMemory(
                    from: bytes.baseAddress! + pendingStart + line.offset,
                    byteCount: count)
            }
            written += count
            if line.offset + count == line.count {
                pendingStart += line.count
                nextRelease = nil
                lineOffset = 0
            } else {
                lineOffset = line.offset + count
            }
        }
        if written > 0 { return .bytes(written) }
        return .end(.endOfFile)
    }

    /// Bytes of the line at `pendingStart` already handed out (a line longer than the caller's buffer).
    private var lineOffset = 0

    private struct Line {
        var count: Int
        var offset: Int
    }

    private enum NextLine {
        case line(Line)
        /// Nothing more, ever.
        case end
        /// A pipe with no complete line yet: ask again later.
        case wait
    }

    /// The line at `pendingStart` (through its newline, or the rest of the file), reading more when needed; a pipe
    /// is waited for at most `timeout`, so a stop request is noticed.
    private func nextLine(timeout: Duration) -> NextLine {
        while true {
            if let newline = pending[pendingStart...].firstIndex(of: UInt8(ascii: "\n")) {
                return .line(Line(count: newline + 1 - pendingStart, offset: lineOffset))
            }
            if endOfFile {
                let rest = pending.count - pendingStart
                return rest > 0 ? .line(Line(count: rest, offset: lineOffset)) : .end
            }
            // A line longer than 64 KiB is handed out in pieces rather than held.
            if pending.count - pendingStart > 65_536 {
                return .line(Line(count: pending.count - pendingStart, offset: lineOffset))
            }
            if !fill(timeout: timeout) { return .wait }
        }
    }

    /// Reads up to 64 KiB more, dropping what was handed out already: `false` when nothing arrived within
    /// `timeout` (`poll(2)` first: a pipe may be silent for a while; a regular file never is).
    private func fill(timeout: Duration) -> Bool {
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000
                + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = try? descriptor.poll(.readable, timeoutMilliseconds: max(milliseconds, 0))
        if ready?.isEmpty == true { return false }
        if pendingStart > 0 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        let chunk = 65_536
        let oldCount = pending.count
        pending.append(contentsOf: repeatElement(0, count: chunk))
        let count = pending.withUnsafeMutableBytes { bytes in
            Result { () throws(Errno) in
                try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[oldCount...]))
            }
        }
        let read = (try? count.get()) ?? 0
        pending.removeLast(chunk - read)
        if case .failure(.wouldBlock) = count { return false }
        if read == 0 { endOfFile = true }
        return true
    }

    /// When the line may be handed out: now, unless it starts a later epoch.
    private func releaseTime(of line: Line) -> MonotonicTime {
        if let nextRelease { return nextRelease }
        let now = MonotonicTime.now()
        var release = now
        if line.offset == 0, let speed,
            let time = pending.withUnsafeBytes({
                ReplayByteSource.sentenceTime(
                    UnsafeRawBufferPointer(rebasing: $0[pendingStart..<(pendingStart + line.count)]))
            })
        {
            if let current = epochTime {
                var delta = time - current
                if delta < -43_200 { delta += 86_400 }  // past midnight
                if delta > 0 {
                    let gap = min(Duration.nanoseconds(Int64(delta * 1e9)), maximumGap)
                    release = epochReleased + gap / speed
                    epochTime = time
                    epochReleased = release
                } else if delta < 0 {
                    epochTime = time  // an earlier time: start afresh
                    epochReleased = now
                } else {
                    release = now
                }
            } else {
                epochTime = time
                epochReleased = now
            }
        }
        nextRelease = release
        return release
    }

    /// The time of day (seconds) a sentence carries, for the types that begin or date an epoch; `nil` otherwise.
    static func sentenceTime(_ line: UnsafeRawBufferPointer) -> Double? {
        guard line.count > 7, line[0] == UInt8(ascii: "$") || line[0] == UInt8(ascii: "!") else { return nil }
        // The address: up to the first comma; its last three letters are the type.
        var comma = 1
        while comma < line.count, line[comma] != UInt8(ascii: ",") { comma += 1 }
        guard comma >= 4, comma < line.count else { return nil }
        let type = (line[comma - 3], line[comma - 2], line[comma - 1])
        let field: Int
        switch type {
        case (UInt8(ascii: "R"), UInt8(ascii: "M"), UInt8(ascii: "C")),
            (UInt8(ascii: "G"), UInt8(ascii: "G"), UInt8(ascii: "A")),
            (UInt8(ascii: "G"), UInt8(ascii: "N"), UInt8(ascii: "S")),
            (UInt8(ascii: "Z"), UInt8(ascii: "D"), UInt8(ascii: "A")),
            (UInt8(ascii: "G"), UInt8(ascii: "S"), UInt8(ascii: "T")),
            (UInt8(ascii: "G"), UInt8(ascii: "B"), UInt8(ascii: "S")),
            (UInt8(ascii: "G"), UInt8(ascii: "R"), UInt8(ascii: "S")):
            field = 1
        case (UInt8(ascii: "G"), UInt8(ascii: "L"), UInt8(ascii: "L")):
            field = 5
        default:
            return nil
        }
        // Find the field.
        var index = comma
        var current = 1
        while current < field {
            index += 1
            while index < line.count, line[index] != UInt8(ascii: ",") { index += 1 }
            guard index < line.count else { return nil }
            current += 1
        }
        let start = index + 1
        // hhmmss[.sss]
        func digit(_ offset: Int) -> Int? {
            let position = start + offset
            guard position < line.count, line[position] >= UInt8(ascii: "0"), line[position] <= UInt8(ascii: "9") else {
                return nil
            }
            return Int(line[position] - UInt8(ascii: "0"))
        }
        guard let h1 = digit(0), let h2 = digit(1), let m1 = digit(2), let m2 = digit(3), let s1 = digit(4),
            let s2 = digit(5)
        else { return nil }
        var seconds = Double((h1 * 10 + h2) * 3600 + (m1 * 10 + m2) * 60 + s1 * 10 + s2)
        if start + 6 < line.count, line[start + 6] == UInt8(ascii: ".") {
            var scale = 0.1
            var offset = 7
            while let next = digit(offset), offset < 16 {
                seconds += Double(next) * scale
                scale /= 10
                offset += 1
            }
        }
        return seconds
    }
}
