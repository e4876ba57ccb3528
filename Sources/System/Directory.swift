import Glibc

/// Directories: listing one, creating a path and its missing parents, removing a tree.
public enum Directory {
    /// The names in the directory at `path`, without `.` and `..`, in the order `readdir(3)` gives them; empty when
    /// it cannot be read.
    public static func entries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes `path` and, when it is a directory, everything below it (`unlink(2)`, `rmdir(2)`; symbolic links are
    /// removed, never followed). What cannot be removed is left.
    public static func removeTree(_ path: String) {
        if (try? FileStatus(path: path, followingSymbolicLinks: false))?.kind == .directory {
            for name in entries(path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// A directory on the way to a path could not be created.
    public struct CreationError: Error, ErrnoCarrying, Sendable, Hashable, CustomStringConvertible {
        /// The directory that could not be created (a prefix of the path asked for, or the path itself).
        public var path: String
        public var errno: Errno?

        public init(path: String, errno: Errno?) {
            self.path = path
            self.errno = errno
        }

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
