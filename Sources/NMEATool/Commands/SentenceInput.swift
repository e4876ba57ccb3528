import AIS
import NMEA
import Tracks
import UBX

/// The input side of every command that reads NMEA: its options, declared and read once, and the files (or standard
/// input) read through one ``FixReader``, each file finished before the next begins. Every rejected line is counted
/// and — with `--verbose` — reported with its file and line.
///
///     arguments: [SentenceInput.files],
///     options: [ …, SentenceInput.date, … ] + SentenceInput.options
///     …
///     var input = try SentenceInput(arguments)
///     try input.read { fix in … }
///     input.printSummary(command: "nmea convert")
struct SentenceInput: ~Copyable {
    // MARK: The declaration

    /// `<files>`: the inputs, standard input when none is named.
    static let files = Argument<[String]>(
        repeating: "files",
        help: "NMEA log files, '-' for standard input, or a stream: tcp://HOST:PORT, udp://[ADDR]:PORT, gpsd://HOST.",
        default: ["-"], defaultText: "-")

    /// `--date`: where a command lists it among its own options.
    static let date = Option<UTCDate?>(
        long: "date", valueName: "YYYY-MM-DD",
        help: "The UTC date of logs that send none (GGA-only): the day of the first fix."
    ) { text throws(ValueError) in
        guard let date = ISO8601.parseDate(text) else { throw .invalid(text, because: "expected YYYY-MM-DD") }
        return date
    }

    /// `--jobs`: where a command lists it among its own options (`parse`, `trips`; `convert` has its own, which
    /// also runs `{name}` conversions side by side).
    static let jobs = Option<Int?>(
        long: "jobs", short: "j", valueName: "n",
        help: "Read each plain file on this many cores (default: the number of cores); the output is the same.",
        in: 1...256)

    /// `--jobs` as given, else the number of cores.
    static func jobs(_ arguments: ParsedArguments) throws -> Int {
        try arguments.value(jobs) ?? ConvertJobs.processorCount()
    }

    private static let allowMissingChecksum = Flag(
        long: "allow-missing-checksum", help: "Accept sentences without a *hh checksum (old receivers send none).")
    private static let maximumLength = Option<Int>(
        long: "max-length", valueName: "n", help: "Reject lines longer than this many characters.", default: 1024,
        in: 16...1_048_576)
    private static let verbose = Flag(long: "verbose", short: "v", help: "List every rejected line on standard error.")
    private static let ownShip = Flag(
        long: "own-ship",
        help: "Fixes from the own ship's AIS position reports (!AIVDO) too; each needs a receive time (a TAG block's "
            + "c:, a leading Unix timestamp).")

    /// The framing options every reading command accepts, after its own.
    static let options: [any OptionDeclaration] = [allowMissingChecksum, maximumLength, ownShip, verbose]

    // MARK: The parsed options

    let paths: [String]
    /// The inputs, each checked before anything is read or written (``InputAdmission``), with their kinds.
    let admission: InputAdmission
    let verbose: Bool
    /// What `--date`, `--max-length` and `--allow-missing-checksum` make of the reader.
    let readerOptions: FixReader.Options
    /// `--date`, when given.
    var fallbackDate: UTCDate? { readerOptions.assembler.fallbackDate }

    /// Files that could not be read, with the reason.
    private(set) var failures: [String] = []
    /// Inputs that held nothing (no bytes, or only blank and comment lines), each with a few words on it.
    private(set) var emptyInputs: [(name: String, reason: String)] = []
    /// `true` when a file may also be a GPX or GeoJSON track (commands that read tracks: `convert`, `trips`, `plot`):
    /// a file whose first byte (after a byte-order mark and spaces) is `<` or `{` is read by ``TrackFileReader``
    /// instead of as NMEA.
    var readsTracks = false
    /// What each track file (GPX, KML, GeoJSON, CSV) held, in the order read.
    private(set) var trackFiles: [(name: String, format: TrackFileReader.Format, statistics: TrackReadStatistics)] = []
    /// The waypoints and routes the track files held, for the outputs that carry them.
    private(set) var trackNavigation = Navigation()
    /// How many threads read one plain file (`--jobs`): its pieces are framed and decoded on as many workers and
    /// assembled here in order (``readInPieces(_:reporting:isCancelled:onChunk:_:)``); 1 reads it on this thread.
    var jobs = 1
    /// `true` when what the command does with each fix may run on a thread of its own while a file read in pieces is
    /// assembled (``FixHandOff``): it writes files or keeps state (`convert`, `trips`), or claims
    /// ``Console/standardOutput`` for the thread it runs on (``OutputBuffer/claim()``: `parse --fixes`).
    var handsOffFixes = false
    /// Called after each chunk with the bytes read so far from the current file and its size (regular files only).
    var onChunk: ((_ bytesRead: Int, _ fileSize: Int?) -> Void)?
    var reader: FixReader

    /// Parses the shared options of `arguments` and admits the inputs (``InputAdmission``); `assembler` is the
    /// command's own starting point for fix assembly (`--date` is set in it), and `assemblesFixes` is `false` for a
    /// command that wants the sentences only; `readsSky` is `false` for one whose outputs hold no satellites in view
    /// (tracks, trips, plots: ``FixReader/Options/readsSky``). Made before any output is opened.
    /// - Throws: ``UsageError`` for a bad option, ``RuntimeError`` naming every input that cannot be read.
    init(
        _ arguments: ParsedArguments, assembler: FixAssembler.Options = FixAssembler.Options(),
        assemblesFixes: Bool = true, readsSky: Bool = true, paths given: [String]? = nil
    ) throws {
        let paths = given ?? arguments.value(Self.files)
        var assembler = assembler
        if let date = try arguments.value(Self.date) { assembler.fallbackDate = date }
        let options = FixReader.Options(
            maximumLength: try arguments.value(Self.maximumLength),
            checksumPolicy: arguments.flag(Self.allowMissingChecksum) ? .optional : .required,
            assembler: assembler, assemblesFixes: assemblesFixes, frameDecoder: UBXEpochs.report,
            sentenceDecoder: arguments.flag(Self.ownShip) ? AISOwnShip.report : nil, readsSky: readsSky)
        // Options first (a usage error is the first thing to say), then the inputs.
        admission = try InputAdmission(paths)
        self.paths = paths
        verbose = arguments.flag(Self.verbose)
        readerOptions = options
        reader = FixReader(options: options)
    }

    /// When the outputs made from these inputs replace what their paths held (``InputAdmission/publication``).
    var publication: Publication { admission.publication }

    /// Every counter over the files read so far.
    var statistics: FixReader.Statistics { reader.statistics }

    // MARK: Reading

    /// Reads every input in order, calling `fix` with each fix.
    /// - Returns: `false` when `isCancelled` stopped the reading (checked before each chunk).
    @discardableResult
    mutating func read(isCancelled: () -> Bool = { false }, _ fix: (Fix) -> Void) throws -> Bool {
        var none = NoSentences()
        return try read(handler: &none, isCancelled: isCancelled, fix)
    }

    /// Reads every input in order; `handler` sees each sentence and rejected line, `fix` each fix. An unreadable
    /// file is reported on standard error and skipped; ``failures`` lists it. Each file is finished (its last
    /// epoch handed out, the reader started afresh) before the next.
    /// - Returns: `false` when `isCancelled` stopped the reading (checked before each chunk).
    @discardableResult
    mutating func read<H: FixReader.Handler>(
        handler: inout H, isCancelled: () -> Bool = { false }, _ fix: (Fix) -> Void
    ) throws -> Bool {
        var reporting = Reporting(inner: handler, verbose: verbose)
        defer { handler = reporting.inner }
        for path in paths {
            let input: InputFile
            do {
                input = try InputFile(path: path)
            } catch {
                Console.error("Error: \(error.message)\n")
                failures.append(path)
                continue
            }
            defer { input.close() }
            reporting.file = input.name
            guard try read(input, path: path, reporting: &reporting, isCancelled: isCancelled, fix) else {
                return false
            }
        }
        return true
    }

    /// What reading one input came to.
    struct FileOutcome {
        var cancelled = false
        /// Damaged part way: what was read before stands.
        var broken = false
        /// The first bytes, to tell an empty input from one that is not a log.
        var sample: [UInt8] = []
        /// Set when the input is a track file (GPX, GeoJSON, KML, CSV) rather than NMEA.
        var track: TrackFileReader?
    }

    /// Reads `input` (named `path`) to its end: as NMEA, or as a track file when it is one and ``readsTracks``.
    /// - Returns: `false` when `isCancelled` stopped the reading.
    private mutating func read<H: FixReader.Handler>(
        _ input: InputFile, path: String, reporting: inout Reporting<H>, isCancelled: () -> Bool,
        _ fix: (Fix) -> Void
    ) throws -> Bool {
        var outcome = FileOutcome()
        let before = reader.statistics.framer
        let fixesBefore = reader.statistics.assembler.fixes
        do {
            if let sample = pieceSample(input, for: H.self) {
                outcome.sample = sample
                outcome.cancelled = try !readInPieces(
                    input, reporting: &reporting, isCancelled: isCancelled, onChunk: onChunk, fix)
            } else {
                try forEachChunk(input, &outcome, reporting: &reporting, isCancelled: isCancelled, fix)
            }
            try outcome.track?.finish(fix)
        } catch is Cancelled {
        } catch let error as RuntimeError {
            // Damage part way (a truncated .gz or .zst): the fixes before it were read, and they are said, with
            // how to keep them, since the input's failure replaces no file output.
            let fixes = outcome.track?.statistics.points ?? (reader.statistics.assembler.fixes - fixesBefore)
            let kept =
                fixes == 0
                ? ""
                : " (after \(counted(fixes, "fix")); to keep what it holds, decompress it first: "
                    + "gzip -dc or zstd -dc FILE > FILE.nmea)"
            Console.error("Error: \(error.message)\(kept)\n")
            failures.append(path)
            outcome.broken = true
        } catch let error as TrackReadError {
            let format = outcome.track?.format.rawValue ?? "a track"
            Console.error("Error: \(input.name): \(error) (read as \(format))\n")
            failures.append(path)
            outcome.broken = true
        }
        if outcome.cancelled { return false }
        finish(input.name, path: path, outcome, since: before, reporting: &reporting, fix)
        return true
    }

    /// Reads `input` as it streams, a chunk at a time, on this thread: as NMEA, or as a track file.
    private mutating func forEachChunk<H: FixReader.Handler>(
        _ input: InputFile, _ outcome: inout FileOutcome, reporting: inout Reporting<H>, isCancelled: () -> Bool,
        _ fix: (Fix) -> Void
    ) throws {
        let size = onChunk == nil ? nil : input.size
        var bytesRead = 0
        try input.forEachChunk { chunk in
            if isCancelled() {
                outcome.cancelled = true
                throw Cancelled()
            }
            if outcome.sample.isEmpty && readsTracks, let format = TrackFileReader.format(of: chunk) {
                outcome.track = TrackFileReader(format: format)
            }
            if outcome.sample.count < 256 { outcome.sample += chunk.prefix(256 - outcome.sample.count) }
            if outcome.track != nil {
                try outcome.track!.read(chunk, fix)
            } else {
                reader.read(chunk, handler: &reporting, fix)
            }
            bytesRead += chunk.count
            onChunk?(bytesRead, size)
        }
    }

    /// After an input: a track file's figures kept, or the NMEA reader finished (its last epoch handed out) and an
    /// input that gave not a single sentence told apart (empty, or not a log: the input's failure).
    private mutating func finish<H: FixReader.Handler>(
        _ name: String, path: String, _ outcome: FileOutcome, since before: FramerStatistics,
        reporting: inout Reporting<H>, _ fix: (Fix) -> Void
    ) {
        if let track = outcome.track {
            trackFiles.append((name, track.format, track.statistics))
            if !outcome.broken { trackNavigation.add(contentsOf: track.navigation) }
            return
        }
        if outcome.broken {
            // A read that failed (a truncated compressed file): what was read stands, but the line it cut off
            // is dropped, not framed and reported as a second error.
            reader.disconnect(fix)
        } else {
            reader.finish(handler: &reporting, fix)
        }
        let framed = reader.statistics.framer
        // An input that failed (a refused connection, a read error) has said why already.
        // u-blox UBX and RTCM 3 frames are a log as sentences are (a receiver set to UBX only, a base station's
        // corrections).
        let content = framed.sentences + framed.ubxFrames + framed.rtcm3Frames + framed.rtcm2Frames
        guard
            content == before.sentences + before.ubxFrames + before.rtcm3Frames + before.rtcm2Frames
                && failures.last != path
        else { return }
        let framing = framed.since(before)
        if Self.holdsNothing(framing, sample: outcome.sample) {
            emptyInputs.append((name, "it is empty"))
        } else {
            // Not a log at all (a README, our own summary, a binary file): reading it as one would replace
            // the outputs with empty tracks, so it is the input's failure, as an unreadable file is.
            let what = readsTracks ? "an NMEA log, nor a GPX, GeoJSON, KML or CSV track" : "an NMEA log"
            Console.error("Error: \(name): not \(what): \(Self.whyNothing(in: framing, sample: outcome.sample))\n")
            failures.append(path)
        }
    }

    /// `true` when an input that gave no sentence held nothing either: no bytes, or only white space and comment
    /// lines (a log file created and never written). Such an input is read as an empty log, not refused.
    static func holdsNothing(_ framing: FramerStatistics, sample: [UInt8]) -> Bool {
        guard framing.rejected == 0 && framing.binaryFrameBytes == 0 && framing.damagedBinaryFrames == 0 else {
            return false
        }
        if framing.bytes == 0 || (framing.garbageBytes == 0 && framing.commentLines > 0) { return true }
        let blank: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        return framing.bytes == sample.count && sample.allSatisfy(blank.contains)
    }

    /// Why an input gave not a single sentence, in a few words: empty, not ASCII (NUL bytes: UTF-16 without its
    /// byte-order mark, UTF-32, binary), only binary frames, every sentence rejected (and mostly why), or no NMEA.
    /// `sample` is the input's first bytes.
    static func whyNothing(in framing: FramerStatistics, sample: [UInt8]) -> String {
        if framing.bytes == 0 { return "it is empty" }
        if sample.contains(0) {
            return "it is not ASCII text (NUL bytes: UTF-16 without its byte-order mark, UTF-32 or binary data)"
        }
        let reasons = [
            (framing.checksumMismatches, "bad checksum"), (framing.missingChecksums, "missing checksum"),
            (framing.malformedChecksums, "malformed checksum"), (framing.overlong, "overlong"),
            (framing.truncated, "truncated"), (framing.badAddresses, "bad address"),
        ]
        if framing.rejected > 0, let main = reasons.max(by: { $0.0 < $1.0 }) {
            let all = framing.rejected
            var text = "all \(all) sentence\(all == 1 ? " was" : "s were") rejected"
            text += main.0 == all ? " (\(main.1))" : ", most for a \(main.1) (\(main.0))"
            return text
        }
        return "no NMEA found (no sentence starting with '$' or '!')"
    }

    struct Cancelled: Error {}

    /// No sentences wanted: fixes only.
    struct NoSentences: FixReader.Handler {}

    /// Reports rejected and undecodable lines with their file when `--verbose` asks, then hands everything on.
    struct Reporting<Inner: FixReader.Handler>: FixReader.Handler {
        var inner: Inner
        let verbose: Bool
        var file = ""

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {
            if verbose && !context.fieldErrors.isEmpty {
                SentenceInput.report(context.fieldErrors, in: sentence, file: file)
            }
            inner.sentence(sentence, decoded: decoded, context)
        }

        mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) {
            inner.unknownSentence(sentence, context)
        }

        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {
            if verbose { SentenceInput.report(error, in: sentence, file: file) }
            inner.undecodableSentence(sentence, error: error, context)
        }

        mutating func rejected(_ rejection: Rejection, _ context: FixReader.Context) {
            if verbose { SentenceInput.report(rejection, in: file) }
            inner.rejected(rejection, context)
        }

        mutating func binaryFrame(_ frame: BinaryFrame, _ context: FixReader.Context) {
            inner.binaryFrame(frame, context)
        }

        mutating func skippedSentence(
            _ sentence: Sentence, kind: SentenceKind, place: SentenceSignature, _ context: FixReader.Context
        ) {
            inner.skippedSentence(sentence, kind: kind, place: place, context)
        }
    }

    // MARK: Reporting

    /// `file:line: reason: text` on standard error.
    static func report(_ rejection: Rejection, in file: String) {
        let text = TextEscaping.printableASCII(rejection.bytes.prefix(100), limit: 100)
        Console.error("\(file):\(rejection.line): \(rejection.error): \(text)\n")
    }

    /// `file:line: reason: text` for a sentence whose fields did not decode.
    static func report(_ error: NMEAError, in sentence: Sentence, file: String) {
        let text = String(decoding: sentence.bytes.prefix(100), as: UTF8.self)
        Console.error("\(file):\(sentence.line): \(sentence.typeName): \(error): \(text)\n")
    }

    /// `file:line: type: field 2: unexpected character (read without it): text` for a sentence with bad fields.
    static func report(_ errors: FieldErrors, in sentence: Sentence, file: String) {
        let text = String(decoding: sentence.bytes.prefix(100), as: UTF8.self)
        let without = errors.count == 1 ? "it" : "them"
        Console.error("\(file):\(sentence.line): \(sentence.typeName): \(errors) (read without \(without)): \(text)\n")
    }

    /// One line on standard error when anything was rejected, so bad input is never silent; and one for each input
    /// that gave not a single sentence, with why.
    func printSummary(command: String) {
        for (name, reason) in emptyInputs { Console.error("\(command): \(name): nothing read: \(reason)\n") }
        for (name, format, statistics) in trackFiles {
            if let line = Self.trackSummary(format, statistics) { Console.error("\(command): \(name): \(line)\n") }
        }
        let framing = statistics.framer
        let failed = statistics.decoder.failed
        var parts: [String] = []
        func add(_ count: Int, _ what: String) { if count > 0 { parts.append("\(count) \(what)") } }
        add(framing.checksumMismatches, "bad checksum")
        add(framing.missingChecksums, "missing checksum")
        add(framing.malformedChecksums, "malformed checksum")
        add(framing.overlong, "overlong")
        add(framing.truncated, "truncated")
        add(framing.badAddresses, "bad address")
        add(failed, "undecodable")
        let withFieldErrors = statistics.decoder.withFieldErrors
        guard !parts.isEmpty || withFieldErrors > 0 else { return }
        let total = framing.rejected + failed
        var advice = verbose ? "" : "; -v lists them"
        if framing.missingChecksums > 0 && readerOptions.checksumPolicy == .required {
            advice += "; --allow-missing-checksum accepts sentences without one"
        }
        var summary: [String] = []
        if !parts.isEmpty {
            summary.append("\(total) line\(total == 1 ? "" : "s") rejected (\(parts.joined(separator: ", ")))")
        }
        if withFieldErrors > 0 {
            summary.append(
                "\(withFieldErrors) sentence\(withFieldErrors == 1 ? "" : "s") with a bad field (read without it)")
        }
        Console.error("\(command): \(summary.joined(separator: "; "))\(advice)\n")
    }

    /// What a track file held that was not read as it stands, in a line: points passed over, features that hold no
    /// track, lines whose times do not pair with their positions; `nil` when all was read.
    static func trackSummary(_ format: TrackFileReader.Format, _ statistics: TrackReadStatistics) -> String? {
        var parts: [String] = []
        let unit =
            switch format {
            case .gpx, .kml: "point"
            case .geojson: "position"
            case .csv: "row"
            }
        if statistics.rejectedPoints > 0 {
            let count = statistics.rejectedPoints
            parts.append(
                "\(count) \(format.rawValue) \(unit)\(count == 1 ? "" : "s") without a usable position or time")
        }
        if statistics.ignoredFeatures > 0 {
            let count = statistics.ignoredFeatures
            let what = format == .kml ? "placemark" : "feature"
            parts.append(
                "\(count) \(format.rawValue) \(what)\(count == 1 ? " that holds" : "s that hold") no track, waypoint or "
                    + "route (a polygon, say)")
        }
        var line = parts.isEmpty ? nil : parts.joined(separator: " and ") + " passed over"
        if statistics.unpairedTimes > 0 {
            let count = statistics.unpairedTimes
            let times =
                "\(count) line\(count == 1 ? "" : "s") whose times cannot be paired with \(count == 1 ? "its" : "their") "
                + "positions (another count) read without times"
            line = line.map { $0 + "; " + times } ?? times
        }
        return line
    }

    /// The counters as a table, for `--stats`.
    func statisticsTable() -> String {
        let framing = statistics.framer
        let decoding = statistics.decoder
        var rows: [(String, Int)] = []
        rows.append(("bytes", framing.bytes))
        rows.append(("sentences", framing.sentences))
        for kind in SentenceKind.allCases where decoding[kind] > 0 { rows.append(("  " + kind.name, decoding[kind])) }
        rows.append(("  unknown type", decoding.unknown))
        rows.append(("  undecodable", decoding.failed))
        rows.append(("  with a bad field", decoding.withFieldErrors))
        rows.append(("  without checksum", framing.sentencesWithoutChecksum))
        rows.append(("  with receive time", framing.sentencesWithReceiveTime))
        rows.append(("rejected", framing.rejected))
        rows.append(("  bad checksum", framing.checksumMismatches))
        rows.append(("  missing checksum", framing.missingChecksums))
        rows.append(("  malformed checksum", framing.malformedChecksums))
        rows.append(("  overlong", framing.overlong))
        rows.append(("  truncated", framing.truncated))
        rows.append(("  bad address", framing.badAddresses))
        rows.append(("garbage bytes", framing.garbageBytes))
        rows.append(("binary frame bytes", framing.binaryFrameBytes))
        rows.append(("  UBX frames", framing.ubxFrames))
        rows.append(("  RTCM 3 frames", framing.rtcm3Frames))
        rows.append(("  RTCM 2 messages", framing.rtcm2Frames))
        rows.append(("damaged binary frames", framing.damagedBinaryFrames))
        rows.append(("comment lines", framing.commentLines))
        rows.append(("TAG blocks read", framing.tagBlocks))
        rows.append(("  unknown parameters", framing.unknownTagParameters))
        let badBlocks = framing.tagBlockChecksumMismatches + framing.malformedTagBlocks + framing.overlongTagBlocks
        rows.append(("TAG blocks rejected", badBlocks))
        rows.append(("  with bad checksum", framing.tagBlockChecksumMismatches))
        rows.append(("  malformed", framing.malformedTagBlocks))
        rows.append(("  too long", framing.overlongTagBlocks))
        rows.append(("leading timestamps", framing.leadingTimestamps))
        return rows.map { name, value in
            name + String(repeating: " ", count: max(1, 22 - name.count)) + String(value)
        }.joined(separator: "\n") + "\n"
    }
}
