import Glibc

/// Writes `bytes` to `path` (or standard output for `-`).
/// - Throws: ``RuntimeError`` naming the file and the reason.
func writeOutput(_ bytes: [UInt8], to path: String) throws(RuntimeError) {
    let output: OutputBuffer
    if path == "-" {
        output = Console.standardOutput
    } else {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RuntimeError("cannot create '\(path)': \(systemErrorMessage(errno))") }
        output = OutputBuffer(fd: fd)
    }
    bytes.withUnsafeBytes { output.write($0) }
    output.flush()
    if let failure = output.failure {
        throw RuntimeError("cannot write '\(path)': \(systemErrorMessage(failure))")
    }
    if path != "-" { close(output.fd) }
}
