import NMEA
import Pipeline
import Synchronization
import Threading
import Tracks

/// One track a recording writes (`-o FILE`): its name and how to make its writer (GPX, GeoJSON…).
public struct TrackOutput: Sendable {
    public var name: OutputName
    /// Makes the writer for a path.
    public var makeWriter: @Sendable (String) throws(TrackError) -> any TrackWriter

    public init(_ name: OutputName, makeWriter: @escaping @Sendable (String) throws(TrackError) -> any TrackWriter) {
        self.name = name
        self.makeWriter = makeWriter
    }
}

/// The track writers of a recording: every final fix goes to every output; a disconnection (or records lost to a
/// slow disk) starts a new segment; with ``Rotation/daily`` a new set of files is opened when the first fix of a
/// new day arrives (``OutputName/day(of:)``), never before the first fix. A file that is already there is never
/// overwritten (``OutputName/freshPath(_:)``).
final class TrackConsumer: RecordConsumer {
    private let outputs: [TrackOutput]
    private let rotation: Rotation
    private let report: @Sendable (String) -> Void
    private var writers: [any TrackWriter] = []
    private var day: UTCDate?
    /// Points in the files of the days before (with rotation).
    private var earlierPoints = 0
    /// Points written so far (every output counts the same fixes; this is the first's).
    let points = Atomic<Int>(0)
    /// Errors that stopped an output.
    let errors = Atomic<Int>(0)
    /// Set when every output has failed: nothing is left to record to.
    let allFailed = Atomic<Bool>(false)
    private let openedPaths = Locked<[String]>([])
    /// The points each finished or failed file holds, by path (a failed file keeps what its flushes put there).
    private let pointsInFiles = Locked<[String: Int]>([:])
    private var cleaner: TrackCleaner?
    private let cleaning = Locked<String?>(nil)

    /// Opens the outputs now unless they rotate (then the first fix opens them).
    /// - Throws: the first output that cannot be created, before anything runs.
    init(
        _ outputs: [TrackOutput], rotation: Rotation, cleaner: TrackCleaner? = nil,
        report: @escaping @Sendable (String) -> Void
    ) throws(RecordingError) {
        self.outputs = outputs
        self.rotation = rotation
        self.cleaner = cleaner
        self.report = report
        guard rotation == .none else { return }
        for output in outputs {
            do throws(TrackError) {
                try open(output, path: OutputName.freshPath(output.name.pattern))
            } catch {
                for writer in writers { writer.discard() }
                throw RecordingError(error.description)
            }
        }
    }

    /// The files written, in order (one that never got a point is not one).
    var opened: [String] { openedPaths.withLock { $0 } }

    /// The points in each file written, in order, once ``finish()`` has run: what is on disk (a failed file's
    /// points up to its last flush).
    var filePoints: [(path: String, points: Int)] {
        let counts = pointsInFiles.withLock { $0 }
        return opened.map { ($0, counts[$0] ?? 0) }
    }

    /// What cleaning did, in words (``TrackCleaner/summary``), once ``finish()`` has run; `nil` before, without
    /// cleaning, or when it did nothing.
    var cleaningSummary: String? { cleaning.withLock { $0 } }

    func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
        if lost > 0 { clean(Fix()) }
        for record in records {
            switch record.content {
            case .fix(let fix) where !fix.isProvisional: clean(fix)
            case .status(let status) where status.state == .disconnected: clean(Fix())
            default: break
            }
        }
    }

    func finish() {
        if cleaner != nil {
            cleaner!.finish(write)
            cleaning.withLock { $0 = cleaner!.summary }
        }
        finishWriters()
    }

    /// Hands `fix` (or a segment break: a fix without a position) through the cleaning, when there is any, to the
    /// writers.
    private func clean(_ fix: Fix) {
        guard cleaner != nil else { return write(fix) }
        cleaner!.add(fix, write)
    }

    private func open(_ output: TrackOutput, path: String) throws(TrackError) {
        writers.append(try output.makeWriter(path))
        openedPaths.withLock { $0.append(path) }
    }

    private func write(_ fix: Fix) {
        guard fix.hasPosition else { return breakSegment() }
        if rotation == .daily {
            guard let fixDay = OutputName.day(of: fix) ?? day else { return }  // nothing is open before a day
            if fixDay != day { openDay(fixDay) }
        }
        var failed: [Int] = []
        for (index, writer) in writers.enumerated() {
            do throws(TrackError) {
                try writer.write(fix)
            } catch {
                fail(error.description)
                failed.append(index)
                // Flushed point by point: every point but the one that failed is in the file.
                let points = max(writer.statistics.points - 1, 0)
                pointsInFiles.withLock { $0[writer.path] = points }
            }
        }
        for index in failed.reversed() { writers.remove(at: index) }
        if writers.isEmpty && !failed.isEmpty { allFailed.store(true, ordering: .relaxed) }
        if let first = writers.first { points.store(earlierPoints + first.statistics.points, ordering: .relaxed) }
    }

    /// The outputs of `newDay`, after finishing those of the day before.
    private func openDay(_ newDay: UTCDate) {
        finishWriters()
        day = newDay
        for output in outputs {
            do throws(TrackError) {
                try open(output, path: OutputName.freshPath(output.name.path(for: newDay)))
            } catch {
                fail(error.description)
            }
        }
        if writers.isEmpty { allFailed.store(true, ordering: .relaxed) }
    }

    /// Ends the current segment: the next point starts a new one.
    private func breakSegment() {
        for writer in writers { try? writer.write(Fix()) }
    }

    private func finishWriters() {
        earlierPoints += writers.first?.statistics.points ?? 0
        for writer in writers {
            // A file is in place from its first point; one that never got a point is not left behind.
            guard writer.statistics.points > 0 else {
                writer.discard()
                openedPaths.withLock { paths in paths.removeAll { $0 == writer.path } }
                continue
            }
            let points = writer.statistics.points
            do throws(TrackError) { try writer.finish() } catch { fail(error.description) }
            pointsInFiles.withLock { $0[writer.path] = points }
        }
        writers = []
    }

    private func fail(_ message: String) {
        errors.add(1, ordering: .relaxed)
        report(message)
    }
}
