import System

/// Writes `bytes` to `path` (or standard output for `-`).
/// - Throws: ``RuntimeError`` naming the file and the reason.
func writeOutput(_ bytes: [UInt8], to path: String) throws(RuntimeError) {
    let output: OutputBuffer
    if path == "-" {
        output = Console.standardOutput
    } else {
        do {
            output = OutputBuffer(fd: try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate]))
        } catch {
            throw RuntimeError("cannot create '\(path)': \(error)")
        }
    }
    bytes.withUnsafeBytes { output.write($0) }
    output.flush()
    if let failure = output.failure {
        throw RuntimeError("cannot write '\(path)': \(failure)")
    }
    if path != "-" { try? output.fd.close() }
}
