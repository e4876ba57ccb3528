import Glibc
import System

/// Files told apart by what they are, not by their names: `st_dev` and `st_ino` (following symbolic links), so that
/// `c.nmea`, `./c.nmea`, a symbolic link to it and a hard link of it are all one file.
struct FileIdentity: Hashable {
    let device: UInt
    let inode: UInt

    /// The identity of the regular file at `path` (standard input or output for `-`, as `dash` says); `nil` when it
    /// does not exist or is not a regular file (a device or pipe named twice destroys nothing).
    init?(_ path: String, dash: FileDescriptor = .standardInput) {
        let status = path == "-" ? try? dash.status() : try? FileStatus(path: path)
        guard let status, status.kind == .regular else { return nil }
        device = status.fileSystemDevice
        inode = status.inode
    }

    /// Where `path` names a file, told by its resolved directory and its name, whether or not it exists yet:
    /// `z.gpx`, `./z.gpx` and `out/../z.gpx` are one place. The directory is resolved with `realpath(3)` (links
    /// followed) when it exists, else made absolute and its `.` and `..` taken out as written. `-` stays `-`.
    static func place(_ path: String) -> String {
        guard path != "-" else { return path }
        let slash = path.lastIndex(of: "/")
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var directory = slash.map { String(path[..<$0]) } ?? "."
        if directory.isEmpty { directory = "/" }
        if let resolved = realpath(directory, nil) {
            defer { free(resolved) }
            return String(cString: resolved) + "/" + name
        }
        var absolute = directory
        if !absolute.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            absolute = String(cString: cwd) + "/" + absolute
            free(cwd)
        }
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/") + "/" + name
    }

    /// Refuses, before anything is opened for writing, an output that is the same file as an input or as another
    /// output: writing it would destroy the input, or two writers would fight over one file.
    /// - Throws: ``UsageError`` (exit 64) naming both.
    static func refuseOverlaps(inputs: [String], outputs: [String], _ arguments: ParsedArguments) throws(UsageError) {
        var seen: [(identity: FileIdentity, path: String, isInput: Bool)] = []
        for input in inputs {
            if let identity = FileIdentity(input) { seen.append((identity, input, true)) }
        }
        for output in outputs {
            guard let identity = FileIdentity(output, dash: .standardOutput) else { continue }
            if let earlier = seen.first(where: { $0.identity == identity }) {
                let name = output == "-" ? "'-' (standard output)" : "'\(output)'"
                let other = earlier.path == "-" ? "'-' (standard input)" : "'\(earlier.path)'"
                throw arguments.usageError(
                    earlier.isInput
                        ? "The output \(name) is the same file as the input \(other): writing it would destroy the input"
                        : "The outputs \(other) and \(name) are the same file")
            }
            seen.append((identity, output, false))
        }
    }
}
