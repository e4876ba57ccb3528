/// The one stream from bytes to fixes: ``Framer``, the decoders and ``FixAssembler`` in one value, with all their
/// counters in ``statistics``.
///
/// Feed it bytes in any chunking (a file's blocks, a serial port's reads, one byte at a time: the fixes are the
/// same), and call ``finish(_:)`` at the end of each input. Each input's first bytes tell its encoding
/// (``inputEncoding``): UTF-16 with its byte-order mark is transcoded to ASCII before framing, as it streams. A reader that reads several files finishes each one, so
/// the last epoch of one file is never merged into the first of the next.
///
///     var reader = FixReader()
///     for chunk in chunks {
///         chunk.withUnsafeBytes { bytes in
///             reader.read(bytes) { fix in print(fix.latitude as Any, fix.mode) }
///         }
///     }
///     reader.finish { fix in print(fix.latitude as Any, fix.mode) }   // the last epoch, fixes held for a date
///     print(reader.statistics.framer.rejected, reader.statistics.decoder.failed)
///
/// To see each sentence as well — its bytes, its decoded value or why it did not decode — and each rejected line,
/// pass a ``Handler``:
///
///     struct Speeds: FixReader.Handler {
///         var fastest = 0.0
///         mutating func sentence<S: DecodableSentence>(
///             _ sentence: Sentence, decoded: S, _ context: FixReader.Context
///         ) {
///             if let rmc = decoded as? RMC { fastest = max(fastest, rmc.speedKnots?.doubleValue ?? 0) }
///         }
///     }
///     var speeds = Speeds()
///     reader.read(bytes, handler: &speeds) { fix in … }
///
/// Each sentence is decoded once: the value the handler sees is the one merged into the fix, and without a handler
/// no ``ParsedSentence`` is built. A field that does not read costs only itself: the sentence is decoded without it
/// (``Context/fieldErrors`` says which, ``DecoderStatistics/withFieldErrors`` counts them) and its other fields are
/// merged. Nothing on this path allocates per sentence.
public struct FixReader: ~Copyable {
    /// How the input is read.
    public struct Options: Sendable {
        /// The longest sentence accepted (see ``Framer/maximumLength``).
        public var maximumLength: Int
        /// Whether sentences without a checksum are accepted.
        public var checksumPolicy: Framer.ChecksumPolicy
        /// How sentences become fixes (dates for logs that send none, provisional first fixes…).
        public var assembler: FixAssembler.Options
        /// `false` to frame and decode only (no fixes are assembled): for tools that want the sentences alone.
        public var assemblesFixes: Bool
        /// What binary frames add to the epochs: the `UBX` module's `UBXEpochs.report(_:)` reads u-blox navigation
        /// messages into an ``EpochReport``. Without one, binary frames reach only the handler.
        public var frameDecoder: FrameDecoder?
        /// What sentences of no type decoded here add to the epochs, when given: the `AIS` module's
        /// `AISOwnShip.report(_:)` reads the own ship's position reports (`!AIVDO`). A sentence it reads is merged as
        /// its report, in place of an unknown sentence.
        public var sentenceDecoder: SentenceDecoder?
        /// `false` when nothing that takes the fixes looks at the satellites in view (``Fix/satellites``): GSV
        /// sentences are then framed, checked and placed in the receiver's cycle, but their satellites are not read
        /// (a bad satellite field goes unnoticed), the handler sees them as ``Handler/skippedSentence(_:kind:place:_:)``,
        /// ``DecoderStatistics/skipped`` counts them, and fixes carry no sky from them. Tracks and trips need no sky,
        /// and GSV is most of a multi-GNSS receiver's output.
        public var readsSky: Bool

        /// Options with the given values.
        public init(
            maximumLength: Int = 1024, checksumPolicy: Framer.ChecksumPolicy = .required,
            assembler: FixAssembler.Options = FixAssembler.Options(), assemblesFixes: Bool = true,
            frameDecoder: FrameDecoder? = nil, sentenceDecoder: SentenceDecoder? = nil, readsSky: Bool = true
        ) {
            self.maximumLength = maximumLength
            self.checksumPolicy = checksumPolicy
            self.assembler = assembler
            self.assemblesFixes = assemblesFixes
            self.frameDecoder = frameDecoder
            self.sentenceDecoder = sentenceDecoder
            self.readsSky = readsSky
        }
    }

    /// Reads a binary frame into what it tells about its epoch; `nil` for a frame that tells nothing (a message of
    /// no epoch, a type not decoded).
    public typealias FrameDecoder = @Sendable (BinaryFrame) -> EpochReport?

    /// Reads a sentence of a type the core does not decode into what it tells about its epoch; `nil` for one that
    /// tells nothing.
    public typealias SentenceDecoder = @Sendable (Sentence) -> EpochReport?

    /// Every counter of the stream, over every input read so far.
    public struct Statistics: Hashable, Sendable {
        /// What the framer saw: sentences, rejected lines by reason, garbage, comments, bytes.
        public var framer = FramerStatistics()
        /// Sentences decoded per type, unknown types, decode failures.
        public var decoder = DecoderStatistics()
        /// Fixes made, held for a date, late sentences…
        public var assembler = FixAssembler.Statistics()

        /// All counts zero.
        public init() {}
    }

    /// What the reader knows about one sentence beyond its bytes, handed to the ``Handler`` with it.
    ///
    /// The one place for facts about where a sentence came from: a receive time (from a TAG block, a capture's
    /// timestamps or an Android `NMEA,…,<ms>` line) belongs here.
    public struct Context: Sendable, Hashable {
        /// The line of the input the sentence (or the rejected line) was on, counting from 1 at each input's start.
        public var line: Int
        /// The fields of the sentence that did not read: each is absent from the decoded value, whose other fields
        /// are all there (and merged into the fix). Empty for a sentence whose every field read.
        public var fieldErrors: FieldErrors
        /// When the sentence was received, in milliseconds since 1970-01-01 UTC, where the input says
        /// (``Sentence/receivedMilliseconds``: an Android GnssLogger line's time); `nil` when it does not.
        public var receivedMilliseconds: Int64?

        /// The context of line `line`.
        public init(line: Int, fieldErrors: FieldErrors = FieldErrors(), receivedMilliseconds: Int64? = nil) {
            self.line = line
            self.fieldErrors = fieldErrors
            self.receivedMilliseconds = receivedMilliseconds
        }

        /// The context of `sentence` as framed.
        init(_ sentence: Sentence, fieldErrors: FieldErrors = FieldErrors()) {
            self.init(
                line: sentence.line, fieldErrors: fieldErrors, receivedMilliseconds: sentence.receivedMilliseconds)
        }
    }

    /// The options it was made with.
    public let options: Options
    var transcoder = InputTranscoder()
    var framer: Framer
    var stream: Stream
    /// The encoding of the last input finished (`nil` for one without a byte).
    private var finishedEncoding: InputEncoding?
    /// The framing and decoding counts of pieces decoded by other readers and assembled here
    /// (``assemble(_:decoded:_:)``).
    var assembledPieces = Statistics()

    /// A reader for the first input.
    public init(options: Options = Options()) {
        self.init(options, Framer(maximumLength: options.maximumLength, checksumPolicy: options.checksumPolicy))
    }

    /// A reader whose framer keeps a sentence or frame split across reads in `framerStorage`, memory the caller
    /// provides and keeps for the reader's lifetime (see ``Framer/init(maximumLength:checksumPolicy:storage:)``, and
    /// ``Framer/storageSize(maximumLength:binaryFrames:)`` for its size). Such a reader allocates nothing, ever, for
    /// ASCII input whose fixes have dates (a UTF-16 input's transcoding buffer, fixes held for a date, and a sentence
    /// that completes several fixes take the heap): firmware without a heap uses this.
    public init(options: Options = Options(), framerStorage: UnsafeMutableRawBufferPointer) {
        self.init(
            options,
            Framer(
                maximumLength: options.maximumLength, checksumPolicy: options.checksumPolicy, storage: framerStorage))
    }

    private init(_ options: Options, _ framer: consuming Framer) {
        self.options = options
        self.framer = framer
        stream = Stream(
            assembler: FixAssembler(options: options.assembler), assemblesFixes: options.assemblesFixes,
            frameDecoder: options.frameDecoder, sentenceDecoder: options.sentenceDecoder, readsSky: options.readsSky)
    }

    /// Every counter, over every input so far.
    public var statistics: Statistics {
        var statistics = Statistics()
        statistics.framer = framer.statistics + assembledPieces.framer
        statistics.decoder = stream.decoder + assembledPieces.decoder
        statistics.assembler = stream.assembler.statistics
        return statistics
    }

    /// How the input being read is encoded (told by its first bytes: a UTF-16 byte-order mark, or none), or, between
    /// inputs, how the last one was; `nil` before any byte.
    public var inputEncoding: InputEncoding? { transcoder.encoding ?? finishedEncoding }

    // MARK: Reading

    /// Reads `bytes`, the next part of the input, calling `fix` with each fix they complete.
    /// - Complexity: O(*n*) in the bytes; no allocation.
    public mutating func read(_ bytes: UnsafeRawBufferPointer, _ fix: (Fix) -> Void) {
        var none = NoHandler()
        withUnsafeMutablePointer(to: &none) {
            read(bytes, UnsafeMutableRawPointer($0), as: Dispatch<NoHandler>.self, fix)
        }
    }

    /// Reads `bytes`, the next part of the input: `handler` sees each sentence and each rejected line as it is
    /// framed, and `fix` each fix, after the sentence that completed it.
    /// - Complexity: O(*n*) in the bytes; no allocation.
    public mutating func read<H: Handler>(_ bytes: UnsafeRawBufferPointer, handler: inout H, _ fix: (Fix) -> Void) {
        // The handler's visitor type, found once per read and handed down: a caller that is not specialized for `H`
        // (another module's) would otherwise look the generic type up for every sentence, a tenth of the reading.
        let visitor: any Visitor.Type = Dispatch<H>.self
        withUnsafeMutablePointer(to: &handler) { read(bytes, UnsafeMutableRawPointer($0), as: visitor, fix) }
    }

    /// Reads `bytes` with each event handed to `visitor` for the handler `handler` points to.
    mutating func read<V: Visitor>(
        _ bytes: UnsafeRawBufferPointer, _ handler: UnsafeMutableRawPointer, as visitor: V.Type,
        _ fix: (Fix) -> Void
    ) {
        withUnsafeMutablePointer(to: &stream) { stream in
            withUnsafeMutablePointer(to: &framer) { framer in
                transcoder.transcode(bytes) { ascii in
                    framer.pointee.feed(ascii) { event in stream.pointee.take(event, as: visitor, handler, fix) }
                }
            }
        }
    }

    /// Reads bytes held in any collection (`[UInt8]`, `ArraySlice`, `Data`…).
    public mutating func read(_ bytes: some Sequence<UInt8>, _ fix: (Fix) -> Void) {
        var none = NoHandler()
        read(bytes, handler: &none, fix)
    }

    /// Reads bytes held in any collection, with a handler.
    public mutating func read<H: Handler>(_ bytes: some Sequence<UInt8>, handler: inout H, _ fix: (Fix) -> Void) {
        let done: Void? = bytes.withContiguousStorageIfAvailable {
            read(UnsafeRawBufferPointer($0), handler: &handler, fix)
        }
        if done == nil { Array(bytes).withUnsafeBytes { read($0, handler: &handler, fix) } }
    }

    /// Tells the reader when the bytes of its next ``read(_:_:)`` arrived: `nanoseconds` since 1970 on the system
    /// clock, read right after the `read` syscall, before framing. Each epoch's fix then carries the time of the
    /// read that delivered its first byte (``Fix/receivedNanoseconds``), for reference clocks. Readers never told
    /// leave it `nil` and pay nothing.
    /// - Complexity: O(1).
    public mutating func noteRead(atNanoseconds nanoseconds: Int64) {
        stream.readNanoseconds = nanoseconds
        if framer.isBetweenSentences { stream.assembler.sentenceReceivedNanoseconds = nanoseconds }
    }

    // MARK: Ends and restarts

    /// Ends one input (a file, a pipe that closed): a last line without a line ending is framed, the epoch in
    /// progress becomes a fix and fixes held for a date are handed out without one. The reader is then ready for the
    /// next input, which starts afresh: line numbers from 1, no epoch, learned cycle or sky carried over. Only the
    /// dates are kept, so that a log cut in two reads as one.
    public mutating func finish(_ fix: (Fix) -> Void) {
        var none = NoHandler()
        withUnsafeMutablePointer(to: &none) { finish(UnsafeMutableRawPointer($0), as: Dispatch<NoHandler>.self, fix) }
    }

    /// Ends one input, with a handler for the last line.
    public mutating func finish<H: Handler>(handler: inout H, _ fix: (Fix) -> Void) {
        let visitor: any Visitor.Type = Dispatch<H>.self
        withUnsafeMutablePointer(to: &handler) { finish(UnsafeMutableRawPointer($0), as: visitor, fix) }
    }

    /// Ends one input with each event handed to `visitor` for the handler `handler` points to.
    mutating func finish<V: Visitor>(_ handler: UnsafeMutableRawPointer, as visitor: V.Type, _ fix: (Fix) -> Void) {
        withUnsafeMutablePointer(to: &stream) { stream in
            withUnsafeMutablePointer(to: &framer) { framer in
                finishedEncoding = transcoder.finish { ascii in
                    framer.pointee.feed(ascii) { event in stream.pointee.take(event, as: visitor, handler, fix) }
                }
                framer.pointee.finish { event in stream.pointee.take(event, as: visitor, handler, fix) }
            }
        }
        stream.endInput(fix)
        framer.reset()
    }

    /// The source went away in the middle of its stream (a receiver unplugged): the epoch in progress becomes a
    /// fix and held fixes are handed out, as at the end of a file, but a sentence cut off by the loss is dropped,
    /// not framed. The reader is then ready for the next connection.
    public mutating func disconnect(_ fix: (Fix) -> Void) {
        stream.endInput(fix)
        transcoder.reset()
        framer.reset()
    }

    /// Starts afresh for a new input or a reconnection without handing anything out: a partial line is dropped,
    /// the epoch in progress, the learned cycle and the sky are forgotten (dates are kept). Counters are kept.
    public mutating func reset() {
        transcoder.reset()
        framer.reset()
        stream.assembler.startNewInput()
    }
}

extension FixReader {
    /// Sees what a ``FixReader`` reads besides fixes: each framed sentence with its decoded value, or why it did
    /// not decode, and each rejected line. Implement what you need; the rest does nothing (and costs nothing).
    ///
    /// The ``Sentence`` views are valid only during the call, like the framer's.
    public protocol Handler {
        /// A sentence of a type this library decodes, with its value (already merged into the fix in progress
        /// when the call returns). Fields that did not read are absent from it and listed in
        /// ``Context/fieldErrors``.
        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: Context)
        /// A sentence of a type no decoder reads.
        mutating func unknownSentence(_ sentence: Sentence, _ context: Context)
        /// A sentence whose checksum was right but that had nothing to decode (not a single field).
        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: Context)
        /// A line the framer rejected: bad checksum, overlong, truncated…
        mutating func rejected(_ rejection: Rejection, _ context: Context)
        /// A binary frame (UBX, RTCM 3) whose checksum verified, before what it tells is merged.
        mutating func binaryFrame(_ frame: BinaryFrame, _ context: Context)
        /// A sentence of a kind the reader was told not to decode (GSV, when ``Options/readsSky`` is `false`): its
        /// checksum was right, and `place` is its place in the receiver's cycle, which the assembler takes.
        mutating func skippedSentence(
            _ sentence: Sentence, kind: SentenceKind, place: SentenceSignature, _ context: Context)
    }

    /// A handler that wants nothing: fixes only.
    struct NoHandler: Handler {}
}

extension FixReader.Handler {
    /// Nothing: decoded sentences only go into fixes unless you implement it.
    @inlinable
    public mutating func sentence<S: DecodableSentence>(
        _ sentence: Sentence, decoded: S, _ context: FixReader.Context
    ) {}
    /// Nothing, unless you implement it.
    @inlinable
    public mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) {}
    /// Nothing, unless you implement it (the decoder statistics count it).
    @inlinable
    public mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {}
    /// Nothing, unless you implement it (the framer statistics count it).
    @inlinable
    public mutating func rejected(_ rejection: Rejection, _ context: FixReader.Context) {}
    /// Nothing, unless you implement it (the framer statistics count it).
    @inlinable
    public mutating func binaryFrame(_ frame: BinaryFrame, _ context: FixReader.Context) {}
    /// Nothing, unless you implement it (the decoder statistics count it).
    @inlinable
    public mutating func skippedSentence(
        _ sentence: Sentence, kind: SentenceKind, place: SentenceSignature, _ context: FixReader.Context
    ) {}
}

extension FixReader {
    /// Everything after framing: decoding, assembling, counting. Separate from the framer so that the framer's
    /// callback can reach it while the framer runs.
    struct Stream {
        var assembler: FixAssembler
        var decoder = DecoderStatistics()
        let assemblesFixes: Bool
        let frameDecoder: FrameDecoder?
        let sentenceDecoder: SentenceDecoder?
        /// ``Options/readsSky`` turned round.
        let skipsSky: Bool
        /// The time of the read being framed (``FixReader/noteRead(atNanoseconds:)``); `nil` when never told.
        var readNanoseconds: Int64?

        init(
            assembler: FixAssembler, assemblesFixes: Bool, frameDecoder: FrameDecoder?,
            sentenceDecoder: SentenceDecoder?, readsSky: Bool
        ) {
            self.assembler = assembler
            self.assemblesFixes = assemblesFixes
            self.frameDecoder = frameDecoder
            self.sentenceDecoder = sentenceDecoder
            skipsSky = !readsSky
        }

        /// One framer event: a sentence is decoded once, handed to the handler and merged; the fixes it completes
        /// follow it.
        @inline(__always)
        mutating func take<V: Visitor>(
            _ event: FramerEvent, as visitor: V.Type, _ handler: UnsafeMutableRawPointer, _ fix: (Fix) -> Void
        ) {
            switch event {
            case .sentence(let sentence):
                let kind = SentenceKind(sentence)
                if _slowPath(skipsSky && kind == .gsv) { return skipSky(sentence, visitor, handler, fix) }
                var fieldErrors = FieldErrors()
                let outcome = withUnsafeMutablePointer(to: &assembler) {
                    assembler -> Result<SentenceKind?, NMEAError> in
                    withUnsafeMutablePointer(to: &fieldErrors) { errors in
                        var dispatch = V(
                            assembler: assembler, handler: handler, sentence: sentence, fieldErrors: errors,
                            assemblesFixes: assemblesFixes, sentenceDecoder: sentenceDecoder)
                        do throws(NMEAError) {
                            return .success(try sentence.decode(as: kind, into: &dispatch, fieldErrors: errors))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                switch outcome {
                case .success(let kind):
                    decoder.record(kind)
                    if !fieldErrors.isEmpty { decoder.recordFieldErrors() }
                case .failure(let error):
                    decoder.recordFailure()
                    V.undecodableSentence(handler, sentence, error: error, Context(sentence))
                }
                assembler.handOut(fix)
                // The next sentence starts in the read being framed.
                if _slowPath(readNanoseconds != nil) { assembler.sentenceReceivedNanoseconds = readNanoseconds }
            case .rejected(let rejection):
                V.rejected(handler, rejection, Context(line: rejection.line))
                if _slowPath(readNanoseconds != nil) { assembler.sentenceReceivedNanoseconds = readNanoseconds }
            case .binaryFrame(let frame):
                takeFrame(frame, visitor, handler, fix)
            }
        }

        /// A GSV not decoded (``Options/readsSky``): counted, to the handler, its place in the cycle taken.
        mutating func skipSky<V: Visitor>(
            _ sentence: Sentence, _ visitor: V.Type, _ handler: UnsafeMutableRawPointer, _ fix: (Fix) -> Void
        ) {
            do throws(NMEAError) {
                let signature = try GSV.cycleSignature(of: sentence)
                decoder.recordSkipped()
                V.skippedSentence(handler, sentence, kind: .gsv, place: signature, Context(sentence))
                if assemblesFixes {
                    if let received = sentence.receivedMilliseconds { assembler.noteReceiveTime(received) }
                    assembler.finishSentence(signature)
                }
            } catch {
                // Not a single field: undecodable, as decoding it would have found.
                decoder.recordFailure()
                V.undecodableSentence(handler, sentence, error: error, Context(sentence))
            }
            assembler.handOut(fix)
            if _slowPath(readNanoseconds != nil) { assembler.sentenceReceivedNanoseconds = readNanoseconds }
        }

        /// A binary frame: to the handler, then what it tells into the epoch.
        mutating func takeFrame<V: Visitor>(
            _ frame: BinaryFrame, _ visitor: V.Type, _ handler: UnsafeMutableRawPointer, _ fix: (Fix) -> Void
        ) {
            V.binaryFrame(handler, frame, Context(line: frame.line))
            if assemblesFixes, let frameDecoder, let report = frameDecoder(frame) {
                assembler.add(report, fix)
            }
            if _slowPath(readNanoseconds != nil) { assembler.sentenceReceivedNanoseconds = readNanoseconds }
        }

        /// The end of an input: the epoch in progress and held fixes are handed out, and the assembler forgets the
        /// epoch and the learned cycle.
        mutating func endInput(_ fix: (Fix) -> Void) {
            guard assemblesFixes else { return }
            assembler.finish(fix)
            assembler.startNewInput()
        }
    }

    /// What ``Stream`` hands each event to: a ``Dispatch`` for the reader's handler, its type found once per read
    /// (``read(_:handler:_:)``) and passed down as a generic parameter.
    protocol Visitor: SentenceVisitor {
        init(
            assembler: UnsafeMutablePointer<FixAssembler>, handler: UnsafeMutableRawPointer, sentence: Sentence,
            fieldErrors: UnsafeMutablePointer<FieldErrors>, assemblesFixes: Bool, sentenceDecoder: SentenceDecoder?)
        static func undecodableSentence(
            _ handler: UnsafeMutableRawPointer, _ sentence: Sentence, error: NMEAError, _ context: Context)
        static func rejected(_ handler: UnsafeMutableRawPointer, _ rejection: Rejection, _ context: Context)
        static func binaryFrame(_ handler: UnsafeMutableRawPointer, _ frame: BinaryFrame, _ context: Context)
        static func skippedSentence(
            _ handler: UnsafeMutableRawPointer, _ sentence: Sentence, kind: SentenceKind, place: SentenceSignature,
            _ context: Context)
    }

    /// Hands each decoded sentence to the handler, then to the assembler.
    struct Dispatch<H: Handler>: Visitor {
        let assembler: UnsafeMutablePointer<FixAssembler>
        let handler: UnsafeMutablePointer<H>
        let sentence: Sentence
        /// The decoded sentence's bad fields, written by the decoding before ``visit(_:)``.
        let fieldErrors: UnsafeMutablePointer<FieldErrors>
        let assemblesFixes: Bool
        let sentenceDecoder: SentenceDecoder?

        @inline(__always)
        init(
            assembler: UnsafeMutablePointer<FixAssembler>, handler: UnsafeMutableRawPointer, sentence: Sentence,
            fieldErrors: UnsafeMutablePointer<FieldErrors>, assemblesFixes: Bool, sentenceDecoder: SentenceDecoder?
        ) {
            self.assembler = assembler
            self.handler = handler.assumingMemoryBound(to: H.self)
            self.sentence = sentence
            self.fieldErrors = fieldErrors
            self.assemblesFixes = assemblesFixes
            self.sentenceDecoder = sentenceDecoder
        }

        static func undecodableSentence(
            _ handler: UnsafeMutableRawPointer, _ sentence: Sentence, error: NMEAError, _ context: Context
        ) {
            handler.assumingMemoryBound(to: H.self).pointee.undecodableSentence(sentence, error: error, context)
        }

        static func rejected(_ handler: UnsafeMutableRawPointer, _ rejection: Rejection, _ context: Context) {
            handler.assumingMemoryBound(to: H.self).pointee.rejected(rejection, context)
        }

        static func binaryFrame(_ handler: UnsafeMutableRawPointer, _ frame: BinaryFrame, _ context: Context) {
            handler.assumingMemoryBound(to: H.self).pointee.binaryFrame(frame, context)
        }

        static func skippedSentence(
            _ handler: UnsafeMutableRawPointer, _ sentence: Sentence, kind: SentenceKind, place: SentenceSignature,
            _ context: Context
        ) {
            handler.assumingMemoryBound(to: H.self).pointee.skippedSentence(
                sentence, kind: kind, place: place, context)
        }

        @inline(__always)
        mutating func visit<S: DecodableSentence>(_ decoded: S) {
            handler.pointee.sentence(
                sentence, decoded: decoded, Context(sentence, fieldErrors: fieldErrors.pointee))
            guard assemblesFixes else { return }
            if let received = sentence.receivedMilliseconds { assembler.pointee.noteReceiveTime(received) }
            assembler.pointee.merge(decoded)
        }

        @inline(__always)
        mutating func visitUnknown(_ sentence: Sentence) {
            handler.pointee.unknownSentence(sentence, Context(sentence))
            guard assemblesFixes else { return }
            if let received = sentence.receivedMilliseconds { assembler.pointee.noteReceiveTime(received) }
            if let sentenceDecoder, let report = sentenceDecoder(sentence) {
                assembler.pointee.take(report)
            } else {
                assembler.pointee.mergeUnknown(sentence)
            }
        }
    }
}
