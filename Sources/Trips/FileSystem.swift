import Glibc
import System

/// A file that could not be read or written, with the path and the reason (`strerror`).
public struct FileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, errno code: Int32) {
        self.init(path: path, reason: Errno(rawValue: code).description)
    }

    public var description: String { "\(path): \(reason)" }
}

/// The few file operations the module needs, over Glibc (no Foundation, so the tool stays small and starts fast).
enum FileSystem {
    /// The whole file.
    /// - Throws: ``FileError`` when it cannot be opened or read, or is larger than `limit` bytes.
    static func read(_ path: String, limit: Int = 256 << 20) throws(FileError) -> [UInt8] {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw FileError(path: path, errno: error.rawValue)
        }
        defer { try? fd.close() }
        let info: FileStatus
        do {
            info = try fd.status()
        } catch {
            throw FileError(path: path, errno: error.rawValue)
        }
        guard info.kind == .regular else { throw FileError(path: path, reason: "not a regular file") }
        guard info.size <= limit else { throw FileError(path: path, reason: "larger than \(limit) bytes") }
        var bytes = [UInt8](repeating: 0, count: info.size)
        let count = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try fd.readAll(into: buffer) }
        }
        switch count {
        case .success(let count):
            if count < bytes.count { bytes.removeSubrange(count...) }
            return bytes
        case .failure(let error):
            throw FileError(path: path, errno: error.rawValue)
        }
    }

    /// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a reader sees the old file or
    /// the new one, never half of one.
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(FileError) {
        let file: ReplacingFile
        do {
            file = try ReplacingFile(path: path, permissions: FileDescriptor.FilePermissions(rawValue: mode))
        } catch {
            throw FileError(path: path, errno: error.rawValue)
        }
        defer { file.close() }
        do throws(Errno) {
            try file.descriptor.writeAll(bytes)
            try file.descriptor.synchronize()
            try file.commit()
        } catch {
            file.discard()
            throw FileError(path: path, errno: error.rawValue)
        }
    }

    /// Creates `path` and its missing parents (`mkdir -p`).
    static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws(FileError) {
        do {
            try Directory.create(path, permissions: FileDescriptor.FilePermissions(rawValue: mode))
        } catch {
            throw FileError(path: error.path, errno: error.errno?.rawValue ?? EIO)
        }
        guard isDirectory(path) else { throw FileError(path: path, reason: "not a directory") }
    }

    static func isDirectory(_ path: String) -> Bool {
        (try? FileStatus(path: path))?.kind == .directory
    }

    static func isRegularFile(_ path: String) -> Bool {
        (try? FileStatus(path: path))?.kind == .regular
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
