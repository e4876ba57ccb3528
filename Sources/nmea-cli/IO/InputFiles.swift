import Glibc

/// Reads files (or standard input for `-`) in large chunks, without loading them whole.
struct InputFile {
    /// The name to show in messages: the path, or `<stdin>`.
    let name: String
    let fd: Int32
    private let ownsDescriptor: Bool

    /// Opens `path` for reading (`-` is standard input).
    /// - Throws: ``RuntimeError`` naming the file and the reason.
    init(path: String) throws(RuntimeError) {
        if path == "-" {
            name = "<stdin>"
            fd = STDIN_FILENO
            ownsDescriptor = false
            return
        }
        name = path
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            throw RuntimeError("cannot open '\(path)': \(systemErrorMessage(errno))")
        }
        var info = stat()
        if fstat(opened, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            Glibc.close(opened)
            throw RuntimeError("'\(path)' is a directory; give an NMEA file, or '-' for standard input")
        }
        fd = opened
        ownsDescriptor = true
    }

    /// The file's size in bytes when it is a regular file, for progress reporting.
    var size: Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Calls `body` with each chunk until the end of the file.
    /// - Throws: ``RuntimeError`` when a read fails, or what `body` throws.
    func forEachChunk(
        bufferSize: Int = 256 * 1024, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, bufferSize)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw RuntimeError("cannot read '\(name)': \(systemErrorMessage(errno))")
            }
            try body(UnsafeRawBufferPointer(start: buffer, count: count))
        }
    }

    func close() {
        if ownsDescriptor { Glibc.close(fd) }
    }
}

/// `strerror(code)` as a `String`.
func systemErrorMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}
