import Glibc
import NMEA
import System
import Threading

/// What is done with each piece of a file read on several threads (``PieceReader``): the work on a piece, the same
/// whether a worker does it with a fresh reader and a fresh value, or the thread that takes the pieces in order does
/// it again with the reader of the piece before and its own value.
protocol PieceWork: SendableMetatype {
    associatedtype Output
    /// Frames and decodes `bytes` with `reader` (a reader made with ``FixReader/Options/assemblesFixes`` `false`),
    /// `endsInput` for the last piece of the file.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, reader: inout FixReader, endsInput: Bool) -> Output
}

/// One regular file read on `jobs` threads: cut into pieces after a line feed, each piece framed and decoded
/// (``PieceWork``) by a worker with a reader of its own, and handed back in file order to the calling thread, which
/// assembles and writes. The output is what one reader would have made of the file: a piece is taken as its worker
/// made it only when the reader of the piece before ended at the start of a line (``FixReader/isAtLineStart``);
/// otherwise the calling thread does it again, going on with the reader of the piece before (a piece cut inside an
/// overlong line or a binary frame). What a piece's output depends on beyond the framing is for its consumer to put
/// in order (the AIS sentences `parse` leaves to the printer of the whole file).
///
/// Memory: at most ``window`` pieces in flight (read, decoding, or waiting their turn), each at most twice
/// ``pieceBytes`` of input (a piece and the line carried over; its array 4 KiB more) and what its worker made of it.
final class PieceReader<Work: PieceWork>: @unchecked Sendable {
    /// The size of a piece: 256 KiB (``TestSettings/pieceBytes`` when set).
    static var pieceBytes: Int { TestSettings.pieceBytes ?? 256 << 10 }

    /// One piece: its bytes (the first `count` of `bytes`, the rest room kept for the next piece), and what its worker
    /// made of them.
    final class Piece: @unchecked Sendable {
        var bytes: [UInt8]
        let count: Int
        let isLast: Bool
        var output: Work.Output?
        var reader: FixReader?
        /// A read that failed: the file's error, in its place in the order.
        var error: String?

        init(bytes: [UInt8], count: Int, isLast: Bool) {
            self.bytes = bytes
            self.count = count
            self.isLast = isLast
        }

        /// The piece's array, taken out of it (to be spare: a worker that took it while the piece still held it would
        /// copy it).
        func takeBytes() -> [UInt8] {
            defer { bytes = [] }
            return bytes
        }

        /// Calls `body` with the piece's bytes.
        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    private struct Source {
        var carry: [UInt8] = []
        var next = 0
        var done = false
    }

    let fd: FileDescriptor
    let name: String
    let options: FixReader.Options
    let makeWork: () -> Work
    let pieceBytes: Int
    /// Pieces in flight at most.
    let window: Int
    private let source = Locked(Source())
    private let pieces = Locked([Int: Piece]())
    /// The byte buffers of pieces taken, for the next pieces: a fresh 256 KiB buffer a piece cost page faults.
    private let spare = Locked([[UInt8]]())
    private let stopped = Locked(false)
    private let ready = Semaphore()
    private let slots = Semaphore()

    /// A reader of `fd` (named `name` in messages); `options` are the command's (``FixReader/Options/assemblesFixes``
    /// is turned off for the workers), `makeWork` makes a worker's fresh value for each piece.
    init(
        fd: FileDescriptor, name: String, options: FixReader.Options, jobs: Int, makeWork: @escaping () -> Work
    ) {
        self.fd = fd
        self.name = name
        var options = options
        options.assemblesFixes = false
        self.options = options
        self.makeWork = makeWork
        pieceBytes = Self.pieceBytes
        window = 2 * jobs + 1
        for _ in 0..<window { slots.signal() }
    }

    /// Reads the file to its end on `jobs` workers, calling `consume` with each piece's output in file order on this
    /// thread, and `carried`; `carried` does again the pieces that cannot be taken as their workers made them (and
    /// keeps what goes on from one to the next). `consume` returns `false` to stop (the rest is not read).
    /// - Throws: ``RuntimeError`` when a read fails (after `consume` has had every piece before it).
    func run(jobs: Int, carried: inout Work, _ consume: (Work.Output, inout Work) throws -> Bool) throws {
        let workers = (0..<jobs).map { index in NativeThread(name: "piece \(index)") { self.work() } }
        defer {
            stopped.withLock { $0 = true }
            for _ in 0..<jobs { slots.signal() }
            for worker in workers { worker.join() }
        }
        var previous: FixReader? = nil
        var index = 0
        var doneAgain = 0
        defer {
            if TestSettings.reportsPieces {
                Console.error("\(name): \(index + 1) pieces, \(doneAgain) done again in order\n")
            }
        }
        while true {
            let piece = take(index)
            if let error = piece.error { throw RuntimeError(error) }
            let output: Work.Output
            if isTakenAsMade(piece, index: index, previous: previous) {
                output = piece.output.take()!
                previous = piece.reader.take()
            } else {
                doneAgain += 1
                var reader = previous.take() ?? FixReader(options: options)
                output = piece.withBytes { carried.decode($0, reader: &reader, endsInput: piece.isLast) }
                previous = consume reader
            }
            spare.withLock { $0.append(piece.takeBytes()) }
            slots.signal()
            guard try consume(output, &carried), !piece.isLast else { return }
            index += 1
        }
    }

    /// `true` when a worker's output for the piece is what one reader would have made of it.
    private func isTakenAsMade(_ piece: Piece, index: Int, previous: borrowing FixReader?) -> Bool {
        if index == 0 { return true }
        // A piece that does not start at a line's start, or whose first bytes a fresh reader took for a UTF-16
        // mark, is framed on from the piece before.
        let encoding = piece.reader?.inputEncoding
        guard encoding == nil || encoding == .ascii else { return false }
        switch previous {
        case .some(let reader): return reader.isAtLineStart
        case .none: return false
        }
    }

    /// Waits for piece `index` and takes it out of the map.
    private func take(_ index: Int) -> Piece {
        while true {
            if let piece = pieces.withLock({ $0.removeValue(forKey: index) }) { return piece }
            ready.wait()
        }
    }

    /// A worker: takes the next piece, decodes it, until the file ends or the reading stops.
    private func work() {
        while true {
            slots.wait()
            if stopped.withLock({ $0 }) { return }
            guard let (index, piece) = nextPiece() else { return }
            if piece.error == nil {
                var reader = FixReader(options: options)
                var work = makeWork()
                piece.output = piece.withBytes { work.decode($0, reader: &reader, endsInput: piece.isLast) }
                piece.reader = consume reader
            }
            pieces.withLock { $0[index] = piece }
            ready.signal()
            if piece.isLast || piece.error != nil { return }
        }
    }

    /// Reads the next piece: up to ``pieceBytes`` more of the file after the line carried over, cut after its last
    /// line feed (the rest carried to the next piece); `nil` once the file has ended. The bytes are read into the room
    /// of a spare piece's array, which is not cleared first (only what was read is the piece's).
    private func nextPiece() -> (Int, Piece)? {
        source.withLock { source -> (Int, Piece)? in
            guard !source.done else { return nil }
            let start = source.carry.count
            let room = start + pieceBytes
            var bytes = spare.withLock { $0.popLast() } ?? []
            if bytes.count < room {
                // Room for a carried line a little longer than the last one, without a new array each time.
                let size = room + 4096
                bytes = [UInt8](unsafeUninitializedCapacity: size) { _, initialized in initialized = size }
            }
            let count: Int
            do {
                count = try bytes.withUnsafeMutableBytes { buffer throws(Errno) in
                    source.carry.withUnsafeBytes { buffer.copyMemory(from: $0) }
                    return try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[start..<room]))
                }
            } catch {
                source.done = true
                let piece = Piece(bytes: [], count: 0, isLast: true)
                piece.error = "cannot read '\(name)': \(error)"
                defer { source.next += 1 }
                return (source.next, piece)
            }
            var length = start + count
            source.carry = []
            if count == 0 {
                source.done = true
            } else if let lineEnd = bytes[..<length].lastIndex(of: UInt8(ascii: "\n")) {
                source.carry = Array(bytes[(lineEnd + 1)..<length])
                length = lineEnd + 1
            }
            defer { source.next += 1 }
            return (source.next, Piece(bytes: bytes, count: length, isLast: count == 0))
        }
    }
}
