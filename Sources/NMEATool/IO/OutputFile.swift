import System

/// Writes `bytes` to `path` (or standard output for `-`); see ``writeOutput(to:_:)``.
func writeOutput(_ bytes: [UInt8], to path: String) throws {
    try writeOutput(to: path) { output in bytes.withUnsafeBytes { output.write($0) } }
}

/// Streams what `body` writes to `path` (or standard output for `-`): a file goes through a ``ReplacingFile``, so
/// `path` holds the old content until everything is written, then the new, never an empty or half-written file; a
/// failure, or a signal that ends the process, leaves the old file as it was and no temporary file behind.
/// - Throws: ``RuntimeError`` naming the file and the reason, or what `body` throws (the old file is then as it was).
func writeOutput(to path: String, _ body: (OutputBuffer) throws -> Void) throws {
    guard path != "-" else {
        let output = Console.standardOutput
        try body(output)
        output.flush()
        if let failure = output.failure { throw RuntimeError("cannot write to standard output: \(failure)") }
        return
    }
    let file: ReplacingFile
    do {
        file = try ReplacingFile(path: path)
    } catch {
        throw RuntimeError("cannot create '\(path)': \(error)")
    }
    defer { file.close() }
    let output = OutputBuffer(fd: file.descriptor, capacity: 1 << 20)
    do {
        try body(output)
    } catch {
        file.discard()
        throw error
    }
    output.flush()
    do throws(Errno) {
        if let failure = output.failure { throw failure }
        try file.commit()
    } catch {
        file.discard()
        throw RuntimeError("cannot write '\(path)': \(error)")
    }
}
