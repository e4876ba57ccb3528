import Glibc
import System

/// A password given in a file (`--mqtt-password-file`, `--ntrip-password-file`), never on the command line, where
/// every user of the machine can read it (`ps`, `/proc/PID/cmdline`).
enum PasswordFile {
    /// The file's text without its trailing line break.
    static func read(_ path: String) throws -> String {
        var bytes: [UInt8] = []
        do {
            let file = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
            defer { try? file.close() }
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = try chunk.withUnsafeMutableBytes { buffer throws(Errno) in try file.read(into: buffer) }
                if count == 0 { break }
                bytes += chunk[..<count]
                guard bytes.count <= 65_536 else { throw RuntimeError("the password file '\(path)' is too large") }
            }
        } catch let error as Errno {
            throw RuntimeError("cannot read the password file '\(path)': \(error)")
        }
        while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { bytes.removeLast() }
        guard !bytes.isEmpty else { throw RuntimeError("the password file '\(path)' is empty") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of environment variable `name`, when set and not empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(cString: value)
    }
}
