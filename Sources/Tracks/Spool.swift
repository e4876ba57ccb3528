import Glibc
import System

/// Bytes set aside to be written later, in constant memory: kept in a buffer up to ``memoryBytes``, and beyond that
/// in a file beside the output that has no name (created, then unlinked at once, so nothing is left behind whatever
/// ends the process). A GeoJSON line's `coordTimes` come after its coordinates: they wait here.
///
/// - Complexity: ``append(_:)`` is O(bytes) amortised; ``drain(_:)`` reads the file back in 1 MiB pieces.
final class Spool {
    /// The directory the file goes in (the output's, so it is on the same disk).
    let directory: String
    let memoryBytes: Int
    private var buffer: [UInt8] = []
    private var file: FileDescriptor?
    private var fileBytes = 0

    init(directory: String, memoryBytes: Int = 1 << 20) {
        self.directory = directory
        self.memoryBytes = memoryBytes
    }

    deinit { try? file?.close() }

    /// The directory beside `path` (`.` for a bare name); the temporary directory for a stream (`-` or `<stdout>`).
    static func directory(beside path: String) -> String {
        if path == "-" || path.hasPrefix("<") {
            return getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    var isEmpty: Bool { buffer.isEmpty && fileBytes == 0 }

    /// A new file in `directory` that has no name: created, then unlinked at once, so that nothing is left behind
    /// whatever ends the process. `tag` tells apart the files of one process.
    static func anonymousFile(in directory: String, tag: Int) throws(Errno) -> FileDescriptor {
        let path = directory + "/.nmea-spool-\(getpid())-\(UInt(bitPattern: tag))"
        let opened = try FileDescriptor.open(
            path, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec], permissions: .standardFile)
        unlink(path)
        return opened
    }

    /// Sets `bytes` aside.
    /// - Throws: `Errno` when the file cannot be created or written (a full disk).
    func append(_ bytes: some Collection<UInt8>) throws(Errno) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= memoryBytes { try spill() }
    }

    /// Hands everything set aside to `body`, in order and in pieces, then forgets it.
    func drain(_ body: (ArraySlice<UInt8>) throws(TrackError) -> Void) throws(TrackError) {
        defer { reset() }
        if let file, fileBytes > 0 {
            var piece = [UInt8](repeating: 0, count: 1 << 20)
            var offset = 0
            while offset < fileBytes {
                let wanted = min(piece.count, fileBytes - offset)
                let result = piece.withUnsafeMutableBytes { bytes in
                    Result { () throws(Errno) in
                        try file.readAll(
                            into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<wanted]), fromAbsoluteOffset: offset)
                    }
                }
                let count: Int
                switch result {
                case .success(let read): count = read
                case .failure(let error):
                    throw TrackError(path: directory, operation: .write, code: error.rawValue, fileIsIntact: false)
                }
                guard count > 0 else { break }
                try body(piece[..<count])
                offset += count
            }
        }
        if !buffer.isEmpty { try body(buffer[...]) }
    }

    /// Forgets everything set aside, keeping the file (emptied) for the next use.
    func reset() {
        buffer.removeAll(keepingCapacity: true)
        if fileBytes > 0 {
            try? file?.resize(to: 0)
            fileBytes = 0
        }
    }

    /// Moves the buffer to the end of the file.
    private func spill() throws(Errno) {
        if file == nil { file = try Self.anonymousFile(in: directory, tag: ObjectIdentifier(self).hashValue) }
        try file!.writeAll(buffer, toAbsoluteOffset: fileBytes)
        fileBytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}
