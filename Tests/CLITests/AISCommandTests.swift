import Foundation
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

    /// An AIS transponder's log: the own ship's reports (`!AIVDO`) with TAG block receive times, another vessel's
    /// report, and an own-ship report with no receive time (written by this project's tests, values known).
    static let ownShipLog =
        [
            #"\c:1700000000000*6F\!AIVDO,1,1,,A,139>Jh@P1sPfdB0Nu<p1j?vt0000,0*60"#,
            #"\c:1700000000500*6A\!AIVDM,1,1,,A,13`dU0PP1sPBCp0NDrh1j?vt0000,0*60"#,
            #"\c:1700000001000*6E\!AIVDO,1,1,,A,139>Jh@P1sPfdEhNu=71j?vt0000,0*79"#,
            #"!AIVDO,1,1,,A,139>Jh@P1sPg9U0O0o@1j?vt0000,0*0C"#,
            #"\c:1700000002000*6D\!AIVDO,1,1,,A,139>Jh@P1sPfdIPNu=F1j?vt0000,0*3C"#,
        ].joined(separator: "\r\n") + "\r\n"

    @Test("--own-ship: the own ship's reports with a receive time are the fixes, the same on every core")
    func ownShip() throws {
        let directory = TemporaryDirectory("own-ship").path
        let path = directory + "/transponder.nmea"
        try Self.ownShipLog.write(toFile: path, atomically: true, encoding: .utf8)
        let fixes = try Tool.run(["parse", "--fixes", "--own-ship", path])
        #expect(fixes.status == 0)
        #expect(
            fixes.output == """
                {"time":"2023-11-14T22:13:20.000Z","lat":54.1,"lon":10.2,"mode":"2d","quality":"gps","speed":6.328,"course":45.6}
                {"time":"2023-11-14T22:13:21.000Z","lat":54.1001,"lon":10.2002,"mode":"2d","quality":"gps","speed":6.328,"course":45.6}
                {"time":"2023-11-14T22:13:22.000Z","lat":54.1002,"lon":10.2004,"mode":"2d","quality":"gps","speed":6.328,"course":45.6}

                """)
        let inPieces = try ChildProcess.run(
            [BuiltExecutables.nmea, "parse", "--fixes", "--own-ship", "--jobs", "2", path],
            environment: ["NMEA_PIECE_BYTES": "40"])
        #expect(inPieces.output == fixes.output)
        // Without the option the same log has no fix.
        #expect(try Tool.run(["parse", "--fixes", path]).output == "")
    }
}
