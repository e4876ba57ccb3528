import Fleet

#if canImport(Glibc)
    import Glibc
#endif

/// Disk-queue recovery: the input becomes a queue directory left by a crash or a damaged disk, which `DiskQueue`
/// opens; every entry it recovers is read, one more is appended, and a second opening must find the same entries
/// plus that one, with no torn tail left to cut.
///
/// The input: a flags byte, a head byte, then the bytes of 1 to 3 segment files (split evenly).
/// - flags bits 0-1: segments (1 + value % 3); bit 2: give each segment the `NMEAQ01\n` header; bit 3: repair
///   each record's sequence and CRC as the walk by lengths finds them (so that valid records are easy to reach);
///   bit 4: write a valid `head` file acknowledging up to the head byte, else write the head byte's 16 copies.
func fuzzDiskQueue(_ input: UnsafeRawBufferPointer) {
    let bytes = Array(input)
    let flags = bytes.first ?? 0
    let headByte = bytes.count > 1 ? bytes[1] : 0
    let body = Array(bytes.dropFirst(2))
    let segmentCount = 1 + Int(flags & 3) % 3
    clearQueueDirectory()

    var first: UInt64 = 1
    for index in 0..<segmentCount {
        let start = body.count * index / segmentCount
        var segment = Array(body[start..<(body.count * (index + 1) / segmentCount)])
        if flags & 4 != 0 { segment = queueSegmentMagic + segment }
        let records = flags & 8 != 0 ? repairRecords(&segment, first: first) : 1
        writeFile(queueDirectory + "/" + segmentName(first), segment)
        first += max(records, 1)
    }
    if flags & 16 != 0 {
        var head = Array("NQHD".utf8)
        appendLittleEndian(UInt64(headByte), to: &head)
        appendLittleEndian(UInt64(crc32(head)), count: 4, to: &head)
        writeFile(queueDirectory + "/head", head)
    } else {
        writeFile(queueDirectory + "/head", [UInt8](repeating: headByte, count: 16))
    }

    let entries: [QueueEntry]
    let pending: Int
    do {
        let queue = try DiskQueue(directory: queueDirectory)
        entries = readAll(queue)
        let statistics = queue.statistics
        require(statistics.recovered == entries.count, "diskqueue: recovered \(statistics.recovered) != read")
        require(statistics.pending == entries.count, "diskqueue: pending \(statistics.pending) != read")
        // Increasing from the head, below the next sequence; a damaged older segment leaves a gap.
        var previous = queue.head
        for (offset, entry) in entries.enumerated() {
            require(offset == 0 ? entry.sequence >= previous : entry.sequence > previous, "diskqueue: order")
            previous = entry.sequence
        }
        require(entries.last.map { $0.sequence < queue.nextSequence } ?? true, "diskqueue: an entry past the end")
        let appended = try queue.append(topic: "t/fuzz", payload: [1, 2, 3], retain: true)
        require(appended == queue.nextSequence - 1, "diskqueue: append returned \(appended)")
        try queue.takeSyncWork().perform()
        pending = queue.statistics.pending
        queue.close()
    } catch {
        blackHole(error.description)
        return
    }
    do {
        let queue = try DiskQueue(directory: queueDirectory)
        let again = readAll(queue)
        let statistics = queue.statistics
        require(statistics.truncatedBytes == 0, "diskqueue: a queue it wrote itself had a torn tail")
        require(again.count == pending, "diskqueue: reopened with \(again.count) entries, not \(pending)")
        require(Array(again.dropLast()) == entries, "diskqueue: reopened with other entries")
        require(
            again.last?.topic == "t/fuzz" && again.last?.payload == [1, 2, 3] && again.last?.retain == true,
            "diskqueue: the appended entry is not the last one")
        queue.close()
    } catch {
        fail("diskqueue: a queue it wrote itself cannot be opened: \(error)")
    }
}

/// One directory for the whole run (the process's own), on tmpfs when there is one.
let queueDirectory: String = {
    let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    return "\(base)/fuzz-diskqueue-\(getpid())"
}()

let queueSegmentMagic = Array("NMEAQ01\n".utf8)

func readAll(_ queue: DiskQueue) -> [QueueEntry] {
    var entries: [QueueEntry] = []
    while true {
        let batch = queue.next(limit: 64)
        if batch.isEmpty { return entries }
        entries += batch
    }
}

/// Empties the directory (or creates it): every file in it goes.
func clearQueueDirectory() {
    mkdir(queueDirectory, 0o700)
    guard let directory = opendir(queueDirectory) else { fail("diskqueue: cannot open \(queueDirectory)") }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        if name != "." && name != ".." { names.append(name) }
    }
    closedir(directory)
    for name in names { unlink(queueDirectory + "/" + name) }
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    require(fd >= 0, "diskqueue: cannot create \(path)")
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    require(written == bytes.count, "diskqueue: short write to \(path)")
}

func segmentName(_ first: UInt64) -> String {
    let digits = String(first)
    return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".seg"
}

/// Walks the records of `segment` by their lengths (after the 8-byte header) and gives each one that fits the
/// expected sequence and a correct CRC. Returns how many it walked.
func repairRecords(_ segment: inout [UInt8], first: UInt64) -> UInt64 {
    var offset = queueSegmentMagic.count
    var sequence = first
    while offset + 8 + 11 <= segment.count {
        let length = Int(readLittleEndian(segment, at: offset, count: 4))
        guard length >= 11, offset + 8 + length <= segment.count else { break }
        for byte in 0..<8 { segment[offset + 8 + byte] = UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(byte))) }
        let crc = crc32(Array(segment[(offset + 8)..<(offset + 8 + length)]))
        for byte in 0..<4 { segment[offset + 4 + byte] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(byte))) }
        offset += 8 + length
        sequence += 1
    }
    return sequence - first
}

func readLittleEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in (0..<count).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
    return value
}

func appendLittleEndian(_ value: UInt64, count: Int = 8, to bytes: inout [UInt8]) {
    for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
}

/// CRC-32 (IEEE), written here again: the queue's own is internal to Fleet.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var value: UInt32 = ~0
    for byte in bytes {
        value ^= UInt32(byte)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
    }
    return ~value
}
