import CChecksumSplit
import JSON
import NMEA
import Simulation
import System

/// `nmea bench`: how fast the parser frames and decodes, in memory.
enum BenchCommand: Command {
    static let spec = CommandSpec(
        name: "bench",
        abstract: "Measure framing and decoding speed in sentences per second.",
        discussion: """
            Loads FILE (or generates the built-in multi-GNSS corpus: RMC, GGA, 4×GSA, 7×GSV, VTG, GLL and ZDA per \
            epoch) into memory, then frames and decodes it several times on one core, feeding 64 KiB chunks as a \
            file reader would. Prints the median pass: framing alone, full typed decode (each sentence decoded into \
            its type and handed to a SentenceVisitor), the same decode into a ParsedSentence enum, and the whole \
            stream into fixes (a FixReader: framing, decoding and fix assembly). Then AIS: FILE's !AIVDM \
            sentences, or built-in traffic of as many messages as --sentences, assembled and every field of \
            every message read as a typed value (messages per second). Then UBX: FILE's u-blox frames, or an \
            emulated F9's output of one epoch per 16 sentences (NAV-PVT, NAV-SAT, NAV-DOP, NAV-EOE), read into \
            fixes (messages per second). Beside typed decoding, a C loop that only finds `$`, `*` and line ends, \
            XORs the checksum and records the commas, over the same bytes, and typed decoding's speed as a \
            fraction of it: the median of the ratios of the two passes run one after the other.
            """,
        arguments: [file],
        options: [iterations, sentences, json],
        examples: ["nmea bench", "nmea bench --json --iterations 11", "nmea bench capture.nmea"])

    struct Pass {
        var sentences = 0
        var seconds = 0.0
    }

    private static let file = Argument<String?>(
        "file", help: "An NMEA file to measure with; omit for the built-in corpus.")
    private static let iterations = Option<Int>(
        long: "iterations", valueName: "n", help: "Passes over the input.", default: 7, in: 1...1000)
    private static let sentences = Option<Int>(
        long: "sentences", valueName: "n", help: "Size of the built-in corpus.", default: 1_000_000,
        in: 16...100_000_000)
    private static let json = Flag(long: "json", help: "Print one JSON object instead of a table.")

    /// The median pass of each measurement.
    struct Result {
        var source: String
        var bytes: Int
        var iterations: Int
        var framing: Pass
        var decoding: Pass
        var enumDecoding: Pass
        var reading: Pass
        /// The C checksum + split loop over the same bytes.
        var cLoop = Pass()
        /// Typed decoding's speed over the C loop's: the median of each iteration's ratio, the two passes run one
        /// after the other (1 when as fast). A ratio of passes side by side changes less with the machine's load
        /// than one of medians taken apart.
        var ratioToCLoop = 0.0
        var aisSource: String
        var aisBytes: Int
        var ais: AISPass
        var ubxSource = ""
        var ubxBytes = 0
        var ubx = UBXPass()
        var check: Int
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let iterations = try arguments.value(Self.iterations)
        let corpusSize = try arguments.value(sentences)
        let bytes: [UInt8]
        let source: String
        if let path = arguments.value(file) {
            bytes = try readWholeFile(path)
            source = path
        } else {
            bytes = generateCorpus(sentences: corpusSize)
            source = "built-in multi-GNSS corpus (16 sentences per epoch)"
        }
        let aisInput = aisInput(bytes, fileName: arguments.value(file), messages: corpusSize)
        var result = measure(bytes, source: source, iterations: iterations)
        var aisPasses: [AISPass] = []
        for _ in 0..<iterations { aisPasses.append(measureAIS(aisInput.bytes, sink: &result.check)) }
        result.ais = median(aisPasses, by: \.seconds)
        result.aisSource = aisInput.source
        result.aisBytes = aisInput.bytes.count
        let ubxInput = ubxInput(bytes, fileName: arguments.value(file), epochs: max(1, corpusSize / 16))
        var ubxPasses: [UBXPass] = []
        for _ in 0..<iterations { ubxPasses.append(measureUBX(ubxInput.bytes, sink: &result.check)) }
        result.ubx = median(ubxPasses, by: \.seconds)
        result.ubxSource = ubxInput.source
        result.ubxBytes = ubxInput.bytes.count
        Console.standardOutput.write(arguments.flag(json) ? jsonText(result) : table(result))
        return ExitStatus.success
    }

    /// Every measurement `iterations` times, each one's median kept.
    static func measure(_ bytes: [UInt8], source: String, iterations: Int) -> Result {
        var framing: [Pass] = []
        var decoding: [Pass] = []
        var enumDecoding: [Pass] = []
        var reading: [Pass] = []
        var cLoop: [Pass] = []
        var ratios: [Double] = []
        var sink = 0
        for _ in 0..<iterations {
            framing.append(measure(bytes, .framing, sink: &sink))
            let typed = measure(bytes, .visitor, sink: &sink)
            let reference = measureCLoop(bytes, sink: &sink)
            decoding.append(typed)
            cLoop.append(reference)
            ratios.append(ratio(typed, over: reference))
            enumDecoding.append(measure(bytes, .parsedSentence, sink: &sink))
            reading.append(measureFixReader(bytes, sink: &sink))
        }
        return Result(
            source: source, bytes: bytes.count, iterations: iterations, framing: median(framing, by: \.seconds),
            decoding: median(decoding, by: \.seconds), enumDecoding: median(enumDecoding, by: \.seconds),
            reading: median(reading, by: \.seconds), cLoop: median(cLoop, by: \.seconds),
            ratioToCLoop: median(ratios, by: \.self), aisSource: "", aisBytes: 0,
            ais: AISPass(), check: sink)
    }

    /// One pass of the C reference loop (`nmea_checksum_split`) over the whole input at once.
    static func measureCLoop(_ bytes: [UInt8], sink: inout Int) -> Pass {
        let start = MonotonicTime.now().seconds
        let found = bytes.withUnsafeBufferPointer { nmea_checksum_split($0.baseAddress, $0.count) }
        let seconds = MonotonicTime.now().seconds - start
        sink &+= Int(truncatingIfNeeded: found.check) &+ found.rejected
        return Pass(sentences: found.sentences, seconds: seconds)
    }

    /// The speed of `pass` over that of `reference`, sentences per second each (1 when as fast).
    static func ratio(_ pass: Pass, over reference: Pass) -> Double {
        (Double(pass.sentences) / pass.seconds) / (Double(reference.sentences) / reference.seconds)
    }

    /// `--json`: one object, and a line ending.
    static func jsonText(_ result: Result) -> String {
        let decode = result.decoding
        var json = JSONWriter()
        json.beginObject()
        json.field("input", result.source)
        json.field("bytes", result.bytes)
        json.field("iterations", result.iterations)
        json.field("sentences", decode.sentences)
        json.field("seconds", decode.seconds, decimals: 6)
        json.field("sentences_per_second", Double(decode.sentences) / decode.seconds, decimals: 0)
        json.field("bytes_per_second", Double(result.bytes) / decode.seconds, decimals: 0)
        let passes = [
            ("framing", result.framing), ("parsed_sentence", result.enumDecoding), ("fix_reader", result.reading),
            ("c_checksum_split", result.cLoop),
        ]
        for (name, pass) in passes {
            json.key(name)
            json.beginObject()
            json.field("sentences", pass.sentences)
            json.field("seconds", pass.seconds, decimals: 6)
            json.field("sentences_per_second", Double(pass.sentences) / pass.seconds, decimals: 0)
            json.field("bytes_per_second", Double(result.bytes) / pass.seconds, decimals: 0)
            json.endObject()
        }
        json.field("typed_decode_over_c_loop", result.ratioToCLoop, decimals: 3)
        json.key("ais")
        json.beginObject()
        json.field("input", result.aisSource)
        json.field("messages", result.ais.messages)
        json.field("seconds", result.ais.seconds, decimals: 6)
        json.field("messages_per_second", Double(result.ais.messages) / result.ais.seconds, decimals: 0)
        json.endObject()
        json.key("ubx")
        json.beginObject()
        json.field("input", result.ubxSource)
        json.field("messages", result.ubx.messages)
        json.field("fixes", result.ubx.fixes)
        json.field("seconds", result.ubx.seconds, decimals: 6)
        json.field("messages_per_second", Double(result.ubx.messages) / result.ubx.seconds, decimals: 0)
        json.endObject()
        json.field("check", result.check)
        json.endObject()
        return json.string + "\n"
    }

    /// The table: a row per measurement.
    static func table(_ result: Result) -> String {
        let megabytes = Double(result.bytes) / 1e6
        let passes = result.iterations == 1 ? "one pass" : "median of \(result.iterations) passes"
        var out = "input: \(result.source)\n"
        out += "       \(result.decoding.sentences) sentences, \(format(megabytes, 1)) MB, \(passes)\n"
        out += row("framing + checksum", result.framing, megabytes)
        out += row("full typed decode", result.decoding, megabytes)
        out += row("C checksum + split", result.cLoop, megabytes)
        out += "  typed decode / C loop: \(format(result.ratioToCLoop, 2))× (median of each pass's ratio)\n"
        out += row("  as ParsedSentence", result.enumDecoding, megabytes)
        out += row("into fixes (FixReader)", result.reading, megabytes)
        if result.aisSource != result.source {
            out += "AIS input: \(result.aisSource)\n"
            out += "       \(result.ais.messages) messages, \(format(Double(result.aisBytes) / 1e6, 1)) MB\n"
        }
        out += aisRow(result.ais, Double(result.aisBytes) / 1e6)
        if result.ubxSource != result.source {
            out += "UBX input: \(result.ubxSource)\n"
            out += "       \(result.ubx.messages) messages, \(format(Double(result.ubxBytes) / 1e6, 1)) MB\n"
        }
        out += ubxRow(result.ubx, Double(result.ubxBytes) / 1e6)
        return out
    }

    /// What a pass does with each sentence.
    enum Mode {
        /// Frame and check only.
        case framing
        /// Decode each sentence into its type and hand it to a ``SentenceVisitor`` (no copy).
        case visitor
        /// Decode each sentence into a ``ParsedSentence`` and switch on it.
        case parsedSentence
    }

    /// One pass: frame (and decode) everything, in 64 KiB chunks.
    static func measure(_ bytes: [UInt8], _ mode: Mode, sink: inout Int) -> Pass {
        var framer = Framer()
        var statistics = DecoderStatistics()
        var fingerprint = Fingerprint()
        let start = MonotonicTime.now().seconds
        forEachChunk(of: bytes) { chunk in
            switch mode {
            case .framing:
                framer.feed(chunk) { event in
                    if case .sentence(let sentence) = event { fingerprint.check &+= sentence.bytes.count }
                }
            case .visitor:
                framer.feed(chunk) { event in
                    guard case .sentence(let sentence) = event else { return }
                    do throws(NMEAError) {
                        statistics.record(try sentence.decode(into: &fingerprint))
                    } catch {
                        statistics.recordFailure()
                    }
                }
            case .parsedSentence:
                framer.feed(chunk) { event in
                    guard case .sentence(let sentence) = event else { return }
                    do throws(NMEAError) {
                        let parsed = try ParsedSentence(sentence)
                        statistics.record(parsed)
                        fingerprint.check &+= Fingerprint.of(parsed)
                    } catch {
                        statistics.recordFailure()
                    }
                }
            }
        }
        framer.finish { _ in }
        let seconds = MonotonicTime.now().seconds - start
        sink &+= fingerprint.check &+ statistics.failed
        return Pass(sentences: framer.statistics.sentences, seconds: seconds)
    }

    /// Hands `bytes` to `body` in 64 KiB chunks, as a file reader would.
    static func forEachChunk(of bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let end = min(offset + 65_536, buffer.count)
                body(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                offset = end
            }
        }
    }

    /// One pass of the whole stream into fixes: a ``FixReader`` fed the same chunks.
    static func measureFixReader(_ bytes: [UInt8], sink: inout Int) -> Pass {
        var reader = FixReader()
        var check = 0
        let start = MonotonicTime.now().seconds
        forEachChunk(of: bytes) { chunk in
            reader.read(chunk) { fix in
                check &+= Int(fix.latitude.map { $0 * 1e6 } ?? 0) &+ (fix.satellitesUsed ?? 0)
            }
        }
        reader.finish { fix in check &+= fix.satellites.count }
        let seconds = MonotonicTime.now().seconds - start
        sink &+= check &+ reader.statistics.decoder.failed
        return Pass(sentences: reader.statistics.framer.sentences, seconds: seconds)
    }

    /// A value that depends on the decoded fields, so the optimizer cannot skip decoding them.
    struct Fingerprint: SentenceVisitor {
        var check = 0

        @inline(__always)
        mutating func visit<S: DecodableSentence>(_ sentence: S) {
            if let rmc = sentence as? RMC {
                check &+= Int(truncatingIfNeeded: rmc.latitude?.significand ?? 0) &+ Int(rmc.time?.second ?? 0)
            } else if let gga = sentence as? GGA {
                check &+= Int(truncatingIfNeeded: gga.longitude?.significand ?? 0) &+ (gga.satellitesUsed ?? 0)
            } else if let gsa = sentence as? GSA {
                check &+= gsa.satellites.count &+ Int(truncatingIfNeeded: gsa.hdop?.significand ?? 0)
            } else if let gsv = sentence as? GSV {
                check &+= gsv.satellites.reduce(0) { $0 &+ Int($1.snr?.hundredths ?? 0) &+ Int($1.azimuthDegrees ?? 0) }
            } else if let vtg = sentence as? VTG {
                check &+= Int(truncatingIfNeeded: vtg.speedKnots?.significand ?? 0)
            } else if let gll = sentence as? GLL {
                check &+= Int(truncatingIfNeeded: gll.latitude?.significand ?? 0)
            } else if let zda = sentence as? ZDA {
                check &+= Int(zda.date?.day ?? 0)
            }
        }

        /// The same value from a ``ParsedSentence``.
        @inline(__always)
        static func of(_ parsed: ParsedSentence) -> Int {
            var fingerprint = Fingerprint()
            parsed.visit(into: &fingerprint)
            return fingerprint.check
        }
    }

    /// The middle of `values` ordered by `key` (the upper middle of an even count).
    static func median<Value>(_ values: [Value], by key: (Value) -> Double) -> Value {
        values.sorted { key($0) < key($1) }[values.count / 2]
    }

    static func row(_ name: String, _ pass: Pass, _ megabytes: Double) -> String {
        let rate = Double(pass.sentences) / pass.seconds / 1e6
        // The widest name ("into fixes (FixReader)") and one space: the figures line up.
        let padded = name + String(repeating: " ", count: max(1, 23 - name.count))
        return "\(padded)\(format(rate, 2)) M sentences/s   \(format(megabytes / pass.seconds, 0)) MB/s\n"
    }

    /// The built-in corpus: a simulated multi-GNSS drive, `sentences` long.
    static func generateCorpus(sentences: Int) -> [UInt8] {
        let epochs = (sentences + 15) / 16
        let scenario = Scenario(
            rateHz: 1, legs: [.drive(seconds: Double(epochs), speedKmh: 60, turnDegreesPerSecond: 0.5)])
        var builder = SentenceBuilder()
        let writer = EpochWriter(profile: .multiGNSS)
        for fix in scenario.fixes() { writer.write(fix, into: &builder) }
        return builder.bytes
    }

    static func readWholeFile(_ path: String) throws -> [UInt8] {
        let input = try InputFile(path: path)
        defer { input.close() }
        var bytes: [UInt8] = []
        try input.forEachChunk { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// `value` with `decimals` decimal places (``DecimalFormatter/string(_:decimals:)``).
func format(_ value: Double, _ decimals: Int) -> String { DecimalFormatter.string(value, decimals: decimals) }
