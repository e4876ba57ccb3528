import Glibc
import NMEA
import Pipeline
import Synchronization
import System
import Tracks

/// The track-writing consumer of `nmea record`: reads fixes from the ring and writes every output, one new segment
/// after each disconnection (or lost records), a new set of files at midnight UTC with `--rotate daily`.
final class TrackRecorder: @unchecked Sendable {
    struct Output {
        /// The path as given; with rotation it may hold `%Y`, `%m`, `%d`.
        var pattern: String
        var format: ConvertOutput.Format
    }

    let outputs: [Output]
    let options: TrackOptions
    let rotateDaily: Bool
    /// Points written so far (all outputs count the same fixes; this is the first's).
    let points = Atomic<Int>(0)
    /// Errors that stopped an output, for the end of the run.
    let errors = Mutex<[String]>([])
    /// Paths opened, for the summary.
    let opened = Mutex<[String]>([])
    /// Set when every output has failed: nothing is left to record to.
    let allFailed = Atomic<Bool>(false)

    private var writers: [any TrackWriter] = []
    private var day: UTCDate?

    init(outputs: [Output], options: TrackOptions, rotateDaily: Bool) {
        self.outputs = outputs
        self.options = options
        self.rotateDaily = rotateDaily
    }

    /// Opens the outputs for `day` (today's date names rotated files until the first fix says otherwise).
    func open(for day: UTCDate) {
        self.day = day
        writers = []
        for output in outputs {
            let path = TrackRecorder.freshPath(rotateDaily ? TrackRecorder.expand(output.pattern, day: day)
                                                          : output.pattern)
            do throws(TrackError) {
                let writer: any TrackWriter = switch output.format {
                case .gpx: try GPXWriter(path: path, options: options)
                case .geojson: try GeoJSONWriter(path: path, options: GeoJSONWriter.Options(track: options))
                }
                writers.append(writer)
                opened.withLock { $0.append(path) }
            } catch {
                fail(error.description)
            }
        }
    }

    /// Reads the ring until it is closed and drained.
    func run(_ consumer: RingConsumer<PipelineRecord>) {
        var record = PipelineRecord(time: MonotonicTime(nanoseconds: 0), .status(.ended()))
        while true {
            let read = withUnsafeMutablePointer(to: &record) { pointer in
                consumer.read(into: UnsafeMutableBufferPointer(start: pointer, count: 1), timeout: .milliseconds(500))
            }
            if read.lost > 0 { breakSegment() }
            if read.count == 1 {
                switch record.content {
                case .fix(let fix): write(fix)
                case .status(let status) where status.state == .disconnected: breakSegment()
                default: break
                }
            } else if read.isFinished {
                break
            }
        }
        finish()
    }

    private func write(_ fix: Fix) {
        guard !fix.isProvisional else { return }
        if rotateDaily, let date = fix.date, fix.hasPosition, date != day {
            finish()
            open(for: date)
        }
        var failed: [Int] = []
        for (index, writer) in writers.enumerated() {
            do throws(TrackError) {
                try writer.write(fix)
            } catch {
                fail(error.description)
                failed.append(index)
            }
        }
        for index in failed.reversed() { writers.remove(at: index) }
        if writers.isEmpty && !failed.isEmpty { allFailed.store(true, ordering: .relaxed) }
        if let first = writers.first { points.store(first.statistics.points, ordering: .relaxed) }
    }

    /// Ends the current segment: the next point starts a new one.
    private func breakSegment() {
        for writer in writers { try? writer.write(Fix()) }
    }

    private func finish() {
        for writer in writers {
            do throws(TrackError) { try writer.finish() } catch { fail(error.description) }
        }
        writers = []
    }

    private func fail(_ message: String) {
        errors.withLock { $0.append(message) }
        Console.error("nmea record: \(message)\n")
    }

    /// `pattern` with `%Y`, `%m`, `%d` replaced by `day`; without them, `-YYYY-MM-DD` before the extension.
    static func expand(_ pattern: String, day: UTCDate) -> String {
        let year = String(day.year)
        let month = (day.month < 10 ? "0" : "") + String(day.month)
        let dayOfMonth = (day.day < 10 ? "0" : "") + String(day.day)
        if pattern.contains("%Y") || pattern.contains("%m") || pattern.contains("%d") {
            return pattern.replacing("%Y", with: year).replacing("%m", with: month).replacing("%d", with: dayOfMonth)
        }
        let stamp = "\(year)-\(month)-\(dayOfMonth)"
        guard let dot = pattern.lastIndex(of: "."), !pattern[dot...].contains("/") else { return pattern + "-" + stamp }
        return String(pattern[..<dot]) + "-" + stamp + String(pattern[dot...])
    }

    /// `path`, or `path` with `-1`, `-2`… before its extension when a regular file is already there: a logger
    /// never overwrites a track (a restart on the same day starts a new file). Devices are written as named.
    static func freshPath(_ path: String) -> String {
        guard (try? FileStatus(path: path))?.kind == .regular else { return path }
        let dot = path.lastIndex(of: ".").flatMap { path[$0...].contains("/") ? nil : $0 } ?? path.endIndex
        var number = 1
        while true {
            let candidate = String(path[..<dot]) + "-\(number)" + String(path[dot...])
            if access(candidate, F_OK) != 0 { return candidate }
            number += 1
        }
    }
}

/// The raw-capture consumer: appends the exact bytes received to a file.
final class RawRecorder: @unchecked Sendable {
    let path: String
    private let fd: FileDescriptor
    let bytes = Atomic<Int>(0)
    let error = Mutex<String?>(nil)

    init(path: String) throws(RuntimeError) {
        do {
            fd = try FileDescriptor.open(path, .writeOnly, options: [.create, .append, .closeOnExec])
        } catch {
            throw RuntimeError("cannot open '\(path)': \(error)")
        }
        self.path = path
    }

    func run(_ consumer: RingConsumer<PipelineRecord>) {
        var record = PipelineRecord(time: MonotonicTime(nanoseconds: 0), .status(.ended()))
        while true {
            let read = withUnsafeMutablePointer(to: &record) { pointer in
                consumer.read(into: UnsafeMutableBufferPointer(start: pointer, count: 1), timeout: .milliseconds(500))
            }
            if read.count == 1, case .raw(let chunk) = record.content {
                chunk.withBytes { write($0) }
            } else if read.count == 0 && read.isFinished {
                break
            }
        }
        try? fd.close()
    }

    private func write(_ data: UnsafeRawBufferPointer) {
        guard error.withLock({ $0 == nil }) else { return }
        do {
            try fd.writeAll(data)
        } catch {
            let message = "cannot write '\(path)': \(error); raw capture stopped"
            self.error.withLock { $0 = message }
            Console.error("nmea record: \(message)\n")
            return
        }
        bytes.add(data.count, ordering: .relaxed)
    }
}
