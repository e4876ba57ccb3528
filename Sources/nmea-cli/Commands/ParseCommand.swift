import JSON
import NMEA

/// `nmea parse`: every sentence as one JSON object per line.
enum ParseCommand: Command {
    static let spec = CommandSpec(
        name: "parse",
        abstract: "Decode NMEA sentences to JSON Lines.",
        discussion: """
            Prints one JSON object per accepted sentence, in input order. Decoded types have typed fields \
            ("lat"/"lon" in decimal degrees, "time" as hh:mm:ss UTC, "speed_knots"…); other types have their raw \
            "fields". Lines with bad checksums, garbage and overlong lines are counted, not printed; a summary \
            goes to standard error.
            """,
        arguments: [SentenceInput.filesArgument],
        options: [
            OptionSpec(long: "stats", help: "Print counters for every outcome on standard error at the end."),
            OptionSpec(long: "fixes", help: "Print one object per fix (each epoch's sentences merged) instead."),
            OptionSpec(long: "date", valueName: "YYYY-MM-DD",
                       help: "With --fixes: the UTC date of logs that send none."),
        ] + SentenceInput.options,
        examples: [
            "nmea parse nmea-samples/drive.nmea | head",
            "nmea parse --stats - < capture.nmea > sentences.jsonl",
            "nmea parse --fixes drive.nmea",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        if arguments.flag("fixes") { return try runFixes(arguments) }
        var input = try SentenceInput(arguments)
        var decoding = DecoderStatistics()
        var json = JSONWriter(capacity: 4096)
        let output = Console.standardOutput
        let verbose = input.verbose
        try input.forEachSentence { sentence, file in
            do throws(NMEAError) {
                let parsed = try ParsedSentence(sentence)
                decoding.record(parsed)
                json.write(parsed, of: sentence)
            } catch {
                decoding.recordFailure()
                if verbose { SentenceInput.report(error, in: sentence, file: file) }
                json.writeUndecodable(sentence, error: error)
            }
            json.bytes.withUnsafeBytes { output.write($0) }
            output.write(UInt8(ascii: "\n"))
            json.reset()
        }
        output.flush()
        if arguments.flag("stats") {
            Console.error(input.statisticsTable(decoding: decoding))
        } else {
            input.printSummary(command: "nmea parse", decoding: decoding)
        }
        return input.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}
