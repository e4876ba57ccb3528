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
    /// What the assembler takes from one framed sentence or binary frame, in input order.
    enum Entry {
        /// A sentence of a type decoded here, with its receive time where the input gave one.
        case decoded(ParsedSentence, received: Int64?)
        /// A sentence of a type not decoded here: only its place in the receiver's cycle counts.
        case unknown(SentenceSignature, received: Int64?)
        /// What a binary frame told of its epoch (``FixReader/Options/frameDecoder``).
        case frame(EpochReport)
    }

    /// The sentences and frames, in input order (none unless ``recordsSentences``).
    var entries: [Entry] = []
    /// `false` for a piece whose sentences only its handler wants (no fixes are assembled from it).
    public let recordsSentences: Bool
    /// The framing and decoding counts of the piece's bytes.
    public internal(set) var statistics = FixReader.Statistics()

    /// An empty piece; `recordsSentences: false` keeps only the counts.
    public init(recordsSentences: Bool = true) {
        self.recordsSentences = recordsSentences
    }

    /// The sentences and frames recorded.
    public var count: Int { entries.count }

    /// Bytes of memory the recorded sentences take (their array's storage), for bounding what is held in flight.
    public var recordedBytes: Int { entries.capacity * MemoryLayout<Entry>.stride }
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
        let before = statistics
        var recorder = Recorder(inner: handler, frameDecoder: options.frameDecoder, records: piece.recordsSentences)
        swap(&recorder.entries, &piece.entries)
        read(bytes, handler: &recorder) { _ in }
        if endsInput { finish(handler: &recorder) { _ in } }
        swap(&recorder.entries, &piece.entries)
        handler = recorder.inner
        let after = statistics
        piece.statistics.framer = piece.statistics.framer + after.framer.since(before.framer)
        piece.statistics.decoder = piece.statistics.decoder + after.decoder.since(before.decoder)
    }

    /// Merges a decoded piece of the input into the fixes, as reading its bytes here would have: `decoded` sees each
    /// decoded sentence first, `fix` each fix it completes. Pieces go in input order; after the last piece of an
    /// input, ``finish(_:)`` ends it. The piece's counts join ``statistics``.
    /// - Complexity: O(*n*) in the piece's sentences; no allocation.
    public mutating func assemble(
        _ piece: borrowing DecodedSentences, decoded: (ParsedSentence) -> Void = { _ in }, _ fix: (Fix) -> Void
    ) {
        assembledPieces.framer = assembledPieces.framer + piece.statistics.framer
        assembledPieces.decoder = assembledPieces.decoder + piece.statistics.decoder
        let assembles = options.assemblesFixes
        piece.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                switch entries[index] {
                case .decoded(let sentence, let received):
                    decoded(sentence)
                    guard assembles else { continue }
                    if let received { stream.assembler.noteReceiveTime(received) }
                    stream.assembler.add(sentence, fix)
                case .unknown(let signature, let received):
                    guard assembles else { continue }
                    if let received { stream.assembler.noteReceiveTime(received) }
                    stream.assembler.finishSentence(signature)
                    stream.assembler.handOut(fix)
                case .frame(let report):
                    guard assembles else { continue }
                    stream.assembler.add(report, fix)
                }
            }
        }
    }

    /// Hands every event to the inner handler, and records what the assembler takes.
    struct Recorder<Inner: Handler>: Handler {
        var inner: Inner
        let frameDecoder: FrameDecoder?
        let records: Bool
        var entries: [DecodedSentences.Entry] = []

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: Context) {
            inner.sentence(sentence, decoded: decoded, context)
            if records { entries.append(.decoded(ParsedSentence(decoded), received: sentence.receivedMilliseconds)) }
        }

        mutating func unknownSentence(_ sentence: Sentence, _ context: Context) {
            inner.unknownSentence(sentence, context)
            guard records else { return }
            let signature = SentenceSignature(sentence.talker, sentence.type)
            entries.append(.unknown(signature, received: sentence.receivedMilliseconds))
        }

        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: Context) {
            inner.undecodableSentence(sentence, error: error, context)
        }

        mutating func rejected(_ rejection: Rejection, _ context: Context) {
            inner.rejected(rejection, context)
        }

        mutating func binaryFrame(_ frame: BinaryFrame, _ context: Context) {
            inner.binaryFrame(frame, context)
            if records, let frameDecoder, let report = frameDecoder(frame) { entries.append(.frame(report)) }
        }
    }
}
