import AIS
import JSON
import NMEA
import RTCM
import System
import UBX

/// `nmea parse`: every sentence as one JSON object per line.
enum ParseCommand: Command {
    static let spec = CommandSpec(
        name: "parse",
        abstract: "Decode NMEA sentences to JSON Lines.",
        discussion: """
            Prints one JSON object per accepted sentence, in input order. Decoded types have typed fields \
            ("lat"/"lon" in decimal degrees, "time" as hh:mm:ss UTC, "speed_knots"…); a field that does not read \
            is left out and named in "errors"; other types have their raw "fields". Lines with bad checksums, \
            garbage and overlong lines are counted, not printed; a summary goes to standard error.
            AIS sentences (!AIVDM, !AIVDO from any talker) are assembled (multi-part messages, type 24's two \
            parts) and each message is printed once as gpsd writes it, {"class":"AIS","type":…,"mmsi":…}, with \
            values in units (degrees, knots, metres) and "not available" values left out; --ais-raw prints \
            gpsd's unscaled numbers instead ("scaled":false, as gpsd sends its clients). With --ais-only or \
            --mmsi the input is read on one core unless --jobs is given: a multi-part message may span two of a \
            file's pieces, so pieces with AIS are printed in order on one thread.
            """,
        arguments: [SentenceInput.files],
        options: [stats, fixes, rawFormat, aisOnly, mmsi, aisRaw, SentenceInput.date, SentenceInput.jobs]
            + SentenceInput.options,
        examples: [
            "nmea parse nmea-samples/drive.nmea | head",
            "nmea parse --stats - < capture.nmea > sentences.jsonl",
            "nmea parse --fixes drive.nmea",
            "gpspipe -r | nmea parse --raw-format tagged - > capture.nmea",
            "nmea parse --ais-only --mmsi 244660274,211736530 harbour.nmea",
        ])

    private static let stats = Flag(
        long: "stats", help: "Print counters for every outcome on standard error at the end.")
    private static let fixes = Flag(
        long: "fixes", help: "Print one object per fix (each epoch's sentences merged) instead.")
    private static let rawFormat = Option<String?>(
        long: "raw-format", valueName: "format",
        help: "Print each sentence as NMEA instead, after a TAG block with its receive time: the one the "
            + "input gives, else when its bytes were read (to stamp a live stream).",
        choices: ["tagged"])

    private static let aisOnly = Flag(long: "ais-only", help: "Print AIS messages only.")
    private static let mmsi = Option<Set<Int>?>(
        long: "mmsi", valueName: "list",
        help: "Print only the AIS messages of these stations (MMSIs, comma-separated), and no other sentence."
    ) { text throws(ValueError) in
        var stations = Set<Int>()
        for item in text.split(separator: ",") {
            guard let value = Int(item.filter { $0 != " " }), (0...999_999_999).contains(value) else {
                throw .invalid(text, because: "an MMSI is a number of up to nine digits")
            }
            stations.insert(value)
        }
        return stations
    }
    private static let aisRaw = Flag(
        long: "ais-raw", help: "Print AIS fields as gpsd's unscaled numbers (\"scaled\":false), every field.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        if arguments.flag(fixes) { return try runFixes(arguments) }
        if try arguments.value(rawFormat) == "tagged" { return try runTagged(arguments) }
        var input = try SentenceInput(arguments, assemblesFixes: false)
        var printer = Printer()
        let stations = try arguments.value(mmsi)
        let onlyAIS = arguments.flag(aisOnly) || stations != nil
        input.jobs = try SentenceInput.jobs(arguments)
        printer.ais = AISPrinting(stations: stations, onlyAIS: onlyAIS, scaled: !arguments.flag(aisRaw))
        try input.read(handler: &printer, isCancelled: outputFailed) { _ in }
        printer.ais.report(command: "nmea parse")
        return finish(input, arguments)
    }

    /// `true` once standard output cannot be written (a full disk), whichever thread writes it: reading on would
    /// print nothing more. The tool then exits 1 saying so (main.swift).
    static func outputFailed() -> Bool { Console.standardOutput.hasFailed }

    /// After the input: what is printed is flushed, the counters (`--stats`) or the summary go to standard error,
    /// and the exit status says whether every input could be read.
    static func finish(_ input: borrowing SentenceInput, _ arguments: ParsedArguments) -> Int32 {
        Console.standardOutput.flush()
        if arguments.flag(stats) {
            Console.error(input.statisticsTable())
        } else {
            input.printSummary(command: "nmea parse")
        }
        return input.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// `--raw-format tagged`: each sentence as NMEA after its TAG block, written out after every read.
    static func runTagged(_ arguments: ParsedArguments) throws -> Int32 {
        var input = try SentenceInput(arguments, assemblesFixes: false)
        input.onChunk = { _, _ in Console.standardOutput.flush() }
        var tagger = Tagger()
        try input.read(handler: &tagger, isCancelled: outputFailed) { _ in }
        return finish(input, arguments)
    }

    /// Writes each sentence (decoded or not) as `\c:<ms>*hh\$…*hh` and CR LF.
    struct Tagger: FixReader.Handler {
        let output = Console.standardOutput

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {
            write(sentence)
        }

        mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) { write(sentence) }

        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {
            write(sentence)
        }

        /// The sentence as received (its checksum in upper case), its receive time the input's or now.
        private func write(_ sentence: Sentence) {
            let received = sentence.receivedMilliseconds ?? WallClock.millisecondsSinceEpoch()
            TagBlock.write(receivedMilliseconds: received) { output.write($0) }
            sentence.write { output.write($0) }
            output.write(UInt8(ascii: "\r"))
            output.write(UInt8(ascii: "\n"))
        }
    }

    /// Writes each sentence as one line of JSON: its decoded fields, its raw fields when no decoder reads its type,
    /// or its raw fields and the error when it did not decode.
    ///
    /// On every core (`--jobs`), each piece of the file is printed by a worker of its own, except the AIS sentences
    /// whose messages depend on those before them (a part of a multi-part message, a type 24 part: see
    /// ``AISDecoder/addUnlessOrdered(_:_:)``): those are kept in their place in the piece's lines, and the one
    /// printer of the whole file, which puts the pieces out in order, prints them there (``put(_:)``).
    struct Printer: PieceHandler {
        var json = JSONWriter(capacity: 4096)
        let output = Console.standardOutput
        var ais = AISPrinting()
        /// What a worker made of its piece so far (`--jobs`), put out in order by ``put(_:)``; `nil` writes each
        /// line to standard output as it comes.
        var piece: PrintedPiece?

        /// A piece's lines, and its AIS sentences left for the printer of the whole file.
        struct PrintedPiece {
            var lines: [UInt8] = []
            /// The sentences left for their turn, in order.
            var ordered: [OrderedSentence] = []
            /// Each ordered sentence's line as a raw sentence, printed when it does not read (the one printer's
            /// decoder decides that).
            var rawLines: [UInt8] = []
            /// The worker's AIS counts.
            var ais: AISPrinting?
        }

        /// An AIS sentence left for its turn: its fragment, where its line goes, and its raw line.
        struct OrderedSentence {
            let fragment: AISDecoder.Fragment
            let offset: Int
            let rawLine: Range<Int>
        }

        func makePieceHandler() -> Printer {
            var printer = Printer()
            printer.ais = AISPrinting(stations: ais.stations, onlyAIS: ais.onlyAIS, scaled: ais.scaled)
            printer.piece = PrintedPiece()
            // A piece's lines are several times its 256 KiB: room for them at once, not doubled and copied on the way.
            printer.piece!.lines.reserveCapacity(1 << 21)
            return printer
        }

        mutating func takePieceOutput() -> PrintedPiece {
            guard var taken = piece else { return PrintedPiece() }
            taken.ais = ais
            ais = AISPrinting(stations: ais.stations, onlyAIS: ais.onlyAIS, scaled: ais.scaled)
            piece = PrintedPiece()
            return taken
        }

        /// Puts out a worker's piece, in order: its lines, and in their places the AIS sentences left for their
        /// turn, printed here with the decoder of the whole file.
        mutating func put(_ printed: PrintedPiece) {
            if let counts = printed.ais { ais.addCounts(of: counts) }
            printed.lines.withUnsafeBytes { lines in
                var written = 0
                for sentence in printed.ordered {
                    output.write(UnsafeRawBufferPointer(rebasing: lines[written..<sentence.offset]))
                    written = sentence.offset
                    let scaled = ais.scaled
                    let outcome = ais.take(sentence.fragment, with: &json) { json, message in
                        json.writeAIS(message, scaled: scaled)
                    }
                    switch outcome {
                    case .message: endLine()
                    case .pending, .filtered, .notAIS, .ordered: break
                    case .failed:
                        printed.rawLines.withUnsafeBytes {
                            output.write(UnsafeRawBufferPointer(rebasing: $0[sentence.rawLine]))
                        }
                    }
                }
                output.write(UnsafeRawBufferPointer(rebasing: lines[written...]))
            }
        }

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {
            if ais.onlyAIS { return }
            json.writeSentence(
                sentence, decoded: decoded, fieldErrors: context.fieldErrors,
                receivedMilliseconds: context.receivedMilliseconds)
            endLine()
        }

        mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) {
            let scaled = ais.scaled
            func write(_ json: inout JSONWriter, _ message: borrowing AISMessage) {
                json.writeAIS(message, scaled: scaled)
            }
            var ordered: AISDecoder.Fragment?
            let outcome =
                piece == nil
                ? ais.take(sentence, with: &json, write)
                : ais.take(sentence, leavingOrderedIn: &ordered, with: &json, write)
            switch outcome {
            case .ordered:
                leaveForItsTurn(ordered!, sentence, context)
            case .message:
                endLine()
            case .pending, .filtered:
                break
            case .notAIS, .failed:
                if ais.onlyAIS { return }
                json.writeUnknownSentence(sentence, receivedMilliseconds: context.receivedMilliseconds)
                endLine()
            }
        }

        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {
            if ais.onlyAIS { return }
            json.writeUndecodableSentence(
                sentence, error: error, receivedMilliseconds: context.receivedMilliseconds)
            endLine()
        }

        mutating func binaryFrame(_ frame: BinaryFrame, _ context: FixReader.Context) {
            guard !ais.onlyAIS else { return }
            if let ubx = UBXFrame(frame) {
                json.writeUBX(ubx)
            } else if let rtcm = RTCMFrame(frame) {
                json.writeRTCM3(rtcm)
            } else if let rtcm2 = RTCM2Message(frame) {
                json.writeRTCM2(rtcm2)
            } else {
                return
            }
            endLine()
        }

        /// On a worker: keeps an AIS sentence whose message depends on those before it for the one printer, with
        /// its line as a raw sentence for when it does not read.
        private mutating func leaveForItsTurn(
            _ fragment: AISDecoder.Fragment, _ sentence: Sentence, _ context: FixReader.Context
        ) {
            let start = piece!.rawLines.count
            if !ais.onlyAIS {
                json.writeUnknownSentence(sentence, receivedMilliseconds: context.receivedMilliseconds)
                piece!.rawLines.append(contentsOf: json.bytes)
                piece!.rawLines.append(UInt8(ascii: "\n"))
                json.reset()
            }
            piece!.ordered.append(
                OrderedSentence(
                    fragment: fragment, offset: piece!.lines.count, rawLine: start..<piece!.rawLines.count))
        }

        private mutating func endLine() {
            if piece != nil {
                piece!.lines.append(contentsOf: json.bytes)
                piece!.lines.append(UInt8(ascii: "\n"))
            } else {
                json.bytes.withUnsafeBytes { output.write($0) }
                output.write(UInt8(ascii: "\n"))
            }
            json.reset()
        }
    }
}
