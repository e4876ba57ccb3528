import Glibc

/// A file that could not be read or written, with the path and the reason (`strerror`).
public struct FileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, errno code: Int32) {
        self.init(path: path, reason: String(cString: strerror(code)))
    }

    public var description: String { "\(path): \(reason)" }
}

/// The few file operations the module needs, over Glibc (no Foundation, so the tool stays small and starts fast).
enum FileSystem {
    /// The whole file.
    /// - Throws: ``FileError`` when it cannot be opened or read, or is larger than `limit` bytes.
    static func read(_ path: String, limit: Int = 256 << 20) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileError(path: path, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileError(path: path, reason: "not a regular file") }
        guard Int(info.st_size) <= limit else { throw FileError(path: path, reason: "larger than \(limit) bytes") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        var failure: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            while count < buffer.count {
                let got = Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { break }
                count += got
            }
        }
        if failure != 0 { throw FileError(path: path, errno: failure) }
        if count < bytes.count { bytes.removeSubrange(count...) }
        return bytes
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a reader sees the old file or
    /// the new one, never half of one.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(FileError) {
        let temporary = "\(path).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileError(path: temporary, errno: errno) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw FileError(path: path, errno: failure)
        }
    }

    /// Creates `path` and its missing parents (`mkdir -p`).
    static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(FileError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, mode) != 0 && errno != EEXIST { throw FileError(path: prefix, errno: errno) }
            prefix += "/"
        }
        guard isDirectory(path) else { throw FileError(path: path, reason: "not a directory") }
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// An environment variable, `nil` when unset or empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// The running program's own path, symbolic links resolved (`/proc/self/exe`).
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The directory part of a path: `/a/b` for `/a/b/c`.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
