import NMEA

/// The input side shared by the commands that read NMEA: files or standard input, framed with the options the user
/// gave, every rejected line counted and — with `--verbose` — reported with its file and line.
struct SentenceInput {
    /// The options every reading command accepts.
    static let options: [OptionSpec] = [
        OptionSpec(long: "allow-missing-checksum",
                   help: "Accept sentences without a *hh checksum (old receivers send none)."),
        OptionSpec(long: "max-length", valueName: "n",
                   help: "Reject lines longer than this many characters.", defaultValue: "1024"),
        OptionSpec(long: "verbose", short: "v", help: "List every rejected line on standard error."),
    ]

    static let filesArgument = ArgumentSpec(
        name: "files", help: "NMEA log files, or '-' for standard input.", isRepeating: true, defaultValue: "-")

    let paths: [String]
    let maximumLength: Int
    let checksumPolicy: Framer.ChecksumPolicy
    let verbose: Bool
    /// What the framer saw, over all files.
    private(set) var framing = FramerStatistics()
    /// Files that could not be read, with the reason.
    private(set) var failures: [String] = []
    /// Called after each chunk with the bytes read so far from the current file and its size (regular files only).
    var onChunk: ((_ bytesRead: Int, _ fileSize: Int?) -> Void)?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.positionals.isEmpty ? ["-"] : arguments.positionals
        maximumLength = try arguments.integer("max-length", default: 1024, in: 16...1_048_576)
        checksumPolicy = arguments.flag("allow-missing-checksum") ? .optional : .required
        verbose = arguments.flag("verbose")
    }

    /// Reads every input in order, calling `body` with each sentence and the name of its file.
    /// An unreadable file is reported on standard error and skipped; ``failures`` lists it.
    mutating func forEachSentence(_ body: (Sentence, String) throws -> Void) throws {
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
            var framer = Framer(maximumLength: maximumLength, checksumPolicy: checksumPolicy)
            let verbose = verbose
            let name = input.name
            func events(_ event: FramerEvent) throws {
                switch event {
                case .sentence(let sentence): try body(sentence, name)
                case .rejected(let rejection): if verbose { SentenceInput.report(rejection, in: name) }
                }
            }
            let size = onChunk == nil ? nil : input.size
            var bytesRead = 0
            do {
                try input.forEachChunk { chunk in
                    try framer.feed(chunk, events)
                    bytesRead += chunk.count
                    onChunk?(bytesRead, size)
                }
            } catch let error as RuntimeError {
                Console.error("Error: \(error.message)\n")
                failures.append(path)
            }
            try framer.finish(events)
            framing = framing + framer.statistics
        }
    }

    /// `file:line: reason: text` on standard error.
    static func report(_ rejection: Rejection, in file: String) {
        let text = String(decoding: rejection.bytes.prefix(100), as: UTF8.self)
            .map { $0.isASCII && ($0.asciiValue! >= 0x20 && $0.asciiValue! < 0x7F) ? String($0) : "?" }.joined()
        Console.error("\(file):\(rejection.line): \(rejection.error): \(text)\n")
    }

    /// `file:line: reason: text` for a sentence whose fields did not decode.
    static func report(_ error: NMEAError, in sentence: Sentence, file: String) {
        let text = String(decoding: sentence.bytes.prefix(100), as: UTF8.self)
        Console.error("\(file):\(sentence.line): \(sentence.type): \(error): \(text)\n")
    }

    /// One line on standard error when anything was rejected, so bad input is never silent.
    func printSummary(command: String, decoding: DecoderStatistics?) {
        var parts: [String] = []
        func add(_ count: Int, _ what: String) { if count > 0 { parts.append("\(count) \(what)") } }
        add(framing.checksumMismatches, "bad checksum")
        add(framing.missingChecksums, "missing checksum")
        add(framing.malformedChecksums, "malformed checksum")
        add(framing.overlong, "overlong")
        add(framing.truncated, "truncated")
        add(framing.badAddresses, "bad address")
        add(decoding?.failed ?? 0, "undecodable")
        guard !parts.isEmpty else { return }
        let total = framing.rejected + (decoding?.failed ?? 0)
        var advice = verbose ? "" : "; -v lists them"
        if framing.missingChecksums > 0 && checksumPolicy == .required {
            advice += "; --allow-missing-checksum accepts sentences without one"
        }
        Console.error("\(command): \(total) line\(total == 1 ? "" : "s") rejected (\(parts.joined(separator: ", ")))"
            + "\(advice)\n")
    }

    /// The counters as a table, for `--stats`.
    func statisticsTable(decoding: DecoderStatistics?) -> String {
        var rows: [(String, Int)] = []
        rows.append(("bytes", framing.bytes))
        rows.append(("sentences", framing.sentences))
        if let decoding {
            for kind in SentenceKind.allCases where decoding[kind] > 0 { rows.append(("  " + kind.name, decoding[kind])) }
            rows.append(("  unknown type", decoding.unknown))
            rows.append(("  undecodable", decoding.failed))
        }
        rows.append(("  without checksum", framing.sentencesWithoutChecksum))
        rows.append(("rejected", framing.rejected))
        rows.append(("  bad checksum", framing.checksumMismatches))
        rows.append(("  missing checksum", framing.missingChecksums))
        rows.append(("  malformed checksum", framing.malformedChecksums))
        rows.append(("  overlong", framing.overlong))
        rows.append(("  truncated", framing.truncated))
        rows.append(("  bad address", framing.badAddresses))
        rows.append(("garbage bytes", framing.garbageBytes))
        rows.append(("binary frame bytes", framing.binaryFrameBytes))
        rows.append(("comment lines", framing.commentLines))
        return rows.map { name, value in
            name + String(repeating: " ", count: max(1, 22 - name.count)) + String(value)
        }.joined(separator: "\n") + "\n"
    }
}
