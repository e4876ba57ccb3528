import JSON
import NMEA
import System

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
            """,
        arguments: [SentenceInput.files],
        options: [stats, fixes, rawFormat, SentenceInput.date] + SentenceInput.options,
        examples: [
            "nmea parse nmea-samples/drive.nmea | head",
            "nmea parse --stats - < capture.nmea > sentences.jsonl",
            "nmea parse --fixes drive.nmea",
            "gpspipe -r | nmea parse --raw-format tagged - > capture.nmea",
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

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        if arguments.flag(fixes) { return try runFixes(arguments) }
        if try arguments.value(rawFormat) == "tagged" { return try runTagged(arguments) }
        var input = try SentenceInput(arguments, assemblesFixes: false)
        var printer = Printer()
        try input.read(handler: &printer, isCancelled: outputFailed) { _ in }
        return finish(input, arguments)
    }

    /// `true` once standard output cannot be written (a full disk): reading on would print nothing more. The tool
    /// then exits 1 saying so (main.swift).
    static func outputFailed() -> Bool { Console.standardOutput.failure != nil }

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
    struct Printer: FixReader.Handler {
        var json = JSONWriter(capacity: 4096)
        let output = Console.standardOutput

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {
            json.writeSentence(
                sentence, decoded: decoded, fieldErrors: context.fieldErrors,
                receivedMilliseconds: context.receivedMilliseconds)
            endLine()
        }

        mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) {
            json.writeUnknownSentence(sentence, receivedMilliseconds: context.receivedMilliseconds)
            endLine()
        }

        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {
            json.writeUndecodableSentence(
                sentence, error: error, receivedMilliseconds: context.receivedMilliseconds)
            endLine()
        }

        private mutating func endLine() {
            json.bytes.withUnsafeBytes { output.write($0) }
            output.write(UInt8(ascii: "\n"))
            json.reset()
        }
    }
}
