import Glibc
import NMEA
import Threading
import Tracks

/// A handler that wants only the decoded sentences, which a file read in pieces (`--jobs`) hands it on the thread
/// that assembles, in input order, after the workers decoded them.
protocol DecodedSentenceHandler: FixReader.Handler {
    /// The kinds of sentence it takes (the others are not built for it).
    static var kinds: [SentenceKind] { get }
    /// One decoded sentence of ``kinds``, in input order.
    mutating func take(_ sentence: ParsedSentence)
}

/// A handler that runs on the workers of a file read in pieces (`--jobs`), one per piece, each making its piece's
/// output apart; the outputs are put out in input order.
protocol PieceHandler: FixReader.Handler {
    associatedtype PieceOutput
    /// A handler for one piece: this one's settings, nothing of what it has seen.
    func makePieceHandler() -> Self
    /// What it made of its piece, taken out of it.
    mutating func takePieceOutput() -> PieceOutput
    /// Puts out a piece's output, on the thread that takes the pieces in order, with the handler of the whole input.
    mutating func put(_ output: PieceOutput)
}

extension SentenceInput.NoSentences: DecodedSentenceHandler {
    static var kinds: [SentenceKind] { [] }
    mutating func take(_ sentence: ParsedSentence) {}
}

extension Navigation: DecodedSentenceHandler {
    static var kinds: [SentenceKind] { [.wpl, .rte] }
    mutating func take(_ sentence: ParsedSentence) {
        switch sentence {
        case .wpl(let wpl): add(wpl)
        case .rte(let rte): add(rte)
        default: break
        }
    }
}

extension SentenceInput {
    /// The first bytes of `input` when it is to be read in pieces on ``jobs`` threads: a plain regular file larger
    /// than a piece, not a track file nor UTF-16, read without `--verbose` (whose messages name lines as they come),
    /// for a handler that can be (`H`); `nil` to read it as it streams.
    func pieceSample<H: FixReader.Handler>(_ input: InputFile, for handler: H.Type) -> [UInt8]? {
        guard jobs > 1, !verbose, H.self is any DecodedSentenceHandler.Type || H.self is any PieceHandler.Type,
            let size = input.size, size > PieceReader<DecodedWork>.pieceBytes
        else { return nil }
        var first = [UInt8](repeating: 0, count: 4096)
        let count = first.withUnsafeMutableBytes { (try? input.fd.read(fromAbsoluteOffset: 0, into: $0)) ?? 0 }
        first.removeLast(first.count - count)
        let unicode = first.starts(with: [0xFF, 0xFE]) || first.starts(with: [0xFE, 0xFF])
        let track = first.withUnsafeBytes { readsTracks && TrackFileReader.format(of: $0) != nil }
        return unicode || track ? nil : Array(first.prefix(256))
    }

    /// Reads `input` in pieces on ``jobs`` threads (``PieceReader``): decoded on the workers, assembled here in
    /// order, with exactly the fixes and handler calls of a reading on one thread.
    /// - Returns: `false` when `isCancelled` stopped the reading (checked before each piece).
    mutating func readInPieces<H: FixReader.Handler>(
        _ input: InputFile, reporting: inout Reporting<H>, isCancelled: () -> Bool,
        onChunk: ((Int, Int?) -> Void)?, _ fix: (Fix) -> Void
    ) throws -> Bool {
        let size = input.size
        var bytesRead = 0
        func progress(_ bytes: Int) -> Bool {
            bytesRead += bytes
            onChunk?(bytesRead, size)
            return !isCancelled()
        }
        if var handler = reporting.inner as? any PieceHandler {
            defer { reporting.inner = handler as! H }
            return try readInPieces(input, running: &handler, progress)
        }
        var handler = reporting.inner as! any DecodedSentenceHandler
        defer { reporting.inner = handler as! H }
        return try readInPieces(input, replaying: &handler, progress, fix)
    }

    /// Decoded on the workers, merged here into the fixes; `handler` sees each decoded sentence here, `fix` each fix,
    /// here or, with ``handsOffFixes``, on a thread of its own (``FixHandOff``), in order, every one before this
    /// returns.
    private mutating func readInPieces<D: DecodedSentenceHandler>(
        _ input: InputFile, replaying handler: inout D, _ progress: (Int) -> Bool, _ fix: (Fix) -> Void
    ) throws -> Bool {
        let tapes = SpareTapes(limit: 2 * jobs + 1)
        let pieces = PieceReader(fd: input.fd, name: input.name, options: readerOptions, jobs: jobs) {
            DecodedWork(tapes: tapes)
        }
        var carried = DecodedWork(tapes: tapes)
        var completed = true
        func assemble(_ fix: (Fix) -> Void) throws {
            try pieces.run(jobs: jobs, carried: &carried) { piece, _ in
                reader.assemble(piece, sentencesOf: D.kinds, decoded: { handler.take($0) }, fix)
                completed = progress(piece.statistics.framer.bytes)
                tapes.put(piece)
                return completed
            }
        }
        if handsOffFixes {
            // What the command does with each fix runs beside the assembling, on a thread of its own.
            try FixHandOff.run(fix) { send in try assemble(send) }
        } else {
            try assemble(fix)
        }
        return completed
    }

    /// `handler` runs on the workers, one per piece, and each piece's output is put out here in order.
    private mutating func readInPieces<P: PieceHandler>(
        _ input: InputFile, running handler: inout P, _ progress: (Int) -> Bool
    ) throws -> Bool {
        let fresh = handler.makePieceHandler()
        let pieces = PieceReader(fd: input.fd, name: input.name, options: readerOptions, jobs: jobs) {
            HandlerWork(handler: fresh.makePieceHandler())
        }
        var carried = HandlerWork(handler: handler)
        defer { handler = carried.handler }
        var completed = true
        try pieces.run(jobs: jobs, carried: &carried) { made, carried in
            let (piece, output) = made
            reader.assemble(piece) { _ in }
            carried.handler.put(output)
            completed = progress(piece.statistics.framer.bytes)
            return completed
        }
        return completed
    }
}

/// Decodes a piece into its sentences, for the assembler, on a tape the assembler has finished with when there is one.
struct DecodedWork: PieceWork {
    let tapes: SpareTapes

    mutating func decode(_ bytes: UnsafeRawBufferPointer, reader: inout FixReader, endsInput: Bool)
        -> DecodedSentences
    {
        var piece = tapes.take() ?? DecodedSentences()
        piece.reserveCapacity(forBytes: bytes.count)
        reader.decode(bytes, into: &piece, endsInput: endsInput)
        return piece
    }
}

/// Runs a handler over a piece: its counts, and what the handler made of it.
struct HandlerWork<P: PieceHandler>: PieceWork {
    var handler: P

    mutating func decode(_ bytes: UnsafeRawBufferPointer, reader: inout FixReader, endsInput: Bool)
        -> (DecodedSentences, P.PieceOutput)
    {
        var piece = DecodedSentences(recordsSentences: false)
        reader.decode(bytes, into: &piece, handler: &handler, endsInput: endsInput)
        return (piece, handler.takePieceOutput())
    }
}

/// The tapes of pieces assembled, emptied for the next pieces (at most `limit` kept: the pieces in flight).
final class SpareTapes: Sendable {
    private let tapes = Locked([DecodedSentences]())
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// A tape the assembler has finished with, empty, or `nil`.
    func take() -> DecodedSentences? {
        guard var tape = tapes.withLock({ $0.popLast() }) else { return nil }
        tape.removeAll()
        return tape
    }

    /// Keeps `tape` for a next piece.
    func put(_ tape: DecodedSentences) {
        tapes.withLock { if $0.count < limit { $0.append(tape) } }
    }
}
