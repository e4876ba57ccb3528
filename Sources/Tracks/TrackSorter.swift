import Glibc
import System

/// Points of many tracks that arrive interleaved (an AIS log: every vessel's reports mixed), handed back one track
/// after another, each track's points in the order they came, in bounded memory.
///
/// Up to ``memoryPoints`` points are held; then they are sorted by track and written as a run to a file beside the
/// output that has no name (``Spool/anonymousFile(in:tag:)``: nothing is left behind, whatever ends the process).
/// When ``mergeWidth`` runs are on disk they are merged into one, so at most that many files are open and the
/// memory is ``memoryPoints`` points and a 64 KiB buffer per run, whatever the length of the input. ``finish(_:)``
/// merges what is left.
public final class TrackSorter {
    /// One point of one track: 56 bytes, written to the runs as they are.
    public struct Point: Sendable, Equatable {
        /// The track's owner (a vessel's MMSI).
        public var track: UInt64
        /// The order it came in.
        var sequence: UInt64
        public var latitude: Double
        public var longitude: Double
        /// When it was received, milliseconds since 1970; `Int64.min` when not known.
        public var receivedMilliseconds: Int64
        /// Speed over ground, m/s; NaN when not known.
        public var speed: Double
        /// Course over ground, degrees; NaN when not known.
        public var course: Double

        public init(
            track: UInt64, latitude: Double, longitude: Double, receivedMilliseconds: Int64?, speed: Double?,
            course: Double?
        ) {
            self.track = track
            sequence = 0
            self.latitude = latitude
            self.longitude = longitude
            self.receivedMilliseconds = receivedMilliseconds ?? .min
            self.speed = speed ?? .nan
            self.course = course ?? .nan
        }

        @inline(__always)
        static func precedes(_ a: Point, _ b: Point) -> Bool {
            a.track != b.track ? a.track < b.track : a.sequence < b.sequence
        }
    }

    /// The directory of the run files (the output's, so that they are on its disk).
    public let directory: String
    public let memoryPoints: Int
    public let mergeWidth: Int
    private var held: [Point] = []
    private var runs: [Run] = []
    private var next: UInt64 = 0
    /// How many runs were written (merges included), for tests and messages.
    public private(set) var runsWritten = 0
    /// Why ``append(_:)`` failed, once it did: the points are incomplete, and whoever feeds the sorter can stop.
    public private(set) var failure: TrackError?
    /// The points held in memory unless told otherwise: 262,144 (14 MiB).
    public static let defaultMemoryPoints = 1 << 18

    /// A sorter whose runs go in the directory of `path` (the temporary directory for standard output).
    public init(beside path: String, memoryPoints: Int = defaultMemoryPoints, mergeWidth: Int = 64) {
        directory = Spool.directory(beside: path)
        self.memoryPoints = max(1, memoryPoints)
        self.mergeWidth = max(2, mergeWidth)
        held.reserveCapacity(min(self.memoryPoints, 1 << 16))
    }

    /// Adds a point, after every point added before.
    /// - Throws: ``TrackError`` when a run cannot be written (a full disk), which ``failure`` then keeps.
    public func append(_ point: Point) throws(TrackError) {
        var point = point
        point.sequence = next
        next += 1
        held.append(point)
        guard held.count >= memoryPoints else { return }
        do {
            try spill()
        } catch {
            failure = error
            throw error
        }
    }

    /// Writes the points held as a sorted run, and merges the runs into one when there are ``mergeWidth``.
    private func spill() throws(TrackError) {
        held.sort(by: Point.precedes)
        try runs.append(write(held[...]))
        held.removeAll(keepingCapacity: true)
        if runs.count >= mergeWidth {
            var merged: [Point] = []
            var run: Run?
            try merge(runs, memory: []) { (point) throws(TrackError) in
                merged.append(point)
                if merged.count >= 1 << 12 {
                    run = try write(merged[...], onto: run)
                    merged.removeAll(keepingCapacity: true)
                }
            }
            runs = [try write(merged[...], onto: run)]
        }
    }

    /// Hands every point to `body`, track by track (in the order of their owners' identifiers), each track's points
    /// in the order they came; then the sorter is empty.
    public func finish(_ body: (Point) throws(TrackError) -> Void) throws(TrackError) {
        held.sort(by: Point.precedes)
        try merge(runs, memory: held, body)
        runs = []
        held = []
    }

    // MARK: Runs

    /// A sorted run in a file: its descriptor and how many points it holds.
    final class Run {
        let file: FileDescriptor
        var count = 0
        init(file: FileDescriptor) { self.file = file }
        deinit { try? file.close() }
    }

    /// Writes `points` at the end of `run` (a new one when `nil`).
    private func write(_ points: ArraySlice<Point>, onto run: Run? = nil) throws(TrackError) -> Run {
        let failure: (Errno) -> TrackError = { error in
            TrackError(path: self.directory, operation: .write, code: error.rawValue, fileIsIntact: true)
        }
        let target: Run
        if let run {
            target = run
        } else {
            do {
                target = Run(file: try Spool.anonymousFile(in: directory, tag: runsWritten &+ 1 << 40))
            } catch {
                throw failure(error)
            }
            runsWritten += 1
        }
        let offset = target.count * MemoryLayout<Point>.stride
        let result = points.withUnsafeBytes { bytes in
            Result { () throws(Errno) in try target.file.writeAll(bytes, toAbsoluteOffset: offset) }
        }
        if case .failure(let error) = result { throw failure(error) }
        target.count += points.count
        return target
    }

    /// Reads a run's points in pieces of 64 KiB, into one buffer.
    private struct Reader {
        static let piece = (1 << 16) / MemoryLayout<Point>.stride
        let run: Run
        var buffer: [Point]
        var filled = 0
        var index = 0
        var read = 0

        init(_ run: Run) {
            self.run = run
            let empty = Point(track: 0, latitude: 0, longitude: 0, receivedMilliseconds: nil, speed: nil, course: nil)
            buffer = [Point](repeating: empty, count: min(Self.piece, run.count))
        }

        /// The next point, or `nil` at the end of the run.
        mutating func next(directory: String) throws(TrackError) -> Point? {
            if index == filled {
                guard read < run.count else { return nil }
                let count = min(buffer.count, run.count - read)
                let bytes = count * MemoryLayout<Point>.stride
                let offset = read * MemoryLayout<Point>.stride
                let file = run.file
                let result = buffer.withUnsafeMutableBytes { buffer in
                    Result { () throws(Errno) in
                        try file.readAll(
                            into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<bytes]), fromAbsoluteOffset: offset)
                    }
                }
                guard case .success(let got) = result, got == bytes else {
                    // Reading back what this process wrote failed: reported as the output's write failing.
                    throw TrackError(path: directory, operation: .write, code: EIO, fileIsIntact: true)
                }
                read += count
                filled = count
                index = 0
            }
            defer { index += 1 }
            return buffer[index]
        }
    }

    /// Merges `runs` and the sorted `memory` into `body`, in order.
    private func merge(
        _ runs: [Run], memory: [Point], _ body: (Point) throws(TrackError) -> Void
    ) throws(TrackError) {
        var readers = runs.map(Reader.init)
        var heads: [Point?] = []
        for index in readers.indices { heads.append(try readers[index].next(directory: directory)) }
        var memoryIndex = 0
        while true {
            // The least head (runs are few: at most mergeWidth, so a scan beats a heap's bookkeeping).
            var least: Int?
            for index in heads.indices {
                guard let head = heads[index] else { continue }
                if least == nil || Point.precedes(head, heads[least!]!) { least = index }
            }
            if memoryIndex < memory.count, least.map({ Point.precedes(memory[memoryIndex], heads[$0]!) }) ?? true {
                try body(memory[memoryIndex])
                memoryIndex += 1
                continue
            }
            guard let least else { return }
            try body(heads[least]!)
            heads[least] = try readers[least].next(directory: directory)
        }
    }
}
