import TestSupport
import Testing

/// `nmea ais` and `nmea parse` on the bundled harbour sample (our own sentences: a two-part type 5, class A and B
/// position reports, a type 24 in two parts).
@Suite("nmea ais")
struct AISCommandTests {
    static let sample = Locations.packageRoot + "/nmea-samples/harbour-ais.nmea"

    @Test("one row per vessel: names from types 5 and 24, last position, messages")
    func table() throws {
        let outcome = try Tool.run(["ais", Self.sample])
        #expect(outcome.status == 0)
        #expect(
            outcome.output == """
                MMSI       NAME         CALL SIGN  TYPE  SIZE    DESTINATION  LAT       LON      COG    SOG   MSGS
                211200002  SEEADLER     DA1234     36    12x4                 53.54000  9.97000  180.0  5.3   7
                244100001  NORDERLICHT  PDAB       70    110x16  HAMBURG      53.55000  9.97000  61.2   12.4  7

                """)
        #expect(outcome.error == "nmea ais: 16 AIS sentences: 14 messages\n")
    }

    @Test("--json, and parse --ais-only --mmsi keeps one station's messages")
    func json() throws {
        let vessels = try Tool.run(["ais", "--json", Self.sample])
        #expect(vessels.output.hasPrefix(#"{"vessels":[{"mmsi":211200002,"name":"SEEADLER","callsign":"DA1234","#))
        let parsed = try Tool.run(["parse", "--mmsi", "211200002", Self.sample])
        #expect(parsed.status == 0)
        let lines = parsed.output.split(separator: "\n")
        #expect(lines.count == 7)
        #expect(lines.allSatisfy { $0.contains(#""mmsi":211200002"#) })
        #expect(parsed.error.contains("7 of other stations"))
        let bad = try Tool.run(["parse", "--mmsi", "abc", Self.sample])
        #expect(bad.status == 64)
    }
}
