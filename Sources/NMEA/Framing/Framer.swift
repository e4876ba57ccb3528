/// Cuts a byte stream into checksum-valid sentences, incrementally and without copying.
///
/// Feed it bytes in any chunking — one at a time, random splits, a whole file — and it hands out the same sentences.
/// A sentence that lies wholly inside a chunk is handed out as a view into that chunk; one split across chunks is
/// gathered in the framer's own buffer, allocated once at `init` and never grown, so memory stays bounded whatever
/// the input.
///
///     var framer = Framer()
///     try framer.feed(bytes) { event in
///         if case .sentence(let sentence) = event { … }
///     }
///     try framer.finish { event in … }   // a last sentence with no final newline
///
/// It accepts `\n`, `\r\n` and `\r\r\n` line endings; skips garbage before `$`/`!` (including `$$GPGGA`) and `#`
/// comment lines; hands out u-blox UBX and RTCM 3 binary frames whose checksum verifies (``BinaryFrame``; anything
/// else that starts like one — noise after `B5 62` — costs only its sync bytes, and framing resumes right after them, so it
/// never swallows the sentences that follow); restarts at any `$` or `!` inside a sentence (receivers that drop bytes
/// glue sentences together); and rejects lines longer than ``maximumLength``, then resynchronises at the next line or
/// sentence start. Checksum hex digits may be upper or lower case. Every outcome is counted in ``statistics``.
///
/// **Receive times.** A sentence's receive time (``Sentence/receivedMilliseconds``) is read from an NMEA 4.10 TAG
/// block before it (`\c:1700000000123*hh\$GPRMC,…`, see ``TagBlock``), a Unix timestamp and a blank at the start of
/// its line (`1700000000.123 $GPRMC,…`, seconds or milliseconds: see ``UnixTimeDigits``), or an Android GnssLogger
/// line's time after its checksum (`NMEA,$GPRMC,…*hh,1700000000123`). A TAG block that does not read is counted
/// (``FramerStatistics/tagBlockChecksumMismatches``, ``FramerStatistics/malformedTagBlocks``…) and the sentence after
/// it is still framed, without a receive time.
public struct Framer: ~Copyable {
    /// What to do with a sentence that has no `*hh` checksum.
    public enum ChecksumPolicy: Sendable {
        /// Reject it and count it in ``FramerStatistics/missingChecksums`` (the default).
        case required
        /// Accept it; old receivers send none. It is still counted, in ``FramerStatistics/sentencesWithoutChecksum``.
        case optional
    }

    /// The longest sentence accepted, from `$` to the last checksum digit, without the line ending.
    public let maximumLength: Int
    /// What to do with sentences that have no checksum.
    public let checksumPolicy: ChecksumPolicy
    /// Counters for everything fed so far.
    public private(set) var statistics = FramerStatistics()
    /// The line the framer is on: 1 plus the number of `\n` seen.
    public private(set) var line = 1

    /// A sentence split across chunks: its bytes so far (`$` first) and the XOR of all but the first.
    private let pending: UnsafeMutablePointer<UInt8>
    private var pendingCount = 0
    private var pendingXor: UInt8 = 0
    /// A binary frame split across chunks: its bytes so far (sync bytes first), kept until its checksum says whether
    /// to skip them or to frame them again. ``maximumBinaryFrame`` bytes after `pending`, or the caller's room.
    private let held: UnsafeMutablePointer<UInt8>
    private var heldCount = 0
    /// The longest binary frame taken for one: the room in `held`.
    private let binaryFrameLimit: Int
    /// `pending` and `held` are one block allocated here (not the caller's storage), so it is freed here.
    private let ownsStorage: Bool
    private var state = State.idle
    /// `true` when nothing but line endings has been seen since the last line ending (so `#` starts a comment).
    private var atLineStart = true
    /// The receive time a TAG block or a leading Unix timestamp gave the next sentence of this line.
    private var lineReceived: Int64?
    /// The group of the TAG block before the sentence being framed, if it had one.
    private var lineGroup: TagGroup?
    /// A TAG block being read (state ``State/tagBlock``).
    private var tagReader = TagBlockReader()
    /// RTCM 2 words gathered from the bytes between sentences (six-bit bytes, `0x40`…`0x7F`).
    private var rtcm2 = RTCM2Sync()
    /// A leading Unix timestamp being read (state ``State/leadingTime``): its digits, how many bytes it has taken,
    /// and whether the blank after it has been seen.
    private var leadingTime = UnixTimeDigits()
    private var leadingTimeBytes = 0
    private var leadingTimeEnded = false

    /// `true` between sentences: the next byte fed starts a new line or sentence (for stamping a sentence with the
    /// read its first byte came in).
    var isBetweenSentences: Bool {
        if case .idle = state { return true }
        return false
    }

    /// `true` at the start of a line with nothing of it seen: a framer fresh from ``reset()`` would frame what
    /// follows exactly as this one will (only ``line`` and the counters differ). A file cut after a line feed can
    /// then be framed in pieces, each by a framer of its own.
    var isAtLineStart: Bool {
        guard case .idle = state else { return false }
        return atLineStart && lineReceived == nil && lineGroup == nil && rtcm2.isPristine
    }

    private enum State {
        /// Between sentences.
        case idle
        /// Inside a sentence that began in an earlier chunk (its start is in `pending`).
        case sentence
        /// Inside a `#` comment line.
        case comment
        /// Inside a line that grew too long; skipping to the next line or sentence start.
        case overlong
        /// Inside a binary frame begun in an earlier chunk (its bytes so far are in `held`).
        case binaryFrame(BinaryFrameReader)
        /// Inside a TAG block (`\c:…*hh\`), after its opening `\`.
        case tagBlock
        /// At the start of a line that starts with a digit: perhaps a Unix timestamp before a sentence.
        case leadingTime
    }

    /// The largest UBX payload skipped as a frame. A larger length field means the `B5 62` was not a frame start
    /// after all, and its bytes count as garbage instead of hiding up to 64 KiB of NMEA.
    static let maximumBinaryPayload = 4096
    /// The longest binary frame: a UBX frame with the largest payload (RTCM 3 frames are at most 1029 bytes).
    public static let maximumBinaryFrame = maximumBinaryPayload + 8

    /// The bytes ``init(maximumLength:checksumPolicy:storage:)`` needs for sentences of up to `maximumLength`
    /// characters and binary frames of up to `binaryFrames` bytes (at least 8: a frame's header is held while it is
    /// read, whatever its length turns out to be).
    public static func storageSize(maximumLength: Int, binaryFrames: Int = maximumBinaryFrame) -> Int {
        maximumLength + 2 + max(binaryFrames, 8)
    }

    /// Makes a framer.
    /// - Parameters:
    ///   - maximumLength: the longest sentence to accept. NMEA 0183 allows 82 characters, RTK receivers send ~120
    ///     and u-blox `$PUBX,03` with many satellites passes 400, so the default is 1024.
    ///   - checksumPolicy: whether a sentence without checksum is rejected (the default) or accepted.
    public init(maximumLength: Int = 1024, checksumPolicy: ChecksumPolicy = .required) {
        // One block, laid out as the caller's storage is, freed with the framer.
        let storage = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Framer.storageSize(maximumLength: max(maximumLength, 8)), alignment: 8)
        self.init(maximumLength: maximumLength, checksumPolicy: checksumPolicy, storage: storage, owned: true)
    }

    /// Makes a framer that keeps a sentence or a binary frame split across chunks in `storage`, memory the caller
    /// provides (a static buffer on a microcontroller): nothing is allocated, ever. The first `maximumLength + 2`
    /// bytes hold a sentence; the rest, a binary frame (``storageSize(maximumLength:binaryFrames:)``). A UBX or RTCM 3
    /// frame longer than the rest is not taken for one: its bytes are framed as noise (an NMEA-only firmware needs
    /// only 8). `storage` must outlive the framer, untouched by anything else meanwhile.
    public init(
        maximumLength: Int = 1024, checksumPolicy: ChecksumPolicy = .required, storage: UnsafeMutableRawBufferPointer
    ) {
        self.init(maximumLength: maximumLength, checksumPolicy: checksumPolicy, storage: storage, owned: false)
    }

    private init(
        maximumLength: Int, checksumPolicy: ChecksumPolicy, storage: UnsafeMutableRawBufferPointer, owned: Bool
    ) {
        precondition(maximumLength >= 8, "a sentence needs at least 8 characters")
        precondition(
            storage.count >= Framer.storageSize(maximumLength: maximumLength, binaryFrames: 0),
            "the storage must hold a sentence and a frame header: Framer.storageSize(maximumLength:binaryFrames:)")
        self.maximumLength = maximumLength
        self.checksumPolicy = checksumPolicy
        // A sentence first, one byte more than the longest for the stop byte written after it (see
        // `Sentence.isTerminated`); a binary frame in the rest.
        let bytes = storage.baseAddress!.bindMemory(to: UInt8.self, capacity: storage.count)
        pending = bytes
        held = bytes + maximumLength + 2
        binaryFrameLimit = min(storage.count - maximumLength - 2, Framer.maximumBinaryFrame)
        ownsStorage = owned
    }

    deinit {
        if ownsStorage { UnsafeMutableRawPointer(pending).deallocate() }
    }

    /// Frames `bytes`, calling `body` for each sentence and each rejected line, in input order.
    ///
    /// The views handed to `body` are valid only during the call.
    /// - Complexity: O(*n*) in the number of bytes; no allocation.
    public mutating func feed<E: Error>(
        _ bytes: UnsafeRawBufferPointer, _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        statistics.bytes += bytes.count
        let start = base.assumingMemoryBound(to: UInt8.self)
        try run(from: start, to: start + bytes.count, body)
    }

    /// Runs the state machine over `[start, end)`: the caller's bytes, or held bytes framed again.
    private mutating func run<E: Error>(
        from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>, _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) {
        var cursor = start
        while cursor < end {
            switch state {
            case .idle: cursor = try frameSentences(from: cursor, to: end, body)
            case .sentence: cursor = try continueSentence(from: cursor, to: end, body)
            case .comment: cursor = skipComment(from: cursor, to: end)
            case .overlong: cursor = skipOverlong(from: cursor, to: end)
            case .binaryFrame(let frame): cursor = try readBinaryFrame(frame, from: cursor, to: end, body)
            case .tagBlock: cursor = readTagBlock(from: cursor, to: end)
            case .leadingTime: cursor = readLeadingTime(from: cursor, to: end)
            }
        }
    }

    /// Frames bytes held in any contiguous collection (`[UInt8]`, `ArraySlice`, `Data`…).
    public mutating func feed<Bytes: Sequence<UInt8>, E: Error>(
        _ bytes: Bytes, _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) {
        func frame(_ buffer: UnsafeRawBufferPointer) -> Result<Void, E> {
            do throws(E) {
                return .success(try feed(buffer, body))
            } catch {
                return .failure(error)
            }
        }
        let result =
            bytes.withContiguousStorageIfAvailable { frame(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { frame($0) }
        try result.get()
    }

    /// Ends the input: a sentence still open is completed as if its line had ended (files often lack a final
    /// newline), and the framer is ready for a new stream.
    public mutating func finish<E: Error>(_ body: (FramerEvent) throws(E) -> Void) throws(E) {
        // A binary frame cut off by the end never verified: what followed its sync bytes is framed again (and may
        // itself end in a frame cut off, or in a sentence).
        while case .binaryFrame(let frame) = state {
            try reject(frame, body)
        }
        switch state {
        case .sentence:
            state = .idle
            pending[pendingCount] = UInt8(ascii: "\n")  // the stop byte for decoders (see `Sentence.isTerminated`)
            try complete(UnsafePointer(pending), count: pendingCount, xor: pendingXor, lineEnded: true, body)
        case .tagBlock:
            countTagBlockFailure()
        case .leadingTime:
            statistics.garbageBytes += leadingTimeBytes
        case .idle, .comment, .overlong, .binaryFrame:
            break
        }
        state = .idle
        pendingCount = 0
        heldCount = 0
        atLineStart = true
        lineReceived = nil
        lineGroup = nil
    }

    /// Drops a sentence in progress and starts a new stream, for bytes that do not continue those fed so far (the
    /// next file, a reconnected receiver). Line numbers start again from 1; the counters are kept.
    public mutating func reset() {
        state = .idle
        pendingCount = 0
        heldCount = 0
        atLineStart = true
        lineReceived = nil
        lineGroup = nil
        line = 1
        rtcm2 = RTCM2Sync()
    }

    // MARK: States

    /// Between sentences: frames every sentence that lies wholly in `[start, end)` straight from the caller's bytes.
    private mutating func frameSentences<E: Error>(
        from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>, _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) -> UnsafePointer<UInt8> {
        var cursor = start
        while cursor < end {
            let byte = cursor.pointee
            switch byte {
            case UInt8(ascii: "$"), UInt8(ascii: "!"):
                atLineStart = false
                let (next, leavesState) = try frameSentence(at: cursor, to: end, body)
                if leavesState { return next }
                cursor = next
            case UInt8(ascii: "\n"):
                line += 1
                atLineStart = true
                lineReceived = nil
                lineGroup = nil
                rtcm2.lineEnded()
                cursor += 1
            // Within an RTCM 2 stream a backslash is one of its bytes; at a line's start, a TAG block.
            case UInt8(ascii: "\\") where atLineStart || !rtcm2.isLocked:
                atLineStart = false
                if rtcm2.isLocked { rtcm2 = RTCM2Sync() }
                tagReader = TagBlockReader()
                state = .tagBlock
                return cursor + 1
            case UInt8(ascii: "0")...UInt8(ascii: "9") where atLineStart:
                atLineStart = false
                leadingTime = UnixTimeDigits()
                leadingTimeBytes = 0
                leadingTimeEnded = false
                state = .leadingTime
                return cursor
            case UInt8(ascii: "\r"):
                atLineStart = true
                cursor += 1
            case UInt8(ascii: "#") where atLineStart:
                statistics.commentLines += 1
                state = .comment
                return cursor + 1
            case 0xB5:
                heldCount = 0
                let frame = BinaryFrameReader(.ubx, maximumLength: binaryFrameLimit)
                return try readBinaryFrame(frame, from: cursor, to: end, body)
            case 0xD3:
                heldCount = 0
                let frame = BinaryFrameReader(.rtcm3, maximumLength: binaryFrameLimit)
                return try readBinaryFrame(frame, from: cursor, to: end, body)
            default:
                atLineStart = false
                let wasLocked = rtcm2.isLocked
                if rtcm2.add(byte) {
                    statistics.rtcm2Frames += 1
                    try rtcm2.withMessage { (words) throws(E) in
                        statistics.binaryFrameBytes += words.count
                        try body(.binaryFrame(BinaryFrame(kind: .rtcm2, bytes: words, line: line)))
                    }
                }
                if !(wasLocked && rtcm2.isLocked) { statistics.garbageBytes += 1 }
                cursor += 1
            }
        }
        return end
    }

    /// The sentence starting at `start`: framed when it ends within `end` (and its CR LF taken), rejected when it is
    /// too long (then skipped to its line's end), or kept for the next chunk. Returns where to go on, and `true`
    /// when the state is no longer "between sentences".
    @inline(__always)
    private mutating func frameSentence<E: Error>(
        at start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>, _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) -> (next: UnsafePointer<UInt8>, leavesState: Bool) {
        var cursor = start
        let limit = end - cursor > maximumLength ? cursor + maximumLength + 1 : end
        let (stop, xor) = ByteScan.scan(from: cursor + 1, to: limit)
        if stop < limit {
            try complete(cursor, count: stop - cursor, xor: xor, lineEnded: isLineEnd(stop.pointee), body)
            cursor = stop
            // The usual line ending, taken here rather than a byte at a time below.
            if end - cursor >= 2 && cursor[0] == UInt8(ascii: "\r") && cursor[1] == UInt8(ascii: "\n") {
                line += 1
                atLineStart = true
                cursor += 2
            }
            return (cursor, false)
        } else if stop - cursor > maximumLength {
            try reject(.overlong(limit: maximumLength), cursor, count: maximumLength, body)
            state = .overlong
            return (stop, true)
        } else {
            // The chunk ends inside this sentence: keep it for the next chunk.
            pendingCount = stop - cursor
            pending.update(from: cursor, count: pendingCount)
            pendingXor = xor
            state = .sentence
            return (end, true)
        }
    }

    /// Inside a sentence begun in an earlier chunk: gathers its bytes until it ends.
    private mutating func continueSentence<E: Error>(
        from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>, _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) -> UnsafePointer<UInt8> {
        let room = maximumLength + 1 - pendingCount
        let limit = end - start > room ? start + room : end
        let (stop, xor) = ByteScan.scan(from: start, to: limit)
        (pending + pendingCount).update(from: start, count: stop - start)
        pendingCount += stop - start
        pendingXor ^= xor
        if stop < limit {
            state = .idle
            pending[pendingCount] = UInt8(ascii: "\n")  // the stop byte for decoders (see `Sentence.isTerminated`)
            try complete(
                UnsafePointer(pending), count: pendingCount, xor: pendingXor,
                lineEnded: isLineEnd(stop.pointee), body)
            return stop
        }
        if pendingCount > maximumLength {
            try reject(.overlong(limit: maximumLength), UnsafePointer(pending), count: maximumLength, body)
            state = .overlong
        }
        return stop
    }

    private mutating func skipComment(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>)
        -> UnsafePointer<UInt8>
    {
        var cursor = start
        while cursor < end && !isLineEnd(cursor.pointee) { cursor += 1 }
        if cursor < end { state = .idle }
        return cursor
    }

    /// Skips the rest of an overlong line, up to a line ending, a sentence start, or binary data.
    private mutating func skipOverlong(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>)
        -> UnsafePointer<UInt8>
    {
        let stop = ByteScan.scan(from: start, to: end).stop
        if stop < end { state = .idle }
        return stop
    }

    /// Inside a TAG block: reads it up to its closing `\`, and keeps its receive time for the sentence after it.
    /// A block that does not read is counted by what was wrong, and its bytes as garbage; the sentence after it is
    /// still framed (a stop byte ends the block and is framed itself).
    private mutating func readTagBlock(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>)
        -> UnsafePointer<UInt8>
    {
        var cursor = start
        while cursor < end {
            switch tagReader.take(cursor.pointee) {
            case .more:
                cursor += 1
                continue
            case .closed:
                statistics.tagBlocks += 1
                statistics.unknownTagParameters += tagReader.block.unknownParameters
                lineReceived = tagReader.block.receivedMilliseconds
                lineGroup = tagReader.block.group
                cursor += 1
            case .failed:
                countTagBlockFailure()
                cursor += 1
            case .stop:
                countTagBlockFailure()
            }
            state = .idle
            return cursor
        }
        return end
    }

    /// Counts a TAG block that did not read: by what was wrong, and its bytes (the opening `\` on) as garbage.
    private mutating func countTagBlockFailure() {
        statistics.garbageBytes += 1 + tagReader.length
        switch tagReader.error {
        case .checksumMismatch?: statistics.tagBlockChecksumMismatches += 1
        case .overlong?: statistics.overlongTagBlocks += 1
        case .malformed?, nil: statistics.malformedTagBlocks += 1
        }
    }

    /// At a line that starts with a digit: a Unix timestamp, a blank and a sentence (`1700000000.123 $GPRMC,…`)
    /// gives the sentence its receive time; anything else is garbage, as before. A timestamp has at least nine
    /// digits (1973 on), so that a line number or a count is never taken for one.
    private mutating func readLeadingTime(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>)
        -> UnsafePointer<UInt8>
    {
        var cursor = start
        while cursor < end {
            let byte = cursor.pointee
            if !leadingTimeEnded && leadingTime.take(byte) {
                // The number goes on.
            } else if (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")) && leadingTime.digitCount >= 9 {
                leadingTimeEnded = true
            } else {
                if leadingTimeEnded && (byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!")) {
                    statistics.leadingTimestamps += 1
                    lineReceived = leadingTime.milliseconds
                } else {
                    statistics.garbageBytes += leadingTimeBytes
                }
                state = .idle
                return cursor
            }
            leadingTimeBytes += 1
            cursor += 1
        }
        return end
    }

    /// Reads a binary frame from `start` (its first byte, or where it went on in a new chunk, its bytes so far in
    /// `held`): skips it once its checksum verifies; keeps its bytes while the chunk ends inside it; and when it
    /// proves no frame, counts its sync bytes as garbage and frames what followed them again.
    private mutating func readBinaryFrame<E: Error>(
        _ frame: BinaryFrameReader, from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>,
        _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) -> UnsafePointer<UInt8> {
        var frame = frame
        var cursor = start
        switch frame.read(&cursor, to: end) {
        case .verified:
            statistics.binaryFrameBytes += frame.length
            if frame.kind == .ubx { statistics.ubxFrames += 1 } else { statistics.rtcm3Frames += 1 }
            atLineStart = false
            state = .idle
            // Handed out whole: from the caller's bytes, or (begun in an earlier chunk) gathered in `held`.
            let bytes: UnsafeRawBufferPointer
            if heldCount == 0 {
                bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(cursor - frame.length), count: frame.length)
            } else {
                UnsafeMutableRawPointer(held + heldCount).copyMemory(from: start, byteCount: cursor - start)
                bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(held), count: frame.length)
            }
            heldCount = 0
            try body(.binaryFrame(BinaryFrame(kind: frame.kind, bytes: bytes, line: line)))
            return cursor
        case .incomplete:
            // Held, possibly over bytes being framed again (from `held` itself, further on): memmove.
            UnsafeMutableRawPointer(held + heldCount).copyMemory(from: start, byteCount: end - start)
            heldCount += end - start
            state = .binaryFrame(frame)
            return end
        case .rejected:
            // The held bytes after the sync bytes are framed again; then these, after any sync byte among them (the
            // frame may have begun here, or its `62` may be the first of these).
            let syncHere = frame.syncLength - min(frame.syncLength, heldCount)
            try reject(frame, body)
            return start + syncHere
        }
    }

    /// Counts a binary frame that proved none: its sync bytes are garbage.
    private mutating func count(rejected frame: BinaryFrameReader) {
        statistics.garbageBytes += frame.syncLength
        if frame.isPlausible { statistics.damagedBinaryFrames += 1 }
        atLineStart = false
        state = .idle
    }

    /// A frame begun in an earlier chunk that proved none, or was cut off by the end: frames its held bytes after
    /// the sync bytes again. Whatever those leave open (a sentence, another frame) goes on with the next bytes.
    private mutating func reject<E: Error>(_ frame: BinaryFrameReader, _ body: (FramerEvent) throws(E) -> Void)
        throws(E)
    {
        count(rejected: frame)
        let count = heldCount
        heldCount = 0
        try run(from: UnsafePointer(held) + min(frame.syncLength, count), to: UnsafePointer(held) + count, body)
    }

    // MARK: Checking a sentence

    /// Checks a sentence that ended (at a line ending when `lineEnded`, else at another stop byte) and hands it or
    /// its rejection to `body`. `xor` covers every byte after the start character.
    @inline(__always)
    private mutating func complete<E: Error>(
        _ start: UnsafePointer<UInt8>, count: Int, xor: UInt8, lineEnded: Bool,
        _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) {
        // Fast path: `*hh` with the right checksum and a short address.
        if count >= 9 && start[count - 3] == UInt8(ascii: "*") {
            let high = start[count - 2]
            let low = start[count - 1]
            if let highValue = Hex.value(of: high), let lowValue = Hex.value(of: low),
                highValue << 4 | lowValue == xor ^ UInt8(ascii: "*") ^ high ^ low,
                var sentence = Sentence(
                    framed: start, count: count - 3, checksum: highValue << 4 | lowValue, line: line)
            {
                statistics.sentences &+= 1
                if _slowPath(lineReceived != nil || lineGroup != nil) {
                    if lineReceived != nil { statistics.sentencesWithReceiveTime += 1 }
                    sentence.receivedMilliseconds = lineReceived
                    sentence.tagGroup = lineGroup
                    lineReceived = nil
                    lineGroup = nil
                }
                try body(.sentence(sentence))
                return
            }
        }
        try completeSlowly(start, count: count, xor: xor, lineEnded: lineEnded, body)
    }

    /// Everything but a well-formed sentence with a checksum: rejections, missing checksums, odd addresses.
    @inline(never)
    private mutating func completeSlowly<E: Error>(
        _ start: UnsafePointer<UInt8>, count: Int, xor: UInt8, lineEnded: Bool,
        _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) {
        if count == 1 {
            // A lone `$` (as in `$$GPGGA`) is noise, not a sentence.
            statistics.garbageBytes += 1
            return
        }
        var count = count
        var xor = xor
        // From a TAG block or a leading timestamp; taken by this sentence, accepted or not.
        var receivedMilliseconds = lineReceived
        let group = lineGroup
        lineReceived = nil
        lineGroup = nil
        if lineEnded, let suffix = Framer.receiveTimeSuffix(start, count: count) {
            // An Android GnssLogger line: `…*hh,<Unix ms>`. The time is the sentence's receive time, not a field.
            count -= suffix.length
            xor ^= suffix.xor
            receivedMilliseconds = suffix.milliseconds
        }
        switch Framer.check(start, count: count, xor: xor, lineEnded: lineEnded, policy: checksumPolicy) {
        case .success(let (length, checksum)):
            var sentence: Sentence
            do {
                // The byte after the sentence is its `*`, or the stop byte that ended it (for a sentence gathered in
                // `pending`, the caller wrote a line ending there).
                sentence = try Sentence(
                    terminated: UnsafeRawBufferPointer(start: start, count: length), checksum: checksum, line: line)
            } catch {
                try reject(error, start, count: count, body)
                return
            }
            statistics.sentences += 1
            if checksum == nil { statistics.sentencesWithoutChecksum += 1 }
            if let receivedMilliseconds {
                statistics.sentencesWithReceiveTime += 1
                sentence.receivedMilliseconds = receivedMilliseconds
            }
            sentence.tagGroup = group
            try body(.sentence(sentence))
        case .failure(let error):
            try reject(error, start, count: count, body)
        }
    }

    private mutating func reject<E: Error>(
        _ error: NMEAError, _ start: UnsafePointer<UInt8>, count: Int, _ body: (FramerEvent) throws(E) -> Void
    ) throws(E) {
        statistics.count(error)
        try body(
            .rejected(
                Rejection(
                    error: error, bytes: UnsafeRawBufferPointer(start: start, count: count),
                    line: line)))
    }

    /// The `,<digits>` after a sentence's `*hh` that an Android GnssLogger line ends with (`…*63,1699400577561`, the
    /// Unix time in milliseconds when the phone received it): its length, the XOR of its bytes, and its value.
    /// `nil` when the `count` bytes at `start` do not end so (one to eighteen digits).
    static func receiveTimeSuffix(_ start: UnsafePointer<UInt8>, count: Int)
        -> (length: Int, xor: UInt8, milliseconds: Int64)?
    {
        var cursor = start + count
        var value: Int64 = 0
        var unit: Int64 = 1
        var xor: UInt8 = 0
        while cursor > start, (cursor - 1).pointee &- UInt8(ascii: "0") < 10, start + count - cursor < 18 {
            cursor -= 1
            value += Int64(cursor.pointee &- UInt8(ascii: "0")) * unit
            unit &*= 10
            xor ^= cursor.pointee
        }
        let digits = start + count - cursor
        guard digits > 0, cursor - start >= 5, (cursor - 1).pointee == UInt8(ascii: ","),
            (cursor - 4).pointee == UInt8(ascii: "*")
        else { return nil }
        return (digits + 1, xor ^ UInt8(ascii: ","), value)
    }

    /// Checks the checksum of the `count` bytes at `start` (start character first; `xor` covers the rest).
    /// - Returns: the length of the sentence without `*hh`, and the checksum (`nil` when there was none).
    @inline(__always)
    static func check(
        _ start: UnsafePointer<UInt8>, count: Int, xor: UInt8, lineEnded: Bool, policy: ChecksumPolicy
    ) -> Result<(Int, UInt8?), NMEAError> {
        if count >= 4 && start[count - 3] == UInt8(ascii: "*") {
            let high = start[count - 2]
            let low = start[count - 1]
            guard let highValue = Hex.value(of: high), let lowValue = Hex.value(of: low) else {
                return .failure(lineEnded ? .malformedChecksum : .truncated)
            }
            let found = highValue << 4 | lowValue
            let calculated = xor ^ UInt8(ascii: "*") ^ high ^ low
            guard found == calculated else { return .failure(.checksumMismatch(calculated: calculated, found: found)) }
            return .success((count - 3, found))
        }
        // Without `*hh` at its end, a sentence cut off by something other than a line ending is just cut off.
        guard lineEnded else { return .failure(.truncated) }
        var cursor = start + 1
        while cursor < start + count {
            if cursor.pointee == UInt8(ascii: "*") { return .failure(.malformedChecksum) }
            cursor += 1
        }
        guard policy == .optional else { return .failure(.missingChecksum) }
        return .success((count, nil))
    }
}

@inline(__always)
private func isLineEnd(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
}

/// What the framer hands out: a sentence, or a line it rejected and why.
public enum FramerEvent {
    /// A sentence whose checksum matched (or that had none, under ``Framer/ChecksumPolicy/optional``).
    case sentence(Sentence)
    /// Something sentence-shaped that was not a valid sentence.
    case rejected(Rejection)
    /// A u-blox UBX or RTCM 3 frame whose checksum verified (a view valid only during the callback).
    case binaryFrame(BinaryFrame)
}

/// A rejected line: why, the offending bytes (a borrowed view, valid only during the callback), and where.
public struct Rejection {
    /// Why the line was rejected.
    public let error: NMEAError
    /// The bytes from the start character; for an overlong line, only the first ``Framer/maximumLength``.
    public let bytes: UnsafeRawBufferPointer
    /// The line it was on.
    public let line: Int
}
