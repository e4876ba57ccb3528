import Testing

@testable import NMEA

/// `FixReader.Options.readsSky` `false`: GSV sentences framed and checked and placed in the receiver's cycle, their
/// satellites not read. Every fix is the one a reader of the sky gives, less its sky.
@Suite struct SkyFreeReadingTests {
    /// A handler that records what it is handed.
    struct Seen: FixReader.Handler {
        var decoded: [SentenceKind] = []
        var skipped: [(line: Int, kind: SentenceKind, place: SentenceSignature)] = []

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {
            self.decoded.append(S.kind)
        }

        mutating func skippedSentence(
            _ sentence: Sentence, kind: SentenceKind, place: SentenceSignature, _ context: FixReader.Context
        ) {
            skipped.append((context.line, kind, place))
        }
    }

    static func read(_ bytes: [UInt8], readsSky: Bool, handler: inout Seen) -> (
        fixes: [Fix], statistics: FixReader.Statistics
    ) {
        var reader = FixReader(options: FixReader.Options(readsSky: readsSky))
        var fixes: [Fix] = []
        reader.read(bytes, handler: &handler) { fixes.append($0) }
        reader.finish(handler: &handler) { fixes.append($0) }
        return (fixes, reader.statistics)
    }

    static func withoutSky(_ fixes: [Fix]) -> [Fix] {
        fixes.map { fix in
            var fix = fix
            fix.satellites.removeAll()
            return fix
        }
    }

    /// A receiver whose cycle ends with its GSV group: the end of each epoch is the last part of the last GSV, which
    /// a reader that skips GSV must still see (from the part numbers, the only fields it reads).
    @Test func aCycleEndingInGSVClosesEachEpochAsWithTheSky() {
        var lines: [String] = []
        for second in 0..<5 {
            let time = "12000\(second).00"
            lines.append(withChecksum("$GPRMC,\(time),A,4807.038,N,01131.000,E,010.0,045.0,301126,,,A"))
            lines.append(withChecksum("$GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
            lines.append(withChecksum("$GPGSA,A,3,04,05,09,12,,,,,,,,,2.5,1.3,2.1"))
            lines.append(withChecksum("$GPGSV,2,1,05,04,45,120,40,05,30,200,38,09,60,080,44,12,10,300,30"))
            lines.append(withChecksum("$GPGSV,2,2,05,25,05,010,"))
        }
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        var withSky = Seen()
        var without = Seen()
        let sky = Self.read(bytes, readsSky: true, handler: &withSky)
        let skyless = Self.read(bytes, readsSky: false, handler: &without)

        #expect(sky.fixes.count == 5)
        #expect(sky.fixes.allSatisfy { $0.satellites.count == 5 })
        #expect(skyless.fixes == Self.withoutSky(sky.fixes))
        #expect(skyless.fixes.allSatisfy { $0.satellites.isEmpty })
        // As many epochs closed at the learned end of the cycle (the last GSV) as with the sky: three of the five (the
        // first epochs teach the end, the last is ended by the end of the input).
        #expect(
            skyless.statistics.assembler.epochsClosedByCycleEnd
                == sky.statistics.assembler.epochsClosedByCycleEnd)
        #expect(sky.statistics.assembler.epochsClosedByCycleEnd == 3)

        #expect(without.skipped.map(\.line) == [4, 5, 9, 10, 14, 15, 19, 20, 24, 25])
        #expect(without.skipped.allSatisfy { $0.kind == .gsv && $0.place.type == .gsv && $0.place.talker == .gps })
        // Each GSV's place: the first of its group of two, then the last.
        #expect(without.skipped.map(\.place.isLastPart) == Array(repeating: [false, true], count: 5).flatMap { $0 })
        #expect(!without.decoded.contains(.gsv))
        #expect(withSky.decoded.filter { $0 == .gsv }.count == 10)
        #expect(skyless.statistics.decoder.skipped == 10)
        #expect(skyless.statistics.decoder[.gsv] == 0)
        #expect(sky.statistics.decoder.skipped == 0)
        #expect(sky.statistics.decoder[.gsv] == 10)
    }

    /// Read in pieces on other readers and assembled in order, the same fixes as read at once.
    @Test func piecesAssembleAsTheWholeReads() throws {
        let bytes = try FixReaderTests.sample("drive.nmea")
        var none = Seen()
        let whole = Self.read(bytes, readsSky: false, handler: &none).fixes
        #expect(whole.count > 100)

        var assembler = FixReader(options: FixReader.Options(readsSky: false))
        var fixes: [Fix] = []
        var offset = 0
        while offset < bytes.count {
            var end = min(offset + 4096, bytes.count)
            while end < bytes.count && bytes[end - 1] != UInt8(ascii: "\n") { end += 1 }
            var worker = FixReader(options: FixReader.Options(assemblesFixes: false, readsSky: false))
            var piece = DecodedSentences()
            bytes[offset..<end].withUnsafeBytes { worker.decode($0, into: &piece, endsInput: end == bytes.count) }
            assembler.assemble(piece) { fixes.append($0) }
            offset = end
        }
        assembler.finish { fixes.append($0) }
        #expect(fixes == whole)
        #expect(assembler.statistics.decoder.skipped > 0)
    }

    /// Every log of the real corpus: the fixes of a reader of the sky, less their sky; GSV counted as skipped.
    @Test(
        .enabled(if: Corpus.directory != nil, "corpus not found: set NMEA_CORPUS or put it at ../shared/nmea-corpus"))
    func theCorpusGivesTheSameFixesLessTheirSky() throws {
        var skippedInAll = 0
        for file in try Corpus.inputFiles() {
            let bytes = try Corpus.read(file)
            var seen = Seen()
            let sky = Self.read(bytes, readsSky: true, handler: &seen)
            let skyless = Self.read(bytes, readsSky: false, handler: &seen)
            #expect(Self.withoutSky(skyless.fixes) == Self.withoutSky(sky.fixes), "\(file)")
            let decoded = sky.statistics.decoder
            let skipped = skyless.statistics.decoder
            // Every GSV counted once: skipped where the sky reader decoded it, failed where it found no field in it.
            #expect(skipped.skipped == decoded[.gsv], "\(file)")
            #expect(skipped.failed == decoded.failed, "\(file)")
            #expect(skipped.totalDecoded == decoded.totalDecoded - decoded[.gsv], "\(file)")
            #expect(skyless.statistics.assembler == sky.statistics.assembler, "\(file)")
            skippedInAll += skipped.skipped
        }
        #expect(skippedInAll > 10_000)
    }
}

extension SkyFreeReadingTests {
    /// A GSV without a single field is undecodable with the sky or without it, and takes no place in the cycle.
    @Test func aGSVWithoutFieldsIsUndecodableEitherWay() {
        let lines = [
            withChecksum("$GPRMC,120000.00,A,4807.038,N,01131.000,E,010.0,045.0,301126,,,A"),
            withChecksum("$GPGSV"),
            withChecksum("$GPRMC,120001.00,A,4807.038,N,01131.000,E,010.0,045.0,301126,,,A"),
        ]
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
        var seen = Seen()
        let sky = Self.read(bytes, readsSky: true, handler: &seen)
        let skyless = Self.read(bytes, readsSky: false, handler: &seen)
        #expect(sky.statistics.decoder.failed == 1)
        #expect(skyless.statistics.decoder.failed == 1)
        #expect(skyless.statistics.decoder.skipped == 0)
        #expect(skyless.fixes == sky.fixes)
        #expect(skyless.statistics.assembler == sky.statistics.assembler)
    }
}
