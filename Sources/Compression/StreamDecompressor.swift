import CZlib
import CZstd

/// How an input is compressed, as its first bytes tell (never its name alone: a `.nmea` that is gzipped is read,
/// and a `.gz` that is plain is read as plain).
public enum CompressionFormat: Sendable, Hashable, CustomStringConvertible {
    /// Not compressed (or compressed in a format not known here): the bytes are read as they are.
    case none
    /// gzip (RFC 1952): it starts with `1F 8B`. Concatenated members are read one after another.
    case gzip
    /// Zstandard (RFC 8878): it starts with the frame magic `28 B5 2F FD`. Concatenated frames are read in turn.
    case zstd

    /// The format `prefix`, an input's first bytes, starts with. Two bytes tell gzip, four Zstandard; fewer are
    /// plain.
    public init(prefix: UnsafeRawBufferPointer) {
        if prefix.count >= 2 && prefix[0] == 0x1F && prefix[1] == 0x8B {
            self = .gzip
        } else if prefix.count >= 4 && prefix[0] == 0x28 && prefix[1] == 0xB5 && prefix[2] == 0x2F
            && prefix[3] == 0xFD
        {
            self = .zstd
        } else {
            self = .none
        }
    }

    public var description: String {
        switch self {
        case .none: "plain"
        case .gzip: "gzip"
        case .zstd: "zstd"
        }
    }
}

/// Why a compressed input could not be read to its end.
public struct DecompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var format: CompressionFormat
    /// What went wrong, in words (`truncated …`, or the library's message).
    public var reason: String

    public init(format: CompressionFormat, reason: String) {
        self.format = format
        self.reason = reason
    }

    public var description: String { "\(format) data: \(reason)" }
}

/// Decompresses a gzip or Zstandard stream as it arrives (zlib's `inflate`, libzstd's `ZSTD_decompressStream`), in
/// constant memory: the compressed bytes of one ``supply(_:)`` at a time, the library's window (32 KiB for gzip,
/// at most 128 MiB for a Zstandard frame that asks for it, 8 MiB for the `zstd` tool's usual levels) and whatever
/// the caller's output buffer holds.
///
///     let decompressor = StreamDecompressor(.zstd)
///     while true {
///         let produced = try decompressor.decompress(into: output)
///         if produced > 0 { use(output[..<produced]); continue }
///         let count = read(into: input)
///         if count == 0 { try decompressor.finish(); break }     // throws when the stream was cut off
///         decompressor.supply(input[..<count])
///     }
public final class StreamDecompressor {
    public let format: CompressionFormat
    private var zlib = z_stream()
    private var zstd: OpaquePointer?
    /// The compressed bytes supplied and not yet consumed.
    private let input: UnsafeMutableRawPointer
    private let inputCapacity: Int
    private var inputStart = 0
    private var inputEnd = 0
    /// `true` between frames or members (nothing begun and not ended).
    private var atBoundary = true
    /// The last call filled the output buffer: the library may hold more output, even with no input left.
    private var outputPending = false
    /// Set once the library refused the data; every later call throws it.
    private var failure: DecompressionError?

    /// The most compressed bytes one ``supply(_:)`` takes.
    public static let inputCapacity = 128 * 1024

    /// - Precondition: `format` is ``CompressionFormat/gzip`` or ``CompressionFormat/zstd``.
    public init(_ format: CompressionFormat) {
        precondition(format != .none, "nothing to decompress")
        self.format = format
        inputCapacity = StreamDecompressor.inputCapacity
        input = .allocate(byteCount: inputCapacity, alignment: 16)
        switch format {
        case .gzip:
            // 15 + 32: the largest window, and a gzip (or zlib) header detected automatically.
            let status = inflateInit2_(&zlib, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            if status != Z_OK { failure = DecompressionError(format: format, reason: "zlib did not start (\(status))") }
        case .zstd:
            zstd = ZSTD_createDStream()
            if zstd == nil { failure = DecompressionError(format: format, reason: "libzstd did not start") }
        case .none:
            break
        }
    }

    deinit {
        switch format {
        case .gzip: inflateEnd(&zlib)
        case .zstd: ZSTD_freeDStream(zstd)
        case .none: break
        }
        input.deallocate()
    }

    /// `true` when every byte supplied has been consumed: supply more (or ``finish()`` at the end).
    public var needsInput: Bool { inputStart == inputEnd }

    /// Hands over the next compressed bytes, at most ``inputCapacity`` of them.
    /// - Precondition: ``needsInput``.
    public func supply(_ bytes: UnsafeRawBufferPointer) {
        precondition(needsInput, "supply before the last input was consumed")
        precondition(bytes.count <= inputCapacity, "more input than fits")
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        input.copyMemory(from: base, byteCount: bytes.count)
        inputStart = 0
        inputEnd = bytes.count
    }

    /// Decompresses into `output` what the input supplied so far gives.
    /// - Returns: the bytes written; 0 when more input is needed (``needsInput``).
    /// - Throws: ``DecompressionError`` when the data is not valid.
    public func decompress(into output: UnsafeMutableRawBufferPointer) throws(DecompressionError) -> Int {
        if let failure { throw failure }
        guard let base = output.baseAddress, !output.isEmpty else { return 0 }
        var produced = 0
        while produced < output.count {
            let step: Int
            switch format {
            case .gzip: step = try inflateStep(into: base + produced, count: output.count - produced)
            case .zstd: step = try zstdStep(into: base + produced, count: output.count - produced)
            case .none: step = 0
            }
            produced += step
            if step == 0 && needsInput { break }
        }
        return produced
    }

    /// Ends the input: throws when the stream stopped inside a member or frame (a truncated file).
    /// - Throws: ``DecompressionError`` naming what was cut off.
    public func finish() throws(DecompressionError) {
        if let failure { throw failure }
        guard atBoundary else {
            let part = format == .gzip ? "member" : "frame"
            throw DecompressionError(format: format, reason: "truncated (the input ends inside a compressed \(part))")
        }
    }

    // MARK: Steps

    private func inflateStep(into output: UnsafeMutableRawPointer, count: Int) throws(DecompressionError) -> Int {
        if needsInput && !outputPending { return 0 }
        zlib.next_in = (input + inputStart).assumingMemoryBound(to: Bytef.self)
        zlib.avail_in = uInt(inputEnd - inputStart)
        zlib.next_out = output.assumingMemoryBound(to: Bytef.self)
        zlib.avail_out = uInt(count)
        let status = inflate(&zlib, Z_NO_FLUSH)
        let consumed = inputEnd - inputStart - Int(zlib.avail_in)
        inputStart += consumed
        let produced = count - Int(zlib.avail_out)
        outputPending = produced == count
        if consumed > 0 { atBoundary = false }
        switch status {
        case Z_STREAM_END:
            // A member ended; another may follow (`cat a.gz b.gz`).
            atBoundary = true
            inflateReset(&zlib)
        case Z_OK, Z_BUF_ERROR:
            break
        default:
            let message = zlib.msg.map { String(cString: $0) } ?? "error \(status)"
            let error = DecompressionError(format: .gzip, reason: message)
            failure = error
            throw error
        }
        return produced
    }

    private func zstdStep(into output: UnsafeMutableRawPointer, count: Int) throws(DecompressionError) -> Int {
        if needsInput && !outputPending { return 0 }
        var inBuffer = ZSTD_inBuffer(src: input + inputStart, size: inputEnd - inputStart, pos: 0)
        var outBuffer = ZSTD_outBuffer(dst: output, size: count, pos: 0)
        let hint = ZSTD_decompressStream(zstd, &outBuffer, &inBuffer)
        if ZSTD_isError(hint) != 0 {
            let error = DecompressionError(format: .zstd, reason: String(cString: ZSTD_getErrorName(hint)))
            failure = error
            throw error
        }
        inputStart += inBuffer.pos
        outputPending = outBuffer.pos == count
        // 0: a frame was decoded and flushed whole; another may follow.
        if inBuffer.pos > 0 || outBuffer.pos > 0 { atBoundary = hint == 0 }
        return outBuffer.pos
    }
}
