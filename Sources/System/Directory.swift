import Glibc

/// Directories: creating a path and its missing parents.
public enum Directory {
    /// A directory on the way to a path could not be created.
    public struct CreationError: Error, ErrnoCarrying, Sendable, Hashable, CustomStringConvertible {
        /// The directory that could not be created (a prefix of the path asked for, or the path itself).
        public var path: String
        public var errno: Errno?

        /// `cannot create 'a/b': Permission denied`.
        public var description: String { "cannot create '\(path)': \(errno?.description ?? "failed")" }
    }

    /// Creates `path` and whichever of its parents are missing, like `mkdir -p` (`mkdir(2)` for each component;
    /// one that exists already is fine). New directories get `permissions` (before the umask).
    /// - Throws: ``CreationError`` naming the component that failed.
    public static func create(
        _ path: String, permissions: FileDescriptor.FilePermissions = .standardDirectory
    ) throws(CreationError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, permissions.rawValue) != 0 && Errno.current != .fileExists {
                throw CreationError(path: prefix, errno: .current)
            }
            prefix += "/"
        }
    }
}
