import Foundation
import NMEA
import TestSupport
import Testing

/// Fixes read by a ``FixReader`` from sentence bodies (checksums added), one line each.
private func fixes(_ lines: [String], options: FixAssembler.Options = .init()) -> [Fix] {
    var reader = FixReader(options: .init(assembler: options))
    var fixes: [Fix] = []
    reader.read(Array(lines.map { withChecksum($0) + "\r\n" }.joined().utf8)) { fixes.append($0) }
    reader.finish { fixes.append($0) }
    return fixes
}

private func gga(_ time: String, _ lat: String = "4231.8291") -> String {
    "$GPGGA,\(time),\(lat),N,08807.3033,W,1,05,1.6,209.8,M,-34.2,M,0.0,0000"
}

private func rmc(_ time: String, date: String = "070804") -> String {
    "$GPRMC,\(time),A,4231.8291,N,08807.3033,W,0.17,138.92,\(date),,"
}

/// Issue 12, item 3: a sentence that only carries a time (ZDA, `$PUBX,04`, GST…) is never a fix of its own and never
/// ends an epoch that has no fix yet, so it cannot cut a track into one-point segments.
@Suite struct TimeOnlyEpochTests {
    /// GPSBabel's `nmea` log: each cycle begins with a ZDA at the whole second, then GGA, GSA, GSV, RMC at `.379`.
    @Test func aZDAAtTheWholeSecondBeforeItsFixIsNoFixOfItsOwn() {
        let result = fixes([
            "$GPZDA,032908,07,08,2004,00,00", gga("032908.379"), "$GPGSA,A,3,28,08,11,27,07,,,,,,,,4.9,1.6,4.5",
            rmc("032908.379"), "$GPZDA,032909,07,08,2004,00,00", gga("032909.379"), rmc("032909.379"),
        ])
        #expect(result.map(\.iso8601) == ["2004-08-07T03:29:08.379Z", "2004-08-07T03:29:09.379Z"])
        #expect(result.allSatisfy { $0.hasPosition && $0.mode == .threeD })
    }

    /// The time-less sentences that came after the ZDA (a GSV here) stay in the epoch it becomes.
    @Test func sentencesAfterTheZDAStayInTheEpoch() {
        let result = fixes([
            "$GPZDA,032910,07,08,2004,00,00", "$GPGSV,1,1,01,28,64,316,40", gga("032910.379"), rmc("032910.379"),
        ])
        #expect(result.count == 1)
        #expect(result.first?.satellites.count == 1)
        #expect(result.first?.date == UTCDate(year: 2004, month: 8, day: 7))
    }

    /// The Ashtech AC12 of gpsd's `ac12.log` sends its ZDA two seconds ahead of its fix, after the RMC.
    @Test func aZDAAheadOfTheFixNeitherEndsNorMakesAnEpoch() {
        let result = fixes([
            gga("193221.00"), rmc("193221.00", date: "231207"), "$GPZDA,193223.00,23,12,2007,00,00",
            gga("193222.00"), rmc("193222.00", date: "231207"), "$GPZDA,193224.00,23,12,2007,00,00",
            gga("193223.00"), rmc("193223.00", date: "231207"), "$GPZDA,193225.00,23,12,2007,00,00",
        ])
        #expect(
            result.map(\.iso8601) == [
                "2007-12-23T19:32:21.00Z", "2007-12-23T19:32:22.00Z", "2007-12-23T19:32:23.00Z",
            ])
        #expect(result.allSatisfy { $0.hasPosition })
    }

    /// A ZDA at 23:59:59 followed by the fix at 00:00:00.379: the date moves on with the time.
    @Test func theZDAsDateFollowsItsEpochAcrossMidnight() {
        let result = fixes(["$GPZDA,235959,07,08,2004,00,00", gga("000000.379")])
        #expect(result.map(\.iso8601) == ["2004-08-08T00:00:00.379Z"])
    }

    /// A GGA-only log whose one ZDA, with a time of its own, comes last: no fix for it, but it dates the others.
    @Test func aLastZDAAloneDatesTheHeldFixesWithoutAFixOfItsOwn() {
        let result = fixes([gga("235958"), gga("235959"), "$GPZDA,000000.000,09,03,2019,00,00"])
        #expect(result.map(\.iso8601) == ["2019-03-08T23:59:58Z", "2019-03-08T23:59:59Z"])
    }

    /// Time-only sentences from other types behave the same: `$PUBX,04` and GST before the fix.
    @Test func otherTimeOnlySentencesToo() {
        let result = fixes([
            "$PUBX,04,073730.00,091202,113850.00,1196,15D,1930035,-2660.664,43,",
            "$GPGST,073730.00,0.006,0.023,0.020,273.6,0.023,0.020,0.031",
            gga("073730.50"), rmc("073730.50", date: "091202"),
        ])
        #expect(result.map(\.iso8601) == ["2002-12-09T07:37:30.50Z"])
        #expect(result.first?.latitudeErrorMeters == 0.023)
    }

    /// A sentence that reports that there is no fix (RMC `V`) still makes a fix without a position: the fix was lost.
    @Test func aReportedLossOfFixIsStillAFix() {
        let result = fixes([
            "$GPZDA,120000,07,08,2004,00,00", "$GPRMC,120000.5,V,,,,,,,070804,,", rmc("120001.5"),
        ])
        #expect(result.map(\.hasPosition) == [false, true])
    }

    /// The three logs of the issue: every fix has a position, and none is cut off on its own.
    @Test(
        .enabled(if: Locations.corpus != nil, "the shared NMEA corpus is absent (set NMEA_CORPUS)"),
        arguments: [
            ("gpsbabel/nmea", 154), ("gpsd/ac12.log", 7), ("gpsd/mixed-binary/ac12_binary.log", 5),
        ])
    func corpusLogsWithZDAGiveOnlyFixesWithAPosition(log: String, positions: Int) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Locations.corpus! + "/" + log))
        var reader = FixReader()
        var result: [Fix] = []
        reader.read(bytes) { result.append($0) }
        reader.finish { result.append($0) }
        #expect(result.filter { !$0.hasPosition }.map { $0.iso8601 ?? "-" } == [])
        #expect(result.count == positions)
    }
}
