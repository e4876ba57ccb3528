import Compression
import System

/// Reads files (or standard input for `-`, or a network source: ``NetworkInput``) in large chunks, without loading
/// them whole; gzip and Zstandard files are decompressed as they are read (see ``forEachChunk(bufferSize:_:)``).
struct InputFile {
    /// The name to show in messages: the path, `<stdin>`, or the source's URL.
    let name: String
    /// The file (standard input, unused, for a network source).
    let fd: FileDescriptor
    private let ownsDescriptor: Bool
    /// A `tcp://`, `udp://` or `gpsd://` source instead of a file.
    private var network: NetworkInput?

    /// Opens `path` for reading (`-` is standard input; `tcp://`, `udp://`, `gpsd://` a network source).
    /// - Throws: ``RuntimeError`` naming the file and the reason.
    init(path: String) throws(RuntimeError) {
        if let address = try NetworkInput.address(path) {
            name = address.description
            fd = .standardInput
            ownsDescriptor = false
            network = NetworkInput(address)
            return
        }
        if path == "-" {
            name = "<stdin>"
            fd = .standardInput
            ownsDescriptor = false
            return
        }
        name = path
        let opened: FileDescriptor
        do {
            opened = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw RuntimeError("cannot open '\(path)': \(error)")
        }
        if (try? opened.status().kind) == .directory {
            try? opened.close()
            throw RuntimeError("'\(path)' is a directory; give an NMEA file, or '-' for standard input")
        }
        fd = opened
        ownsDescriptor = true
    }

    /// The file's size in bytes when it is a regular plain file, for progress reporting; `nil` for a compressed one
    /// (whose plain size is unknown until it has been read: its progress counts plain bytes).
    var size: Int? {
        guard network == nil, let status = try? fd.status(), status.kind == .regular else { return nil }
        var magic: (UInt32) = 0
        let count = withUnsafeMutableBytes(of: &magic) { (try? fd.read(fromAbsoluteOffset: 0, into: $0)) ?? 0 }
        let format = withUnsafeBytes(of: magic) {
            CompressionFormat(prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(count)))
        }
        return format == .none ? status.size : nil
    }

    /// Calls `body` with each chunk until the end of the file; a gzip or Zstandard file (told by its first bytes,
    /// not its name) is decompressed as it streams, and `body` sees the plain bytes.
    /// - Throws: ``RuntimeError`` when a read fails or compressed data ends early or is damaged (after `body` has
    ///   seen every byte before the damage), or what `body` throws.
    func forEachChunk(
        bufferSize: Int = 256 * 1024, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if let network { return try network.forEachChunk(bufferSize: bufferSize, body) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        // Compressed input goes to the decompressor a piece at a time, so it is read in pieces that fit it.
        let rawSize = min(bufferSize, StreamDecompressor.inputCapacity)
        let first = try read(into: UnsafeMutableRawBufferPointer(start: buffer, count: rawSize))
        if first == 0 { return }
        let format = CompressionFormat(prefix: UnsafeRawBufferPointer(start: buffer, count: first))
        guard format != .none else {
            try body(UnsafeRawBufferPointer(start: buffer, count: first))
            while true {
                let count = try read(into: UnsafeMutableRawBufferPointer(start: buffer, count: bufferSize))
                if count == 0 { return }
                try body(UnsafeRawBufferPointer(start: buffer, count: count))
            }
        }
        let decompressor = StreamDecompressor(format)
        decompressor.supply(UnsafeRawBufferPointer(start: buffer, count: first))
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { output.deallocate() }
        while true {
            let produced = try decompressed { () throws(DecompressionError) in try decompressor.decompress(into: output)
            }
            if produced > 0 {
                try body(UnsafeRawBufferPointer(rebasing: output[..<produced]))
                continue
            }
            let count = try read(into: UnsafeMutableRawBufferPointer(start: buffer, count: rawSize))
            if count == 0 { break }
            decompressor.supply(UnsafeRawBufferPointer(start: buffer, count: count))
        }
        try decompressed { () throws(DecompressionError) in try decompressor.finish() }
    }

    /// `step`'s result, its ``DecompressionError`` as a ``RuntimeError`` naming the file.
    private func decompressed<T>(_ step: () throws(DecompressionError) -> T) throws(RuntimeError) -> T {
        do {
            return try step()
        } catch {
            throw RuntimeError("cannot read '\(name)': \(error)")
        }
    }

    /// One `read(2)`: the bytes read, 0 at the end.
    /// - Throws: ``RuntimeError`` naming the file and the reason.
    private func read(into buffer: UnsafeMutableRawBufferPointer) throws(RuntimeError) -> Int {
        do {
            return try fd.read(into: buffer)
        } catch {
            throw RuntimeError("cannot read '\(name)': \(error)")
        }
    }

    func close() {
        if ownsDescriptor { try? fd.close() }
    }
}
