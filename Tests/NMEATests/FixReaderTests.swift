import Foundation
import Simulation
import TestSupport
import Testing

@testable import NMEA

/// `FixReader`: the one stream from bytes to fixes.
@Suite struct FixReaderTests {
    static func sample(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Locations.packageRoot + "/nmea-samples/\(name)")))
    }

    /// What one read of `bytes` gave, fed in pieces of the sizes `chunks` returns (0 for the rest at once).
    struct Outcome: Equatable {
        var fixes: [Fix] = []
        var statistics = FixReader.Statistics()
        var events: [String] = []
    }

    /// The handler's calls and the fixes, as text, in the order they came.
    final class Log {
        var events: [String] = []
    }

    /// Records every handler call in its log.
    struct Recorder: FixReader.Handler {
        let log = Log()
        var events: [String] {
            get { log.events }
            nonmutating set { log.events = newValue }
        }

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {
            // The value handed out is the one the registry's decoder gives, as a `ParsedSentence` would hold it.
            let errors = context.fieldErrors.isEmpty ? "" : " without \(context.fieldErrors)"
            events.append("\(context.line) \(S.kind.name) \(ParsedSentence(decoded))\(errors)")
        }

        mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) {
            events.append("\(context.line) unknown \(sentence.address)")
        }

        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {
            events.append("\(context.line) undecodable \(error)")
        }

        mutating func rejected(_ rejection: Rejection, _ context: FixReader.Context) {
            events.append("\(context.line) rejected \(rejection.error)")
        }
    }

    static func read(_ bytes: [UInt8], options: FixReader.Options = .init(), chunk: (Int) -> Int) -> Outcome {
        var reader = FixReader(options: options)
        var recorder = Recorder()
        var outcome = Outcome()
        var offset = 0
        while offset < bytes.count {
            let size = chunk(offset)
            let end = size == 0 ? bytes.count : min(offset + size, bytes.count)
            let log = recorder.log
            reader.read(bytes[offset..<end], handler: &recorder) { fix in
                outcome.fixes.append(fix)
                log.events.append("fix \(fix.time.map(String.init(describing:)) ?? "-")")
            }
            offset = end
        }
        let log = recorder.log
        reader.finish(handler: &recorder) { fix in
            outcome.fixes.append(fix)
            log.events.append("fix \(fix.time.map(String.init(describing:)) ?? "-")")
        }
        outcome.statistics = reader.statistics
        outcome.events = recorder.events
        return outcome
    }

    @Test func givesTheSameFixesSentencesAndCountersHoweverTheBytesArrive() throws {
        for name in ["drive.nmea", "faulty.nmea", "commute.nmea"] {
            let bytes = try Self.sample(name)
            let whole = Self.read(bytes) { _ in 0 }
            #expect(whole.fixes.count > 10, "\(name)")
            #expect(whole.statistics.framer.bytes == bytes.count)
            #expect(whole.statistics.assembler.fixes == whole.fixes.count)
            let byteByByte = Self.read(bytes) { _ in 1 }
            #expect(byteByByte == whole, "\(name) byte by byte")
            var random = SplitMix64(seed: 11)
            let randomly = Self.read(bytes) { _ in Int(random.next() % 300) + 1 }
            #expect(randomly == whole, "\(name) in random pieces")
        }
    }

    /// The reader gives what framing, decoding and assembling by hand give: the same fixes, the same counters.
    @Test func matchesAFramerAndAnAssemblerByHand() throws {
        let bytes = try Self.sample("faulty.nmea")
        var framer = Framer()
        var assembler = FixAssembler()
        var decoder = DecoderStatistics()
        var fixes: [Fix] = []
        let handle: (FramerEvent) -> Void = { event in
            guard case .sentence(let sentence) = event else { return }
            do throws(NMEAError) {
                let parsed = try ParsedSentence(sentence)
                decoder.record(parsed)
                assembler.add(parsed) { fixes.append($0) }
            } catch {
                decoder.recordFailure()
            }
        }
        framer.feed(bytes, handle)
        framer.finish(handle)
        assembler.finish { fixes.append($0) }

        let outcome = Self.read(bytes) { _ in 4096 }
        #expect(outcome.fixes == fixes)
        #expect(outcome.statistics.framer == framer.statistics)
        #expect(outcome.statistics.decoder == decoder)
        #expect(outcome.statistics.assembler == assembler.statistics)
        #expect(framer.statistics.rejected > 0, "the sample has rejected lines")
    }

    @Test func handsEachSentenceWithItsValueBeforeTheFixesItCompletes() {
        let text = [
            withChecksum("$GPRMC,120000,A,4807.038,N,01131.000,E,010.0,045.0,301126,,,A"),
            withChecksum("$GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            withChecksum("$GPZFO,A,A,0.67,L,N"),
            withChecksum("$GPRMC,120000,X,4807.038,N,01131.000,E,010.0,045.0,301126,,,A"),
            withChecksum("$GPRMC"),
            "$GPGGA,120001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*00",
            withChecksum("$GPRMC,120001,A,4807.038,N,01131.000,E,010.0,045.0,301126,,,A"),
        ].joined(separator: "\r\n")
        let outcome = Self.read(Array(text.utf8)) { _ in 0 }
        let rmc = try! RMC(parsing: withChecksum("$GPRMC,120000,A,4807.038,N,01131.000,E,010.0,045.0,301126,,,A"))
        var badStatus = rmc
        badStatus.isValid = false
        #expect(outcome.events.count == 9)
        #expect(outcome.events[0] == "1 RMC \(ParsedSentence(rmc))")
        #expect(outcome.events[1].hasPrefix("2 GGA gga("))
        #expect(outcome.events[2] == "3 unknown GPZFO")
        // Issue 12, item 10: a bad status letter costs the status only; the sentence's other fields are handed out.
        #expect(outcome.events[3] == "4 RMC \(ParsedSentence(badStatus)) without field 2: unexpected character")
        #expect(outcome.events[4] == "5 undecodable too few fields: expected 1, found 0")
        #expect(outcome.events[5] == "6 rejected \(NMEAError.checksumMismatch(calculated: 0x48, found: 0))")
        // The second epoch's RMC (its last line, without a line ending) closes the first epoch; `finish` hands it out.
        #expect(outcome.events[6].hasPrefix("7 RMC rmc("))
        #expect(outcome.events[7] == "fix 12:00:00")
        #expect(outcome.events[8] == "fix 12:00:01")
        #expect(outcome.statistics.decoder[.rmc] == 3 && outcome.statistics.decoder.unknown == 1)
        #expect(outcome.statistics.decoder.failed == 1 && outcome.statistics.framer.checksumMismatches == 1)
        #expect(outcome.statistics.decoder.withFieldErrors == 1)
    }

    /// `finish` ends one input: the next one starts afresh, so the last epoch of one file never takes the first
    /// sentences of the next, and line numbers start again from 1.
    @Test func finishEndsOneInputAndTheNextStartsAfresh() {
        let first =
            [
                withChecksum("$GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            ].joined(separator: "\r\n") + "\r\n"
        // The next file's first sentence has the same time: one input, it would join the epoch above.
        let second = [
            withChecksum("$GPRMC,120000,A,4808.000,N,01132.000,E,010.0,045.0,301126,,,A"),
            withChecksum("$GPGGA,120001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ].joined(separator: "\r\n")
        var reader = FixReader()
        var recorder = Recorder()
        var fixes: [Fix] = []
        reader.read(Array(first.utf8), handler: &recorder) { fixes.append($0) }
        reader.finish(handler: &recorder) { fixes.append($0) }
        reader.read(Array(second.utf8), handler: &recorder) { fixes.append($0) }
        reader.finish(handler: &recorder) { fixes.append($0) }
        #expect(fixes.count == 3)
        #expect(fixes[0].latitude == 48.1173 && fixes[0].date == nil && fixes[0].altitudeMeters == 545.4)
        #expect(fixes[1].latitude.map { abs($0 - 48.133_333_33) < 1e-8 } == true && fixes[1].altitudeMeters == nil)
        #expect(fixes[1].date == UTCDate(year: 2026, month: 11, day: 30))
        #expect(recorder.events.map { $0.prefix(2) } == ["1 ", "1 ", "2 "])
        #expect(reader.statistics.assembler.fixes + reader.statistics.assembler.undatedFixes == 3)
        #expect(reader.statistics.framer.sentences == 3)
    }

    /// `reset` drops a partial line and the epoch in progress (a reconnection); `disconnect` first hands the epoch out.
    @Test func resetAndDisconnectStartAfreshWithoutFramingACutSentence() {
        let epoch = withChecksum("$GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\r\n"
        let cut = Array("$GPRMC,120001,A,48".utf8)
        for disconnecting in [false, true] {
            var reader = FixReader()
            var fixes: [Fix] = []
            reader.read(Array(epoch.utf8) + cut) { fixes.append($0) }
            if disconnecting { reader.disconnect { fixes.append($0) } } else { reader.reset() }
            reader.read(Array(("07.038,N*00\r\n" + epoch).utf8)) { fixes.append($0) }
            reader.finish { fixes.append($0) }
            // The cut RMC is never glued to the next bytes (they start mid-sentence and are garbage).
            #expect(reader.statistics.framer.sentences == 2)
            #expect(reader.statistics.framer.checksumMismatches == 0)
            #expect(fixes.count == (disconnecting ? 2 : 1), "disconnecting: \(disconnecting)")
            #expect(fixes.allSatisfy { $0.time == UTCTime(hour: 12, minute: 0, second: 0) })
        }
    }

    @Test func readsSentencesWithoutAssemblingWhenAskedTo() throws {
        let bytes = try Self.sample("drive.nmea")
        let outcome = Self.read(bytes, options: FixReader.Options(assemblesFixes: false)) { _ in 0 }
        #expect(outcome.fixes.isEmpty)
        #expect(outcome.statistics.assembler == FixAssembler.Statistics())
        #expect(outcome.statistics.decoder.totalDecoded == outcome.statistics.framer.sentences)
        #expect(outcome.events.count == outcome.statistics.framer.sentences)
    }

    @Test func optionsReachTheFramerAndTheAssembler() {
        let line = "$GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,\r\n"
        var strict = FixReader()
        var fixes: [Fix] = []
        strict.read(Array(line.utf8)) { fixes.append($0) }
        strict.finish { fixes.append($0) }
        #expect(fixes.isEmpty && strict.statistics.framer.missingChecksums == 1)

        let date = UTCDate(year: 2026, month: 6, day: 21)
        var lenient = FixReader(
            options: FixReader.Options(
                maximumLength: 80, checksumPolicy: .optional, assembler: FixAssembler.Options(fallbackDate: date)))
        lenient.read(Array(line.utf8)) { fixes.append($0) }
        lenient.read(Array(("$GPTXT,01,01,02," + String(repeating: "A", count: 80) + "\r\n").utf8)) { _ in }
        lenient.finish { fixes.append($0) }
        #expect(fixes.count == 1 && fixes[0].date == date)
        #expect(lenient.statistics.framer.sentencesWithoutChecksum == 1 && lenient.statistics.framer.overlong == 1)
    }
}
