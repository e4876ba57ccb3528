import Glibc

/// Thin wrappers over the system calls the track files use: each retries `EINTR` and short transfers, and returns
/// the `errno` of a failure instead of throwing, so the caller decides what the failure means for the document.
enum FileDescriptorIO {
    /// Writes all of `bytes` at `offset` (`pwrite(2)`), or at the current position when `offset` is `nil`
    /// (`write(2)`, for pipes and devices).
    /// - Returns: `nil` on success, else the `errno` of the failing call (some bytes may have been written).
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int?) -> Int32? {
        guard var base = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        var position = offset ?? 0
        while remaining > 0 {
            let written = offset == nil
                ? Glibc.write(fd, base, remaining) : pwrite(fd, base, remaining, off_t(position))
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            base += written
            remaining -= written
            position += written
        }
        return nil
    }

    /// `write(_:_:at:)` for an array.
    static func write(_ fd: Int32, _ bytes: [UInt8], at offset: Int?) -> Int32? {
        bytes.withUnsafeBytes { write(fd, $0, at: offset) }
    }

    /// `fdatasync(2)`: the file's data (and the size) reach the disk before this returns.
    static func sync(_ fd: Int32) -> Int32? {
        while fdatasync(fd) != 0 {
            if errno == EINTR { continue }
            return errno
        }
        return nil
    }

    /// `ftruncate(2)`.
    static func truncate(_ fd: Int32, to length: Int) -> Int32? {
        while ftruncate(fd, off_t(length)) != 0 {
            if errno == EINTR { continue }
            return errno
        }
        return nil
    }

    /// `open(2)` for writing, creating or emptying the file.
    static func create(_ path: String) -> Result<Int32, TrackErrno> {
        while true {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if fd >= 0 { return .success(fd) }
            if errno == EINTR { continue }
            return .failure(TrackErrno(code: errno))
        }
    }

    /// Opens a new temporary file beside `path` for a document that appears at `path` only once it is complete
    /// (see ``publish(_:as:)``). Returns `nil` when `path` is something other than a regular file or a new name
    /// (a device, a FIFO, a symbolic link): such paths are opened in place by ``create(_:)``.
    static func createTemporary(beside path: String) -> Result<(fd: Int32, path: String), TrackErrno>? {
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG { return nil }
        let temporary = "\(path).partial-\(getpid())"
        while true {
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if fd >= 0 { return .success((fd, temporary)) }
            if errno == EINTR { continue }
            return .failure(TrackErrno(code: errno))
        }
    }

    /// `rename(2)`: puts the complete first document in place of whatever `path` held, in one step.
    static func publish(_ temporary: String, as path: String) -> Int32? {
        rename(temporary, path) == 0 ? nil : errno
    }

    /// `true` when `fd` is a regular file (so it can be rewritten in place); pipes, terminals and devices are not.
    static func isRegularFile(_ fd: Int32) -> Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}

/// An `errno` as an `Error`, for `Result`.
struct TrackErrno: Error {
    var code: Int32
}
