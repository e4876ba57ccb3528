import Glibc
import System

/// Every name created in (or moved into) a directory from the moment the watch starts, with `inotify(7)`: a test
/// that must show a program never made a file (not in a moment it happened to look, but at any time) reads the
/// whole history at the end, files made and removed again included.
///
///     let watch = try DirectoryWatch(logs)
///     … run the program …
///     #expect(watch.createdNames().allSatisfy { $0.hasPrefix("2025-06-30") })
public final class DirectoryWatch {
    public let path: String
    private let descriptor: FileDescriptor
    private var names: [String] = []

    /// Starts watching `path` (which must exist) for `IN_CREATE` and `IN_MOVED_TO`.
    public init(_ path: String) throws(Errno) {
        self.path = path
        let raw = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard raw >= 0 else { throw Errno.current }
        descriptor = FileDescriptor(rawValue: raw)
        guard inotify_add_watch(raw, path, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
            let error = Errno.current
            try? descriptor.close()
            throw error
        }
    }

    deinit { try? descriptor.close() }

    /// The names created in the directory so far, in order, each time it happened (a name made twice is listed
    /// twice). Reads what the kernel has queued; an overflowing queue (more than `max_queued_events`, 16,384 by
    /// default) is a precondition failure rather than a silent gap.
    public func createdNames() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { (try? descriptor.read(into: $0)) ?? 0 }
            if count <= 0 { break }
            var offset = 0
            // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len] (NUL-padded).
            while offset + 16 <= count {
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(
                    buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                precondition(mask & UInt32(IN_Q_OVERFLOW) == 0, "inotify's queue overflowed: events were lost")
                let name = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                if !name.isEmpty { names.append(String(decoding: name, as: UTF8.self)) }
                offset += 16 + length
            }
        }
        return names
    }
}
