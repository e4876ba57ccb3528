import System

/// A track file could not be created, written, synced or closed.
///
/// The message names the file and the system's reason, and says what the file still holds: a failed flush leaves the
/// document as it was after the last successful one, so a disk that fills up costs the fixes since then, not the file.
public struct TrackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done when the system call failed.
    public enum Operation: String, Sendable, Hashable {
        case create, write, sync, truncate
        /// Opening a document written before to continue it (``GPXWriter/init(continuing:options:creator:)``);
        /// `EINVAL` means the file is not a complete document as the writer leaves it.
        case reopen
    }

    /// The file's path as given (`-` or a name for a stream).
    public var path: String
    public var operation: Operation
    /// The `errno` the system call set.
    public var code: Int32
    /// `true` when the last successful flush is still a complete document on disk.
    public var fileIsIntact: Bool

    public init(path: String, operation: Operation, code: Int32, fileIsIntact: Bool) {
        self.path = path
        self.operation = operation
        self.code = code
        self.fileIsIntact = fileIsIntact
    }

    /// `true` for `ENOSPC` and `EDQUOT`: the disk or the user's quota is full.
    public var isNoSpace: Bool { [Errno.noSpace, .quotaExceeded].contains(Errno(rawValue: code)) }

    /// `cannot write 'track.gpx': No space left on device; the file holds every fix up to the last flush`, for a
    /// file in place at its path (live).
    public var description: String { description(fileIsInPlace: true) }

    /// The message, saying what the path holds: for a file in place (live), the document up to its last flush; for
    /// one not yet in place (a batch output, written beside its path), what the path held before.
    public func description(fileIsInPlace: Bool) -> String {
        if operation == .reopen {
            let reason =
                code == Errno.invalidArgument.rawValue
                ? "it is not a complete document as this writer leaves it (damaged, or written by another program)"
                : Errno(rawValue: code).description
            return "cannot continue '\(path)': \(reason)"
        }
        var text = "cannot \(operation.rawValue) '\(path)': \(Errno(rawValue: code))"
        if operation == .create {
            return text
        } else if !fileIsInPlace {
            text += "; '\(path)' was not replaced and holds what it held before"
        } else {
            text +=
                fileIsIntact
                ? "; the file is a complete document holding every fix up to the last flush"
                : "; the output is incomplete"
        }
        return text
    }
}
