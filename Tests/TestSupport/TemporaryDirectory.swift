import Glibc
import System
import Threading

/// A fresh directory under `$TMPDIR` (or `/tmp`) for one test: removed, with everything in it, by ``remove()`` or
/// when the test process exits, whichever comes first.
///
///     let directory = TemporaryDirectory()           // /tmp/nmea-theTestsName-Ab12Cd
///     let track = directory.file("track.gpx")
public struct TemporaryDirectory: Sendable, CustomStringConvertible {
    /// The directory's absolute path.
    public let path: String

    /// Makes the directory (`mkdtemp(3)`), its name from `label` (the calling function's name by default).
    public init(_ label: String = #function) {
        let base = Environment.value("TMPDIR") ?? "/tmp"
        let clean = String(label.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(40))
        var template = Array("\(base)/nmea-\(clean)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: \(Errno.current)")
        path = String(cString: made!)
        Self.registry.withLock { paths in
            if paths.isEmpty { atexit { TemporaryDirectory.removeAllAtExit() } }
            paths.insert(path)
        }
    }

    public var description: String { path }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to the file `name` (replacing it).
    public func write(_ text: String, to name: String) {
        write(Array(text.utf8), to: name)
    }

    /// Writes `bytes` to the file `name` (replacing it).
    public func write(_ bytes: [UInt8], to name: String) {
        do {
            let descriptor = try FileDescriptor.open(
                file(name), .writeOnly, options: [.create, .truncate, .closeOnExec])
            defer { try? descriptor.close() }
            try descriptor.writeAll(bytes)
        } catch {
            preconditionFailure("cannot write \(file(name)): \(error)")
        }
    }

    /// The text of the file `name`, or `nil` when it cannot be read.
    public func read(_ name: String) -> String? {
        readFile(file(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Removes the directory and everything in it now.
    public func remove() {
        Directory.removeTree(path)
        _ = Self.registry.withLock { $0.remove(path) }
    }

    private static let registry = Locked<Set<String>>([])

    private static func removeAllAtExit() {
        for path in registry.withLock({ $0 }) { Directory.removeTree(path) }
    }
}
