import AIS
import NMEA
import Testing

/// The own ship's AIS position reports as a fix source (`FixReader.Options.sentenceDecoder`).
@Suite("own-ship AIS positions as fixes")
struct AISOwnShipTests {
    /// A type 1 report of `mmsi` at `latitude`, `longitude`, 12.3 knots, course 45.6°, as `talker` sentences.
    static func report(mmsi: Int, latitude: Double, longitude: Double, talker: String) -> String {
        var encoder = AISEncoder()
        encoder.put(1, 6)
        encoder.put(0, 2)
        encoder.put(mmsi, 30)
        encoder.put(0, 4)  // under way using engine
        encoder.put(-128, 8)  // turn not available
        encoder.put(123, 10)  // 12.3 knots
        encoder.put(1, 1)
        encoder.put(Int((longitude * 600_000).rounded()), 28)
        encoder.put(Int((latitude * 600_000).rounded()), 27)
        encoder.put(456, 12)  // 45.6°
        encoder.put(511, 9)
        encoder.put(30, 6)
        encoder.put(0, 2 + 3 + 1 + 19)
        return String(decoding: encoder.sentences(talker: talker), as: UTF8.self)
    }

    static func own(latitude: Double, longitude: Double) -> String {
        report(mmsi: 211_000_001, latitude: latitude, longitude: longitude, talker: "AIVDO")
    }

    /// `\c:<milliseconds>*hh\` before `line`.
    static func received(_ milliseconds: Int64, _ line: String) -> String {
        let text = "c:\(milliseconds)"
        return "\\" + text + "*" + Hex.string(UInt64(text.utf8.reduce(UInt8(0), ^)), minimumDigits: 2) + "\\" + line
    }

    /// Three own-ship reports a second apart (TAG-blocked), another vessel's report between them, and an own-ship
    /// report with no receive time.
    static let log =
        received(1_700_000_000_000, own(latitude: 54.1, longitude: 10.2))
        + received(1_700_000_000_500, report(mmsi: 244_000_002, latitude: 53.0, longitude: 4.0, talker: "AIVDM"))
        + received(1_700_000_001_000, own(latitude: 54.1001, longitude: 10.2002))
        + own(latitude: 54.2, longitude: 10.3)
        + received(1_700_000_002_000, own(latitude: 54.1002, longitude: 10.2004))

    static func fixes(_ options: FixReader.Options) -> [Fix] {
        var reader = FixReader(options: options)
        var fixes: [Fix] = []
        reader.read(Array(log.utf8)) { fixes.append($0) }
        reader.finish { fixes.append($0) }
        return fixes
    }

    @Test("each own-ship report with a receive time is a fix at that time; other vessels' reports are not")
    func fixesFromOwnShip() throws {
        let fixes = Self.fixes(FixReader.Options(sentenceDecoder: AISOwnShip.report))
        #expect(fixes.map { $0.date?.description } == ["2023-11-14", "2023-11-14", "2023-11-14"])
        #expect(fixes.map { $0.time?.description } == ["22:13:20.000", "22:13:21.000", "22:13:22.000"])
        let latitudes = fixes.compactMap { $0.latitude.map { ($0 * 1e4).rounded() / 1e4 } }
        let longitudes = fixes.compactMap { $0.longitude.map { ($0 * 1e4).rounded() / 1e4 } }
        #expect(latitudes == [54.1, 54.1001, 54.1002])
        #expect(longitudes == [10.2, 10.2002, 10.2004])
        let first = try #require(fixes.first)
        #expect(abs(try #require(first.speed) - 12.3 * 1852 / 3600) < 1e-9)
        #expect(first.courseDegrees == 45.6)
        #expect(first.mode == .twoD)
        // Without the decoder the same log gives no fix at all.
        #expect(Self.fixes(FixReader.Options()).isEmpty)
    }

    @Test("read in pieces on other readers, the log gives the same fixes")
    func pieces() throws {
        let bytes = Array(Self.log.utf8)
        var assembler = FixReader(options: FixReader.Options(sentenceDecoder: AISOwnShip.report))
        var fixes: [Fix] = []
        // Cut after the first line: the first own-ship report is in one piece, the rest in the other.
        let cut = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
        for (index, range) in [0..<cut, cut..<bytes.count].enumerated() {
            let options = FixReader.Options(assemblesFixes: false, sentenceDecoder: AISOwnShip.report)
            var decoder = FixReader(options: options)
            var piece = DecodedSentences()
            Array(bytes[range]).withUnsafeBytes { decoder.decode($0, into: &piece, endsInput: index == 1) }
            assembler.assemble(piece) { fixes.append($0) }
        }
        assembler.finish { fixes.append($0) }
        let whole = Self.fixes(FixReader.Options(sentenceDecoder: AISOwnShip.report))
        #expect(fixes.count == 3)
        #expect(fixes.map { $0.time?.description } == whole.map { $0.time?.description })
        #expect(fixes.map(\.latitude) == whole.map(\.latitude))
    }
}
