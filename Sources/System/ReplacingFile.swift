import CShims
import Glibc

/// An output file that replaces its path only when told: the content is written to a temporary file beside it
/// (`dir/.name.partial-PID`), and ``commit()`` renames that over the path in one step (`rename(2)`). Until then the
/// path keeps what it held, byte for byte, or stays absent; ``discard()``, deinitialisation without a commit and a
/// fatal signal (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXFSZ left at their default action) remove the
/// temporary file. The descriptor stays open across the commit, so a writer can keep writing to the file in place.
///
/// Every command that writes a file goes through this one type:
///
///     let file = try ReplacingFile(path: "track.svg")
///     try file.descriptor.writeAll(bytes)
///     try file.commit()
///     file.close()
///
/// A path that is a device, a FIFO or a socket (`/dev/null`, `/dev/stdout`, a named pipe) is written in place:
/// there is nothing to replace, and ``commit()`` does nothing. A symbolic link is followed: the file it points to is
/// replaced, and the link stays (a dangling link is written through, in place). A replaced file keeps its
/// permission bits.
public final class ReplacingFile {
    /// The path asked for.
    public let path: String
    /// The open file: the temporary one until ``commit()``, then the file at its path.
    public let descriptor: FileDescriptor
    /// Where the content is until ``commit()``; `nil` when written in place or once committed or discarded.
    public private(set) var temporaryPath: String?
    /// The file the commit replaces (``path``, or what its symbolic link points to).
    private let target: String
    /// The signal handler's registration of ``temporaryPath`` (`-1`: none).
    private var slot: Int32 = -1
    /// Directories this file's creation made, deepest last, removed again by ``discard()`` when empty.
    private var createdDirectories: [String] = []
    private var isOpen = true

    /// Creates the temporary file beside `path` (or opens a device or FIFO in place). Directories missing on the way
    /// to `path` are created first (as `mkdir -p`), and removed again, when still empty, if the file is discarded:
    /// every command creates the folders its outputs name, and a failed one leaves none behind.
    /// - Parameter permissions: the new file's; `nil` keeps those of the file replaced (new files: `0o666` less the
    ///   umask).
    /// - Parameter variant: told apart from another temporary file of the same path in the same process
    ///   (`.name.partial-PID-variant`): a copy made of a document not yet in place.
    /// - Throws: `Errno` from `open(2)` or `mkdir(2)`.
    public init(
        path: String, options: FileDescriptor.OpenOptions = [.closeOnExec],
        permissions: FileDescriptor.FilePermissions? = nil, variant: String? = nil
    ) throws(Errno) {
        self.path = path
        let link = try? FileStatus(path: path, followingSymbolicLinks: false)
        let status = try? FileStatus(path: path)
        let inPlace = link != nil && (status.map { $0.kind != .regular } ?? true)
        if inPlace {
            target = path
            descriptor = try FileDescriptor.open(path, .writeOnly, options: options.union([.create, .truncate]))
            return
        }
        target = link?.kind == .symbolicLink ? Self.resolved(path) ?? path : path
        if link == nil { createdDirectories = try Self.createParents(of: target) }
        let temporary = Self.temporaryPath(for: target) + (variant.map { "-" + $0 } ?? "")
        unlink(temporary)  // a leftover of a process that had our PID and was killed
        Self.removeLeftovers(of: target)
        // Registered, and the handlers in place, before the file exists: a signal at any moment finds it listed.
        let slot = nmea_pending_add(temporary)
        nmea_pending_install_handlers()
        do throws(Errno) {
            descriptor = try FileDescriptor.open(
                temporary, .writeOnly, options: options.union([.create, .exclusiveCreate]),
                permissions: permissions ?? .standardFile)
        } catch {
            nmea_pending_remove(slot)
            for directory in createdDirectories.reversed() where rmdir(directory) != 0 { break }
            throw error
        }
        temporaryPath = temporary
        self.slot = slot
        if permissions == nil, let status { fchmod(descriptor.rawValue, mode_t(status.permissions)) }
    }

    deinit {
        discard()
        close()
    }

    /// `true` once the content is at ``path`` (always for a file written in place).
    public var isCommitted: Bool { temporaryPath == nil }

    /// Puts the temporary file in place of the path: `rename(2)`. Does nothing when already done or in place.
    /// - Throws: `Errno` from `rename(2)`; the temporary file is still there (``discard()`` removes it).
    public func commit() throws(Errno) {
        guard let temporaryPath else { return }
        if rename(temporaryPath, target) != 0 { throw Errno.current }
        forget()
        createdDirectories = []
    }

    /// Removes the temporary file of an uncommitted output: the path keeps what it held. Does nothing after a commit.
    public func discard() {
        guard let temporaryPath else { return }
        unlink(temporaryPath)
        forget()
        removeCreatedDirectories()
    }

    /// Closes the descriptor (once); an uncommitted temporary file stays until ``discard()`` or deinitialisation.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        try? descriptor.close()
    }

    /// Creates the directories missing on the way to `path`; returns those it created, outermost first.
    private static func createParents(of path: String) throws(Errno) -> [String] {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return [] }
        let directory = String(path[..<slash])
        var missing: [String] = []
        var candidate = directory
        while !candidate.isEmpty, (try? FileStatus(path: candidate)) == nil {
            missing.append(candidate)
            guard let up = candidate.lastIndex(of: "/"), up != candidate.startIndex else { break }
            candidate = String(candidate[..<up])
        }
        var created: [String] = []
        for directory in missing.reversed() {
            if mkdir(directory, 0o777) != 0 && Errno.current != .fileExists {
                let failure = Errno.current
                for made in created.reversed() { rmdir(made) }
                throw failure
            }
            created.append(directory)
        }
        return created
    }

    private func removeCreatedDirectories() {
        for directory in createdDirectories.reversed() where rmdir(directory) != 0 { break }
        createdDirectories = []
    }

    private func forget() {
        temporaryPath = nil
        nmea_pending_remove(slot)
        slot = -1
    }

    /// Removes every temporary file not yet committed, from a signal handler about to end the process (the command's
    /// own stop handler, on its `_exit` path). Async-signal-safe.
    public static func removeAllPending() { nmea_pending_unlink_all() }

    /// Removes the temporary files of `path` that processes no longer running left (killed by SIGKILL or a power
    /// cut, which no handler sees): `dir/.name.partial-PID…` whose PID is gone.
    static func removeLeftovers(of path: String) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let prefix = "." + (slash.map { String(path[path.index(after: $0)...]) } ?? path) + ".partial-"
        for name in Directory.entries(directory.isEmpty ? "." : directory) where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
            guard let pid = pid_t(digits), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && Errno.current == .noSuchProcess { unlink(directory + name) }
        }
    }

    /// `dir/.name.partial-PID` for `dir/name`.
    static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return directory + "." + name + ".partial-\(getpid())"
    }

    /// What the symbolic link at `path` finally points to: `realpath(3)`, `nil` when it cannot be resolved.
    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
