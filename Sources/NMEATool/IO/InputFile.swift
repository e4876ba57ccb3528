import System

/// Reads files (or standard input for `-`, or a network source: ``NetworkInput``) in large chunks, without loading
/// them whole.
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

    /// The file's size in bytes when it is a regular file, for progress reporting.
    var size: Int? {
        guard network == nil, let status = try? fd.status(), status.kind == .regular else { return nil }
        return status.size
    }

    /// Calls `body` with each chunk until the end of the file.
    /// - Throws: ``RuntimeError`` when a read fails, or what `body` throws.
    func forEachChunk(
        bufferSize: Int = 256 * 1024, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if let network { return try network.forEachChunk(bufferSize: bufferSize, body) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try read(into: UnsafeMutableRawBufferPointer(start: buffer, count: bufferSize))
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(start: buffer, count: count))
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
