import Glibc
import System

/// One message waiting in the ``DiskQueue``.
public struct QueueEntry: Sendable, Hashable {
    /// Its place in the queue: consecutive, never reused, also across restarts.
    public var sequence: UInt64
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool

    public init(sequence: UInt64, topic: String, payload: [UInt8], retain: Bool) {
        self.sequence = sequence
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// A persistent FIFO of MQTT messages: append-only segment files, entries removed only when acknowledged, bounded in
/// size with a counted drop policy, resumed by the next process that opens the directory.
///
/// **Format.** The directory holds `lock` (an `flock` against a second process), `head` and segment files named
/// by the sequence number of their first entry (`00000000000000000001.seg`, 20 digits so names sort as numbers).
/// A segment is the 8 bytes `NMEAQ01\n` followed by records:
///
///     u32 LE body length | u32 LE CRC-32 of the body | body: u64 LE sequence | u8 flags (1 = retain) |
///     u16 LE topic length | topic (UTF-8) | payload
///
/// `head` is 16 bytes: `NQHD`, the u64 LE sequence of the first entry not yet acknowledged, and the CRC-32 of those
/// 12 bytes. It is rewritten in place by ``sync()``; if it is lost or damaged, the queue starts at its oldest entry
/// and sends again what was already acknowledged (the collector drops the duplicates).
///
/// **Recovery.** Opening scans every segment and checks each record's length, CRC and sequence. A bad or short
/// record at the end of the newest segment is what a power cut during an append leaves: the file is truncated
/// there (``Statistics/truncatedBytes``). A bad record inside an older segment ends that segment
/// (``Statistics/corruptRecords``); the entries after it in that segment are lost, the next segment is read as usual.
///
/// **Bounds and drops.** The segments together stay within ``Options/maximumBytes``. When an append would exceed it,
/// whole segments are dropped, **oldest first**, and their unacknowledged entries are counted in
/// ``Statistics/dropped``: when the broker has been out of reach long enough to fill the queue, the newest positions
/// (where the vehicle is now) matter more than the oldest, those are also in the local track files, and deleting a
/// whole file is the one drop an append-only format can do without rewriting anything.
///
/// **Durability.** Appends are `write(2)`s, so a crash of the process loses nothing appended; ``sync()``
/// (`fdatasync` of the segment, `fsync` of the directory after a new segment, the head) is called in batches by the
/// publisher's network thread, so a power cut loses at most the entries since the last sync.
///
/// Not thread-safe: ``FleetPublisher`` guards it with a lock.
public final class DiskQueue {
    public struct Options: Sendable, Hashable {
        /// The most bytes the segments may take together.
        public var maximumBytes: Int
        /// A new segment is begun when the current one reaches this size. Default: an eighth of the maximum, within
        /// 4 KiB…4 MiB, so a drop loses at most an eighth of the queue.
        public var segmentBytes: Int

        public init(maximumBytes: Int = 64 << 20, segmentBytes: Int? = nil) {
            self.maximumBytes = max(maximumBytes, 1024)
            self.segmentBytes = segmentBytes ?? min(max(maximumBytes / 8, 4096), 4 << 20)
        }
    }

    /// Counts since the queue was opened, and its present state.
    public struct Statistics: Sendable, Hashable {
        /// Entries appended.
        public var appended = 0
        /// Entries acknowledged and removed.
        public var acknowledged = 0
        /// Unacknowledged entries dropped because the queue was full.
        public var dropped = 0
        /// Entries in the queue now (not yet acknowledged), including those from earlier runs.
        public var pending = 0
        /// Entries found in the queue when it was opened.
        public var recovered = 0
        /// Bytes cut from the end of the newest segment when it was opened (an append torn by a crash).
        public var truncatedBytes = 0
        /// Damaged records found inside older segments when it was opened.
        public var corruptRecords = 0
        /// Bytes the segments take on disk.
        public var bytesOnDisk = 0
        public init() {}
    }

    public let directory: String
    public let options: Options
    public private(set) var statistics = Statistics()

    private struct Segment {
        var first: UInt64
        var count: Int
        var bytes: Int
        var path: String
        var end: UInt64 { first + UInt64(count) }
    }

    static let segmentMagic: [UInt8] = Array("NMEAQ01\n".utf8)
    static let headMagic: [UInt8] = Array("NQHD".utf8)
    static let maximumRecordBody = 2 << 20

    private var segments: [Segment] = []
    /// The newest segment, open for appending.
    private var appendFD: FileDescriptor?
    /// Descriptors of segments closed for appending and not yet synced.
    private var retiredFDs: [FileDescriptor] = []
    private var lockFD: FileDescriptor?
    private var headFD: FileDescriptor?
    private var directoryIsDirty = false
    private var segmentIsDirty = false
    private var writtenHead: UInt64 = 0

    /// The sequence the next append gets.
    public private(set) var nextSequence: UInt64 = 1
    /// The first entry not yet acknowledged (or dropped).
    public private(set) var head: UInt64 = 1
    /// Acknowledged entries after ``head``.
    private var acknowledgedAhead: Set<UInt64> = []

    // The reader: the next entry to hand out.
    private var cursor: UInt64 = 1
    private var readFD: FileDescriptor?
    private var readSegmentFirst: UInt64 = 0
    private var readOffset = 0
    private var readSequence: UInt64 = 0
    private var recordBuffer: [UInt8] = []

    /// Opens (creating as needed) the queue in `directory` and recovers what an earlier process left.
    /// - Throws: ``QueueError`` when the directory cannot be created or read, or another process has it open.
    public init(directory: String, options: Options = Options()) throws(QueueError) {
        self.directory = directory
        self.options = options
        try Self.makeDirectories(directory)
        do {
            lockFD = try Self.openReadWrite(directory + "/lock")
        } catch {
            throw QueueError(directory: directory, operation: "open the lock file", code: error.rawValue)
        }
        do {
            try lockFD?.lockExclusively()
        } catch {
            closeAll()  // and mark it closed: deinit runs on a throw from here (every property is set) and closes again
            if error == .wouldBlock { throw QueueError.inUse(directory: directory) }
            throw QueueError(directory: directory, operation: "lock", code: error.rawValue)
        }
        do {
            headFD = try Self.openReadWrite(directory + "/head")
        } catch {
            closeAll()
            throw QueueError(directory: directory, operation: "open the head file", code: error.rawValue)
        }
        do throws(QueueError) {
            try recover()
        } catch {
            closeAll()
            throw error
        }
    }

    deinit { closeAll() }

    private func closeAll() {
        for fd in [appendFD, readFD, headFD, lockFD].compactMap({ $0 }) + retiredFDs { try? fd.close() }
        appendFD = nil
        readFD = nil
        headFD = nil
        lockFD = nil
        retiredFDs = []
    }

    /// `open(2)` read-write, creating the file (0644) when missing.
    private static func openReadWrite(_ path: String) throws(Errno) -> FileDescriptor {
        try FileDescriptor.open(path, .readWrite, options: [.create, .closeOnExec])
    }

    /// Syncs and closes the queue; it accepts nothing after. An empty queue (everything acknowledged) leaves only its
    /// head behind, so the next process has nothing to scan.
    public func close() {
        guard lockFD != nil else { return }
        do throws(QueueError) {
            try sync()
            if statistics.pending == 0 {
                for segment in segments { unlink(segment.path) }
                segments.removeAll()
                statistics.bytesOnDisk = 0
            }
        } catch {}
        closeAll()
    }

    // MARK: Opening

    private static func makeDirectories(_ path: String) throws(QueueError) {
        do {
            try Directory.create(path)
        } catch {
            throw QueueError(directory: path, operation: "create", code: error.errno?.rawValue ?? EIO)
        }
    }

    private static func segmentName(_ first: UInt64) -> String {
        let digits = String(first)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".seg"
    }

    private func recover() throws(QueueError) {
        let firsts = try Self.segmentFirsts(in: directory)
        for (index, first) in firsts.enumerated() {
            let path = directory + "/" + Self.segmentName(first)
            let isLast = index == firsts.count - 1
            var segment = Segment(first: first, count: 0, bytes: 0, path: path)
            try scan(&segment, isLast: isLast)
            if segment.count == 0 && !isLast {
                unlink(path)
                continue
            }
            segments.append(segment)
        }
        try recoverHead()
    }

    /// The first sequence numbers of the segments in `directory`, in order.
    private static func segmentFirsts(in directory: String) throws(QueueError) -> [UInt64] {
        guard let dir = opendir(directory) else {
            throw QueueError(directory: directory, operation: "read", code: errno)
        }
        var firsts: [UInt64] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard name.hasSuffix(".seg"), name.count == 24, let first = UInt64(name.prefix(20)) else { continue }
            firsts.append(first)
        }
        closedir(dir)
        return firsts.sorted()
    }

    /// After the segments: the head (where acknowledgement had reached), the counters, and the segment appends go
    /// to.
    private func recoverHead() throws(QueueError) {
        var stored: UInt64?
        var bytes = [UInt8](repeating: 0, count: 16)
        let headBytes = bytes.withUnsafeMutableBytes { try? headFD?.readAll(into: $0, fromAbsoluteOffset: 0) }
        if headBytes == 16, Array(bytes[0..<4]) == Self.headMagic,
            CRC32.checksum(Array(bytes[0..<12])) == Self.readU32(bytes, 12)
        {
            stored = Self.readU64(bytes, 4)
        }
        let oldest = segments.first?.first ?? 1
        let end = segments.last?.end ?? 1
        head = max(stored ?? oldest, oldest)
        nextSequence = max(end, head)
        var appendToLast = segments.last.map { $0.end == nextSequence } ?? false
        if let last = segments.last, last.count == 0, !appendToLast {
            // An empty newest segment named after another sequence: of no use.
            unlink(last.path)
            segments.removeLast()
            appendToLast = false
        }
        writtenHead = stored ?? 0
        statistics.recovered = segments.reduce(0) { total, segment in
            total + Int(segment.end > head ? segment.end - max(segment.first, head) : 0)
        }
        statistics.pending = statistics.recovered
        removeAcknowledgedSegments()
        cursor = head

        if !appendToLast {
            // No segment, or the newest does not end where appends continue (its tail was lost): a new one.
            try startSegment()
        } else {
            let last = segments[segments.count - 1]
            do {
                appendFD = try FileDescriptor.open(last.path, .writeOnly, options: [.append, .closeOnExec])
            } catch {
                throw QueueError(directory: directory, operation: "open", code: error.rawValue)
            }
        }
        statistics.bytesOnDisk = segments.reduce(0) { $0 + $1.bytes }
    }

    /// Reads the records of `segment`, counting them; cuts a torn tail of the newest segment.
    private func scan(_ segment: inout Segment, isLast: Bool) throws(QueueError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(segment.path, isLast ? .readWrite : .readOnly)
        } catch {
            throw QueueError(directory: directory, operation: "open", code: error.rawValue)
        }
        defer { try? fd.close() }
        let size = (try? fd.status().size) ?? 0
        var data = [UInt8](repeating: 0, count: size)
        // What could be read (a read error ends the segment there, as a torn tail would).
        let done = data.withUnsafeMutableBytes { (try? fd.readAll(into: $0, fromAbsoluteOffset: 0)) ?? 0 }
        var offset = Self.segmentMagic.count
        if done < offset || Array(data[0..<offset]) != Self.segmentMagic {
            // A header torn by a crash right after the file was created, or not our file.
            if isLast {
                if (try? fd.resize(to: 0)) != nil && (try? fd.writeAll(Self.segmentMagic, toAbsoluteOffset: 0)) != nil {
                    statistics.truncatedBytes += done
                    segment.bytes = Self.segmentMagic.count
                }
            } else {
                statistics.corruptRecords += 1
            }
            return
        }
        var expected = segment.first
        var good = offset
        while offset < done {
            guard offset + 8 <= done else { break }
            let length = Int(Self.readU32(data, offset))
            let crc = Self.readU32(data, offset + 4)
            guard length >= 11, length <= Self.maximumRecordBody, offset + 8 + length <= done else { break }
            let body = data[(offset + 8)..<(offset + 8 + length)]
            guard body.withUnsafeBytes({ CRC32.checksum($0) }) == crc,
                Self.readU64(data, offset + 8) == expected, Self.topicFits(body)
            else { break }
            offset += 8 + length
            good = offset
            expected += 1
            segment.count += 1
        }
        segment.bytes = good
        if good < done {
            if isLast {
                statistics.truncatedBytes += done - good
                do {
                    try fd.resize(to: good)
                } catch {
                    throw QueueError(directory: directory, operation: "truncate a torn segment", code: error.rawValue)
                }
                try? fd.synchronizeData()
            } else {
                statistics.corruptRecords += 1
            }
        }
    }

    private func startSegment() throws(QueueError) {
        let path = directory + "/" + Self.segmentName(nextSequence)
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .append, .closeOnExec])
        } catch {
            throw QueueError(directory: directory, operation: "create a segment", code: error.rawValue)
        }
        do {
            try fd.writeAll(Self.segmentMagic)
        } catch {
            try? fd.close()
            unlink(path)
            throw QueueError(directory: directory, operation: "write a segment", code: error.rawValue)
        }
        if let appendFD { retiredFDs.append(appendFD) }
        appendFD = fd
        segments.append(Segment(first: nextSequence, count: 0, bytes: Self.segmentMagic.count, path: path))
        statistics.bytesOnDisk += Self.segmentMagic.count
        directoryIsDirty = true
        segmentIsDirty = true
    }

    // MARK: Appending

    /// Appends a message, dropping the oldest segments first when the queue would exceed its maximum size.
    /// - Returns: the entry's sequence number.
    /// - Throws: ``QueueError`` when the entry cannot be written (disk full, entry larger than the queue); the
    ///   queue is unchanged then.
    @discardableResult
    public func append(topic: String, payload: some Collection<UInt8>, retain: Bool) throws(QueueError) -> UInt64 {
        let topicBytes = Array(topic.utf8)
        let bodyLength = 11 + topicBytes.count + payload.count
        let recordLength = 8 + bodyLength
        guard topicBytes.count <= Int(UInt16.max), bodyLength <= Self.maximumRecordBody,
            recordLength + Self.segmentMagic.count <= options.maximumBytes
        else {
            throw QueueError.entryTooLarge(directory: directory, bytes: recordLength)
        }
        var record = recordBuffer
        record.removeAll(keepingCapacity: true)
        Self.appendU32(UInt32(bodyLength), to: &record)
        Self.appendU32(0, to: &record)
        Self.appendU64(nextSequence, to: &record)
        record.append(retain ? 1 : 0)
        record.append(UInt8(topicBytes.count & 0xFF))
        record.append(UInt8(topicBytes.count >> 8))
        record += topicBytes
        record += payload
        let crc = record.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[8...])) }
        record[4] = UInt8(crc & 0xFF)
        record[5] = UInt8(crc >> 8 & 0xFF)
        record[6] = UInt8(crc >> 16 & 0xFF)
        record[7] = UInt8(crc >> 24)
        defer { recordBuffer = record }

        var current = segments[segments.count - 1]
        if current.count > 0 && current.bytes + recordLength > options.segmentBytes {
            try startSegment()
            current = segments[segments.count - 1]
        }
        // Make room: whole segments, oldest first, never the one being appended to.
        while statistics.bytesOnDisk + recordLength > options.maximumBytes {
            if segments.count == 1 {
                guard segments[0].count > 0 else { break }
                try startSegment()
            }
            dropOldestSegment()
        }
        do {
            try appendFD?.writeAll(record)
        } catch {
            try? appendFD?.resize(to: segments[segments.count - 1].bytes)
            throw QueueError(directory: directory, operation: "append to", code: error.rawValue)
        }
        segments[segments.count - 1].count += 1
        segments[segments.count - 1].bytes += recordLength
        statistics.bytesOnDisk += recordLength
        statistics.appended += 1
        statistics.pending += 1
        segmentIsDirty = true
        let sequence = nextSequence
        nextSequence += 1
        return sequence
    }

    private func dropOldestSegment() {
        let oldest = segments.removeFirst()
        if oldest.end > head {
            var lost = Int(oldest.end - max(oldest.first, head))
            for sequence in max(oldest.first, head)..<oldest.end where acknowledgedAhead.remove(sequence) != nil {
                lost -= 1
            }
            statistics.dropped += lost
            statistics.pending -= lost
            head = oldest.end
            advanceHead()
        }
        if readSegmentFirst == oldest.first { closeReader() }
        if cursor < oldest.end { cursor = oldest.end }
        statistics.bytesOnDisk -= oldest.bytes
        unlink(oldest.path)
        directoryIsDirty = true
    }

    // MARK: Reading

    /// The next entries not yet handed out, oldest first, at most `limit` of them.
    public func next(limit: Int) -> [QueueEntry] {
        var entries: [QueueEntry] = []
        while entries.count < limit, cursor < nextSequence {
            guard let entry = readEntry() else { break }
            entries.append(entry)
            cursor = entry.sequence + 1
        }
        return entries
    }

    /// The number of entries not yet handed out by ``next(limit:)``.
    public var unreadCount: Int { Int(nextSequence - cursor) }

    /// Hands out every unacknowledged entry again from the oldest (after the connection they were sent on is gone
    /// for good).
    public func rewind() {
        cursor = head
        closeReader()
    }

    /// Hands out entries again from `sequence` on (one whose sending failed, and those after it).
    public func seek(to sequence: UInt64) {
        cursor = min(max(sequence, head), nextSequence)
    }

    private func closeReader() {
        try? readFD?.close()
        readFD = nil
        readSegmentFirst = 0
    }

    /// Reads the entry at ``cursor``.
    private func readEntry() -> QueueEntry? {
        guard let segment = segments.first(where: { $0.first <= cursor && cursor < $0.end }) else {
            // The cursor points into a gap (a corrupt segment's lost tail): skip to the next entry that exists.
            if let next = segments.first(where: { $0.first > cursor && $0.count > 0 }) {
                cursor = next.first
                return readEntry()
            }
            cursor = nextSequence
            return nil
        }
        if readFD == nil || readSegmentFirst != segment.first || readSequence > cursor {
            closeReader()
            readFD = try? FileDescriptor.open(segment.path, .readOnly)
            guard readFD != nil else { return nil }
            readSegmentFirst = segment.first
            readOffset = Self.segmentMagic.count
            readSequence = segment.first
        }
        guard let readFD else { return nil }
        while true {
            var header = [UInt8](repeating: 0, count: 8)
            guard Self.read(readFD, into: &header, at: readOffset) else { return nil }
            let length = Int(Self.readU32(header, 0))
            guard length >= 11, length <= Self.maximumRecordBody else { return nil }
            if readSequence < cursor {
                readOffset += 8 + length
                readSequence += 1
                continue
            }
            var body = [UInt8](repeating: 0, count: length)
            guard Self.read(readFD, into: &body, at: readOffset + 8) else { return nil }
            readOffset += 8 + length
            readSequence += 1
            guard Self.topicFits(body) else { return nil }
            let topicLength = Self.topicLength(body)
            return QueueEntry(
                sequence: Self.readU64(body, 0),
                topic: String(decoding: body[11..<(11 + topicLength)], as: UTF8.self),
                payload: Array(body[(11 + topicLength)...]), retain: body[8] & 1 != 0)
        }
    }

    /// The topic length a record's body (at least 11 bytes) announces.
    private static func topicLength(_ body: some Collection<UInt8>) -> Int {
        let start = body.startIndex
        return Int(body[body.index(start, offsetBy: 9)]) | Int(body[body.index(start, offsetBy: 10)]) << 8
    }

    /// Whether the topic a record's body announces fits in it: a record is whole only then, even when its CRC and
    /// sequence are right (recovery must not count an entry that reading would then refuse, which would stop the
    /// queue at it for good).
    private static func topicFits(_ body: some Collection<UInt8>) -> Bool {
        11 + topicLength(body) <= body.count
    }

    /// Fills `bytes` from `offset` (`pread(2)`); `false` when the file ends first or the read fails.
    private static func read(_ fd: FileDescriptor, into bytes: inout [UInt8], at offset: Int) -> Bool {
        let count = bytes.count
        return bytes.withUnsafeMutableBytes { (try? fd.readAll(into: $0, fromAbsoluteOffset: offset)) == count }
    }

    // MARK: Acknowledging

    /// Marks the entry `sequence` as acknowledged by the broker; it is removed once every older one is too.
    public func acknowledge(_ sequence: UInt64) {
        guard sequence >= head, sequence < nextSequence else { return }
        guard acknowledgedAhead.insert(sequence).inserted else { return }
        statistics.acknowledged += 1
        statistics.pending -= 1
        advanceHead()
        removeAcknowledgedSegments()
    }

    private func advanceHead() {
        while acknowledgedAhead.remove(head) != nil { head += 1 }
    }

    private func removeAcknowledgedSegments() {
        while segments.count > 1, segments[0].end <= head {
            let segment = segments.removeFirst()
            if readSegmentFirst == segment.first { closeReader() }
            statistics.bytesOnDisk -= segment.bytes
            unlink(segment.path)
            directoryIsDirty = true
        }
    }

    // MARK: Syncing

    /// What ``sync()`` has to do, gathered under the caller's lock so the slow part can run outside it. Perform it
    /// exactly once: it owns the descriptors it holds.
    public struct SyncWork {
        fileprivate var descriptors: [FileDescriptor]
        fileprivate var directoryFD: FileDescriptor?
        fileprivate var head: UInt64?
        fileprivate var headFD: FileDescriptor?
        fileprivate var directory: String

        /// Syncs the segments and the directory, then records the head. Call without the lock.
        /// - Throws: ``QueueError`` when a sync fails (the data may not survive a power cut).
        public func perform() throws(QueueError) {
            var failure: Errno?
            for fd in descriptors {
                do throws(Errno) { try fd.synchronizeData() } catch { failure = failure ?? error }
                try? fd.close()
            }
            if let directoryFD {
                do throws(Errno) { try directoryFD.synchronize() } catch { failure = failure ?? error }
                try? directoryFD.close()
            }
            if let head, let headFD {
                var bytes = DiskQueue.headMagic
                DiskQueue.appendU64(head, to: &bytes)
                DiskQueue.appendU32(CRC32.checksum(bytes), to: &bytes)
                do throws(Errno) {
                    try headFD.writeAll(bytes, toAbsoluteOffset: 0)
                    try headFD.synchronizeData()
                } catch {
                    failure = failure ?? error
                }
            }
            try? headFD?.close()
            if let failure { throw QueueError(directory: directory, operation: "sync", code: failure.rawValue) }
        }
    }

    /// Takes what needs syncing (duplicated descriptors, so appends and rotations may go on meanwhile).
    public func takeSyncWork() -> SyncWork {
        var descriptors = retiredFDs
        retiredFDs = []
        if segmentIsDirty, let duplicate = try? appendFD?.duplicate() { descriptors.append(duplicate) }
        segmentIsDirty = false
        var directoryFD: FileDescriptor?
        if directoryIsDirty {
            directoryFD = try? FileDescriptor.open(directory, .readOnly, options: [.directory, .closeOnExec])
            directoryIsDirty = false
        }
        var newHead: UInt64?
        if head != writtenHead {
            newHead = head
            writtenHead = head
        }
        return SyncWork(
            descriptors: descriptors, directoryFD: directoryFD, head: newHead,
            headFD: newHead != nil ? try? headFD?.duplicate() : nil, directory: directory)
    }

    /// Syncs now (``takeSyncWork()`` and ``SyncWork/perform()`` in one).
    public func sync() throws(QueueError) {
        try takeSyncWork().perform()
    }

    // MARK: Little-endian helpers

    static func appendU32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(value >> UInt32(shift) & 0xFF)) }
    }

    static func appendU64(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(value >> UInt64(shift) & 0xFF)) }
    }

    static func readU32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in (0..<4).reversed() { value = value << 8 | UInt32(bytes[offset + index]) }
        return value
    }

    static func readU64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }
}

/// The queue directory could not be used.
public struct QueueError: Error, Sendable, Hashable, CustomStringConvertible {
    public var directory: String
    public var message: String
    /// `errno`, when a system call failed.
    public var code: Int32?

    public init(directory: String, operation: String, code: Int32) {
        self.directory = directory
        self.code = code
        message = "cannot \(operation) the queue in '\(directory)': \(Errno(rawValue: code))"
    }

    init(directory: String, message: String) {
        self.directory = directory
        self.message = message
        code = nil
    }

    static func inUse(directory: String) -> QueueError {
        QueueError(
            directory: directory,
            message: "the queue in '\(directory)' is in use by another process; "
                + "give each publisher its own queue directory")
    }

    static func entryTooLarge(directory: String, bytes: Int) -> QueueError {
        QueueError(
            directory: directory,
            message: "a message of \(bytes) bytes does not fit in the queue in "
                + "'\(directory)'")
    }

    /// `true` for a full disk or quota.
    public var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }

    public var description: String { message }
}
