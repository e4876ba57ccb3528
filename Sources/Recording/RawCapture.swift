import Compression
import Glibc
import NMEA
import Pipeline
import Synchronization
import System
import Threading

/// The raw capture of a recording (`--raw FILE`): the exact bytes received, appended to a file, in order.
///
/// **Rotation.** With ``Rotation/daily`` the bytes go to the file of the day of the last dated fix
/// (``OutputName/day(of:)``): a new file is opened when the first fix of a new day arrives, and the raw chunks
/// after that fix go into it. The ring carries raw chunks as the reader gathers them (up to 1 KiB, at least every
/// quarter second), so the switch falls on a chunk's boundary: the new day's file may begin with the last
/// sentences of the old day, and nothing is lost or doubled (the files, concatenated, are exactly the input).
///
/// **Before the first dated fix** no day is known, and no file is named after the system clock (which on a
/// receiver without a real-time clock is wrong). The bytes are held in memory, up to `heldLimit` (4 MiB by
/// default: over an hour of a 9600-baud receiver), and written at the head of the first file once its fix names
/// it; beyond the limit the oldest held bytes are dropped and counted (``droppedBytes``). If the run ends before any
/// dated fix, what is held is written to the file named after the system clock's date, the only date there is,
/// and ``undatedPath`` says which.
///
/// Without rotation the file is opened at the start and every byte goes there as it comes.
///
/// **Tagged** (``RawFormat/tagged``), the capture takes the pipeline's sentence records instead of its raw chunks:
/// each sentence is written after a TAG block with the calendar time at which its bytes were read (the record's
/// monotonic reading, put on the calendar clock: ``WallClock/Offset``).
///
/// **Compression.** With `compressesFinishedDays` and daily rotation, a day's file is compressed to `.zst` on a
/// thread of its own once the next day's file is open (``FileCompressor``: nothing is lost if the run is killed
/// midway); ``finish()`` waits for it. The day in progress is never compressed.
final class RawCapture: RecordConsumer {
    private let file: AppendFile
    let format: RawFormat
    private let compressesFinishedDays: Bool
    /// A tagged line being built (its storage kept from one sentence to the next).
    private var line: [UInt8] = []
    /// Puts the records' monotonic times on the calendar.
    private var clock = WallClock.Offset()
    private var compressions: [NativeThread] = []
    /// The files compressed so far, and the compressions that failed (in words).
    let compressed = Locked<[String]>([])
    private let heldLimit: Int
    private var held: [UInt8] = []
    /// Bytes written so far (readable from any thread).
    let bytes = Atomic<Int>(0)
    /// Bytes received before the first dated fix that did not fit in memory.
    let droppedBytes = Atomic<Int>(0)
    /// Set when the run ended before any dated fix and the held bytes went to the system clock's day.
    let undatedPath = Locked<String?>(nil)
    private let failed = Atomic<Bool>(false)
    private let openedPaths = Locked<[String]>([])

    init(
        _ name: OutputName, format: RawFormat = .raw, compressesFinishedDays: Bool = false, heldLimit: Int = 4 << 20,
        report: @escaping @Sendable (String) -> Void
    ) throws(RecordingError) {
        file = AppendFile(name, label: "raw capture", report: report)
        self.format = format
        self.compressesFinishedDays = compressesFinishedDays && name.rotation == .daily
        self.heldLimit = max(heldLimit, 0)
        if name.rotation == .none {
            try file.open(for: nil)
            openedPaths.withLock { $0 = file.opened }
        }
    }

    /// `true` once the capture failed (an open or a write); the message was reported.
    var hasFailed: Bool { failed.load(ordering: .relaxed) }

    /// The files written, in order.
    var opened: [String] { openedPaths.withLock { $0 } }

    func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
        if format == .tagged { clock.refresh() }
        for record in records {
            switch record.content {
            case .raw(let chunk) where format == .raw:
                chunk.withBytes { take($0) }
            case .sentence(let sentence) where format == .tagged:
                line.removeAll(keepingCapacity: true)
                TagBlock.write(receivedMilliseconds: clock.milliseconds(at: record.time)) {
                    line.append($0)
                }
                sentence.withBytes { line.append(contentsOf: $0) }
                line.append(UInt8(ascii: "\r"))
                line.append(UInt8(ascii: "\n"))
                line.withUnsafeBytes { take($0) }
            case .fix(let fix):
                if file.name.rotation == .daily, let day = OutputName.day(of: fix), day != file.day { open(for: day) }
            default:
                break
            }
        }
    }

    func finish() {
        if !held.isEmpty && file.failure == nil {
            let today = UTCDate(containing: WallClock.nanosecondsSinceEpoch())
            open(for: today)
            undatedPath.withLock { $0 = file.path }
        }
        file.close()
        for compression in compressions { compression.join() }
    }

    private func take(_ chunk: UnsafeRawBufferPointer) {
        if file.isOpen {
            write(chunk)
        } else if file.failure == nil {
            hold(chunk)
        }
    }

    private func hold(_ chunk: UnsafeRawBufferPointer) {
        held.append(contentsOf: chunk)
        if held.count > heldLimit {
            let excess = held.count - heldLimit
            held.removeFirst(excess)
            droppedBytes.add(excess, ordering: .relaxed)
        }
    }

    private func open(for day: UTCDate) {
        let finished = file.isOpen ? file.path : nil
        do {
            try file.open(for: day)
            if compressesFinishedDays, let finished, finished != file.path { compress(finished) }
        } catch {
            failed.store(true, ordering: .relaxed)
            file.report(error.message + "; raw capture stopped")
            return
        }
        openedPaths.withLock { $0 = file.opened }
        if !held.isEmpty {
            held.withUnsafeBytes { write($0) }
            held = []
        }
    }

    /// Compresses a finished day's file on a thread of its own, reporting a failure.
    private func compress(_ path: String) {
        let report = file.report
        let compressed = self.compressed
        compressions.append(
            NativeThread(name: "nmea-compress") {
                do {
                    let done = try FileCompressor.compress(path)
                    compressed.withLock { $0.append(done) }
                } catch {
                    report("raw capture: \(error); '\(path)' kept as it is")
                }
            })
    }

    private func write(_ chunk: UnsafeRawBufferPointer) {
        if file.append(chunk) {
            bytes.add(chunk.count, ordering: .relaxed)
        } else {
            failed.store(true, ordering: .relaxed)
        }
    }

}
