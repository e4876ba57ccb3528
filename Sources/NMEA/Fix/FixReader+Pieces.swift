/// One input read in pieces on several threads: each piece framed and decoded by a reader of its own
/// (``FixReader/decode(_:into:handler:endsInput:)``), the decoded sentences then merged in input order into the fixes
/// by the one reader that assembles (``FixReader/assemble(_:decoded:_:)``). The same framer, decoders and assembler
/// as ``FixReader/read(_:handler:_:)``, and the same fixes: only the assembling is in order, on one thread.
///
/// A piece can be framed apart when the reader of the piece before it ended at the start of a line
/// (``FixReader/isAtLineStart``): cut a file after a line feed and it always is. When it is not (a piece that ends
/// inside an overlong line or a binary frame), decode the piece again with the reader of the piece before, which goes
/// on from where it stopped.
public struct DecodedSentences: @unchecked Sendable {
    /// What the assembler takes from one framed sentence or binary frame that is not plain bytes (a decoded value
    /// that holds references), kept aside in ``heavy``.
    enum Entry {
        case decoded(ParsedSentence)
        case frame(EpochReport)
    }

    /// Each record's head in ``arena``, followed by its value's bytes (read back unaligned).
    struct Head {
        static let decoded: UInt8 = 0
        static let unknown: UInt8 = 1
        static let frame: UInt8 = 2
        /// An entry of ``heavy``; `kind` unused.
        static let heavy: UInt8 = 3
        var tag: UInt8
        var hasReceived: Bool
        var kind: UInt16
        /// The bytes of the value after the head, or the index in ``heavy``.
        var size: UInt32
        var received: Int64
    }

    /// The records, in input order, in the first ``used`` bytes: a head and the plain bytes of the value (a decoded
    /// sentence, a ``SentenceSignature``, an ``EpochReport``); a value of a type that is not plain bytes goes to
    /// ``heavy``. Its bytes past ``used`` are room, kept from piece to piece: a record is two copies into it, not
    /// two appends to an array.
    var arena: [UInt8] = []
    var used = 0
    var heavy: [Entry] = []
    /// How many records.
    public private(set) var count = 0
    /// `false` for a piece whose sentences only its handler wants (no fixes are assembled from it).
    public let recordsSentences: Bool
    /// The framing and decoding counts of the piece's bytes.
    public internal(set) var statistics = FixReader.Statistics()

    /// An empty piece; `recordsSentences: false` keeps only the counts.
    public init(recordsSentences: Bool = true) {
        self.recordsSentences = recordsSentences
    }

    /// Makes room for the records of about `bytes` bytes of input (a multi-GNSS log's take about twice its bytes),
    /// so that the records are not copied as they grow.
    public mutating func reserveCapacity(forBytes bytes: Int) {
        if arena.count < 2 * bytes { grow(to: 2 * bytes) }
    }

    /// Makes the room at least `size` bytes, doubling it at the least: the records so far copied into a larger
    /// array, its room after them left as it comes (each record is written before it is read, so zeroing it first
    /// would only touch every page once more; element by element, as an append of zeros was, it cost a debug build
    /// more than the decoding).
    mutating func grow(to size: Int) {
        let count = max(size, 2 * arena.count, 4096)
        let used = self.used
        arena = arena.withUnsafeBytes { records in
            [UInt8](unsafeUninitializedCapacity: count) { room, initialized in
                UnsafeMutableRawBufferPointer(room).copyMemory(from: UnsafeRawBufferPointer(rebasing: records[..<used]))
                initialized = count
            }
        }
    }

    /// Empties the piece for the next one, keeping the memory its records took: a fresh tape for each piece of a
    /// file cost a page fault every 4 KiB it was written.
    public mutating func removeAll() {
        used = 0
        heavy.removeAll()
        count = 0
        statistics = FixReader.Statistics()
    }

    /// Bytes of memory the records take, for bounding what is held in flight.
    public var recordedBytes: Int { arena.capacity + heavy.capacity * MemoryLayout<Entry>.stride }

    /// Writes `head` and the bytes of `value` (its first `size`) after the records.
    @inline(__always)
    mutating func record<T>(_ head: Head, _ value: T, size: Int) {
        let end = used + MemoryLayout<Head>.stride + size
        if end > arena.count { grow(to: end) }
        let start = used
        arena.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: head, toByteOffset: start, as: Head.self)
            if size > 0 {
                withUnsafeBytes(of: value) { value in
                    (bytes.baseAddress! + start + MemoryLayout<Head>.stride).copyMemory(
                        from: value.baseAddress!, byteCount: size)
                }
            }
        }
        used = end
    }

    /// Appends a record of `value` (plain bytes) or of `entry` (kept aside) under `head`.
    @inline(__always)
    mutating func append<T>(_ head: Head, _ value: T, orElse entry: @autoclosure () -> Entry?) {
        var head = head
        count += 1
        if _isPOD(T.self) {
            head.size = UInt32(MemoryLayout<T>.size)
            record(head, value, size: MemoryLayout<T>.size)
        } else {
            head.tag = Head.heavy
            head.size = UInt32(heavy.count)
            heavy.append(entry()!)
            record(head, (), size: 0)
        }
    }
}

extension FixReader {
    /// `true` when the next byte starts a line afresh: the framer holds nothing of a line, a sentence or a binary
    /// frame, and the input is read as ASCII. A fresh reader (with ``Options/assemblesFixes`` `false`) then frames
    /// and decodes what follows as this one would.
    public var isAtLineStart: Bool { framer.isAtLineStart && transcoder.encoding == .ascii }

    /// Frames and decodes `bytes`, the next piece of the input, without assembling: `handler` sees each sentence as
    /// in ``read(_:handler:_:)``, and each decoded sentence is recorded in `piece` for
    /// ``assemble(_:decoded:_:)``, with the counts of the piece's bytes. `endsInput` when the piece is the last of
    /// its input (a last line without a line ending is framed, the reader is ready for the next input).
    ///
    /// Only for a reader made with ``Options/assemblesFixes`` `false`.
    /// - Complexity: O(*n*) in the bytes; the recorded sentences grow `piece`.
    public mutating func decode<H: Handler>(
        _ bytes: UnsafeRawBufferPointer, into piece: inout DecodedSentences, handler: inout H, endsInput: Bool
    ) {
        precondition(!options.assemblesFixes, "a reader that decodes pieces assembles no fixes")
        // The piece's counts: the framer's and the decoder's since here (not the whole ``statistics``, which copies
        // every counter of the reader twice a piece).
        let framerBefore = framer.statistics
        let decoderBefore = stream.decoder
        var recorder = Recorder(
            inner: handler, frameDecoder: options.frameDecoder, sentenceDecoder: options.sentenceDecoder,
            piece: DecodedSentences())
        swap(&recorder.piece, &piece)
        withUnsafeMutablePointer(to: &recorder) { recorder in
            let handler = UnsafeMutableRawPointer(recorder)
            read(bytes, handler, as: Dispatch<Recorder<H>>.self) { _ in }
            if endsInput { finish(handler, as: Dispatch<Recorder<H>>.self) { _ in } }
        }
        swap(&recorder.piece, &piece)
        handler = recorder.inner
        piece.statistics.framer = piece.statistics.framer + framer.statistics.since(framerBefore)
        piece.statistics.decoder += stream.decoder.since(decoderBefore)
    }

    /// Frames and decodes `bytes` into `piece`, with no handler (see ``decode(_:into:handler:endsInput:)``).
    public mutating func decode(_ bytes: UnsafeRawBufferPointer, into piece: inout DecodedSentences, endsInput: Bool) {
        var none = NoHandler()
        decode(bytes, into: &piece, handler: &none, endsInput: endsInput)
    }

    /// Merges a decoded piece of the input into the fixes, as reading its bytes here would have: `decoded` sees each
    /// decoded sentence of the kinds in `kinds` first, `fix` each fix it completes. Pieces go in input order; after
    /// the last piece of an input, ``finish(_:)`` ends it. The piece's counts join ``statistics``.
    /// - Complexity: O(*n*) in the piece's sentences; no allocation.
    public mutating func assemble(
        _ piece: borrowing DecodedSentences, sentencesOf kinds: [SentenceKind] = [],
        decoded: (ParsedSentence) -> Void = { _ in }, _ fix: (Fix) -> Void
    ) {
        assembledPieces.framer = assembledPieces.framer + piece.statistics.framer
        assembledPieces.decoder += piece.statistics.decoder
        guard options.assemblesFixes || !kinds.isEmpty else { return }
        var wanted: (UInt64, UInt64) = (0, 0)
        for kind in kinds {
            if kind.rawValue < 64 { wanted.0 |= 1 << kind.rawValue } else { wanted.1 |= 1 << (kind.rawValue - 64) }
        }
        let heavy = piece.heavy
        piece.arena.withUnsafeBytes { arena in
            withUnsafeMutablePointer(to: &stream.assembler) { assembler in
                withoutActuallyEscaping(decoded) { decoded in
                    withoutActuallyEscaping(fix) { fix in
                        var replay = Replay(
                            assembler: assembler, assembles: options.assemblesFixes, wanted: wanted, decoded: decoded,
                            fix: fix)
                        var offset = 0
                        while offset < piece.used {
                            let head = arena.loadUnaligned(fromByteOffset: offset, as: DecodedSentences.Head.self)
                            offset += MemoryLayout<DecodedSentences.Head>.stride
                            if head.tag == DecodedSentences.Head.heavy {
                                replay.take(heavy[Int(head.size)], head)
                                continue
                            }
                            replay.take(head, at: arena.baseAddress! + offset)
                            offset += Int(head.size)
                        }
                    }
                }
            }
        }
    }

    /// Merges one record into the assembler.
    struct Replay: SentenceDecoderBody {
        let assembler: UnsafeMutablePointer<FixAssembler>
        let assembles: Bool
        let wanted: (UInt64, UInt64)
        let decoded: (ParsedSentence) -> Void
        let fix: (Fix) -> Void
        var value: UnsafeRawPointer? = nil

        mutating func take(_ head: DecodedSentences.Head, at value: UnsafeRawPointer) {
            if head.hasReceived && assembles { assembler.pointee.noteReceiveTime(head.received) }
            switch head.tag {
            case DecodedSentences.Head.decoded:
                self.value = value
                SentenceKind(rawValue: Int(head.kind))!.withDecoder(&self)
            case DecodedSentences.Head.unknown:
                guard assembles else { return }
                assembler.pointee.finishSentence(value.loadUnaligned(as: SentenceSignature.self))
                assembler.pointee.handOut(fix)
            default:
                guard assembles else { return }
                withUnsafeTemporaryAllocation(of: EpochReport.self, capacity: 1) { report in
                    UnsafeMutableRawPointer(report.baseAddress!).copyMemory(
                        from: value, byteCount: MemoryLayout<EpochReport>.size)
                    assembler.pointee.add(report[0], fix)
                }
            }
        }

        mutating func take(_ entry: DecodedSentences.Entry, _ head: DecodedSentences.Head) {
            if head.hasReceived && assembles { assembler.pointee.noteReceiveTime(head.received) }
            switch entry {
            case .decoded(let sentence):
                if let kind = sentence.kind, isWanted(kind) { decoded(sentence) }
                if assembles { assembler.pointee.add(sentence, fix) }
            case .frame(let report):
                if assembles { assembler.pointee.add(report, fix) }
            }
        }

        @inline(__always)
        func isWanted(_ kind: SentenceKind) -> Bool {
            let bit = kind.rawValue
            return bit < 64 ? wanted.0 & (1 << bit) != 0 : wanted.1 & (1 << (bit - 64)) != 0
        }

        mutating func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) {
            withUnsafeTemporaryAllocation(of: S.self, capacity: 1) { sentence in
                UnsafeMutableRawPointer(sentence.baseAddress!).copyMemory(from: value!, byteCount: MemoryLayout<S>.size)
                if isWanted(S.kind) { decoded(parsed(sentence[0])) }
                guard assembles else { return }
                assembler.pointee.merge(sentence[0])
                assembler.pointee.handOut(fix)
            }
        }
    }

    /// Hands every event to the inner handler, and records what the assembler takes.
    struct Recorder<Inner: Handler>: Handler {
        var inner: Inner
        let frameDecoder: FrameDecoder?
        let sentenceDecoder: SentenceDecoder?
        var piece: DecodedSentences

        @inline(__always)
        static func head(_ tag: UInt8, _ sentence: Sentence, kind: Int = 0) -> DecodedSentences.Head {
            DecodedSentences.Head(
                tag: tag, hasReceived: sentence.receivedMilliseconds != nil, kind: UInt16(kind), size: 0,
                received: sentence.receivedMilliseconds ?? 0)
        }

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: Context) {
            inner.sentence(sentence, decoded: decoded, context)
            guard piece.recordsSentences else { return }
            let head = Self.head(DecodedSentences.Head.decoded, sentence, kind: S.kind.rawValue)
            piece.append(head, decoded, orElse: .decoded(ParsedSentence(decoded)))
        }

        mutating func unknownSentence(_ sentence: Sentence, _ context: Context) {
            inner.unknownSentence(sentence, context)
            guard piece.recordsSentences else { return }
            if let sentenceDecoder, let report = sentenceDecoder(sentence) {
                // Merged as its report, as a reader that assembles merges it (``Dispatch/visitUnknown(_:)``).
                piece.append(Self.head(DecodedSentences.Head.frame, sentence), report, orElse: .frame(report))
                return
            }
            let signature = SentenceSignature(sentence.talker, sentence.type)
            piece.append(Self.head(DecodedSentences.Head.unknown, sentence), signature, orElse: nil)
        }

        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: Context) {
            inner.undecodableSentence(sentence, error: error, context)
        }

        mutating func rejected(_ rejection: Rejection, _ context: Context) {
            inner.rejected(rejection, context)
        }

        mutating func binaryFrame(_ frame: BinaryFrame, _ context: Context) {
            inner.binaryFrame(frame, context)
            guard piece.recordsSentences, let frameDecoder, let report = frameDecoder(frame) else { return }
            let head = DecodedSentences.Head(
                tag: DecodedSentences.Head.frame, hasReceived: false, kind: 0, size: 0, received: 0)
            piece.append(head, report, orElse: .frame(report))
        }

        mutating func skippedSentence(
            _ sentence: Sentence, kind: SentenceKind, place: SentenceSignature, _ context: Context
        ) {
            inner.skippedSentence(sentence, kind: kind, place: place, context)
            // Only its place in the cycle, as an unknown sentence's.
            guard piece.recordsSentences else { return }
            piece.append(Self.head(DecodedSentences.Head.unknown, sentence), place, orElse: nil)
        }
    }
}
