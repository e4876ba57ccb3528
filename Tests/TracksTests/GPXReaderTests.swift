import Foundation
import NMEA
import Simulation
import System
import TestSupport
import Testing

@testable import Tracks

/// GPX read back as fixes: our own files in every chunking, other tools' files, and malformed XML with its line.
@Suite struct GPXReaderTests {
    static func read(_ text: String, chunk: Int = 1 << 16) throws -> (fixes: [Fix], reader: GPXReader) {
        var reader = GPXReader()
        let fixes = try readInChunks(
            text, chunk: chunk, read: { try reader.read($0, $1) }, finish: { try reader.finish($0) })
        return (fixes, reader)
    }

    static let journey = InteropTests.fixes
    static let points = InteropTests.points

    /// What a point keeps through GPX: position, elevation, time, speed, course, satellites, DOPs, fix.
    static func summary(_ fix: Fix) -> String {
        "\(fix.iso8601 ?? "-") \(fix.latitude!) \(fix.longitude!) \(fix.altitudeMeters.map { "\($0)" } ?? "-") "
            + "\(fix.speed.map { DecimalFormatter.string($0, maximumDecimals: Fix.speedDecimals) } ?? "-") "
            + "\(fix.courseDegrees.map { "\($0)" } ?? "-") \(fix.satellitesUsed ?? -1) \(fix.hdop ?? -1) \(fix.mode)"
    }

    @Test(arguments: [GPXVersion.v11, .v10], [1, 7, 4096])
    func ourGPXReadsBackPointForPointInAnyChunking(version: GPXVersion, chunk: Int) throws {
        let path = TemporaryDirectory().file("j.gpx")
        let writer = try GPXWriter(path: path, version: version)
        for fix in Self.journey { try writer.write(fix) }
        try writer.finish()
        let (fixes, reader) = try Self.read(try String(contentsOfFile: path, encoding: .utf8), chunk: chunk)
        let points = fixes.filter(\.hasPosition)
        #expect(points.map(Self.summary) == Self.points.map(Self.summary))
        #expect(reader.statistics.points == Self.points.count)
        #expect(reader.statistics.segments == writer.statistics.segments)
        // A break after each segment: the fixes without a position.
        #expect(fixes.count - points.count == writer.statistics.segments)
    }

    /// The receiver's accuracy estimates go into our extension (beside Garmin's speed and course) and read back.
    @Test func accuraciesReadBack() throws {
        let path = TemporaryDirectory().file("a.gpx")
        var fix = Self.points[0]
        fix.horizontalErrorMeters = 1.25
        fix.verticalErrorMeters = 2.1
        fix.speedErrorMetersPerSecond = 0.3
        let writer = try GPXWriter(path: path)
        try writer.write(fix)
        try writer.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("</gpxtpx:TrackPointExtension><nmea:hacc>1.25</nmea:hacc><nmea:vacc>2.1</nmea:vacc>"))
        #expect(text.contains("<nmea:sacc>0.3</nmea:sacc></extensions>"))
        let read = try #require(try Self.read(text).fixes.filter(\.hasPosition).first)
        #expect(read.horizontalErrorMeters == 1.25)
        #expect(read.verticalErrorMeters == 2.1)
        #expect(read.speedErrorMetersPerSecond == 0.3)
    }

    @Test(.enabled(if: Support.gpsbabel != nil, "gpsbabel not installed"))
    func gpsbabelsGPXReadsAsItsPoints() throws {
        // GPSBabel's own GPX (1.0, with its speed and course) from our GPX 1.1 (with Garmin's extension).
        let directory = TemporaryDirectory()
        let ours = directory.file("ours.gpx")
        let writer = try GPXWriter(path: ours)
        for fix in Self.journey { try writer.write(fix) }
        try writer.finish()
        let theirs = directory.file("theirs.gpx")
        let outcome = try ChildProcess.run([
            Support.gpsbabel!, "-t", "-i", "gpx", "-f", ours, "-o", "gpx,gpxver=1.0", "-F", theirs,
        ])
        #expect(outcome.status == 0, "gpsbabel: \(outcome.error)")
        let (fixes, reader) = try Self.read(try String(contentsOfFile: theirs, encoding: .utf8))
        let points = fixes.filter(\.hasPosition)
        #expect(points.count == Self.points.count)
        #expect(points.map(\.iso8601) == Self.points.map { String($0.iso8601!.prefix(19)) + "Z" })
        // GPSBabel writes 9 decimals of degrees.
        #expect(points.map { ($0.latitude! * 1e6).rounded() } == Self.points.map { ($0.latitude! * 1e6).rounded() })
        #expect(reader.statistics.rejectedPoints == 0)
    }

    @Test func everyMarkupGPXMayHave() throws {
        let text = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE gpx [ <!ENTITY x "y"> ]>
            <!-- written by hand -->
            <gpx version="1.1" creator="a &amp; b" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><time>2020-01-01T00:00:00Z</time></metadata>
              <wpt lat="1" lon="2"><name>Home</name></wpt>
              <trk><name><![CDATA[Morning <ride>]]></name><trkseg>
                <trkpt lat='48.5' lon = "11.25"><ele> 520.5 </ele><time>2026-11-30T08:00:00.5Z</time>
                  <?garmin ignore?><extensions><gpxtpx:TrackPointExtension xmlns:gpxtpx="x">
                  <gpxtpx:speed>12.25</gpxtpx:speed><gpxtpx:course>90</gpxtpx:course></gpxtpx:TrackPointExtension>
                  </extensions></trkpt>
                <trkpt lat="48.6" lon="11.3"><time>2026-11-30T08:00:01+00:00</time><fix>dgps</fix><sat>7</sat>
                  <hdop>0.9</hdop></trkpt>
                <trkpt lat="95" lon="11.3"/>
                <trkpt lat="48.7" lon="11.4"><time>yesterday</time></trkpt>
              </trkseg></trk>
              <rte><rtept lat="-1.5" lon="-2.5"/></rte>
            </gpx>
            """
        let (fixes, reader) = try Self.read(text, chunk: 3)
        let points = fixes.filter(\.hasPosition)
        #expect(
            points.map(Self.summary) == [
                "2026-11-30T08:00:00.5Z 48.5 11.25 520.5 12.25 90.0 -1 -1.0 threeD",
                "2026-11-30T08:00:01Z 48.6 11.3 - - - 7 0.9 twoD",
            ])
        #expect(points[1].quality == .differential)
        // Issue 25, item 9: a point without <fix> gets none written back; one with <fix> keeps it.
        #expect(points.map(\.modeIsAssumed) == [true, false])
        #expect(reader.statistics.points == 2)
        #expect(reader.statistics.rejectedPoints == 2)
        #expect(reader.statistics.segments == 1)
        // The waypoint and the route are carried as such, not as track points.
        #expect(reader.statistics.waypoints == 1)
        #expect(reader.statistics.routes == 1)
        #expect(reader.navigation.waypoints == [Navigation.Waypoint(name: "Home", latitude: 1, longitude: 2)])
        #expect(reader.navigation.routes.map(\.name) == ["Route 1"])
        #expect(
            reader.navigation.placedPoints(of: reader.navigation.routes[0]).points == [
                Navigation.Waypoint(name: "Waypoint 1", latitude: -1.5, longitude: -2.5)
            ])
    }

    @Test(arguments: [
        (
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkseg></trk></gpx>",
            "line 1: </trkseg> where </trkpt> was expected"
        ),
        ("<gpx>\n<trk>\n", "line 3: the file ends before </trk>"),
        ("<gpx><trkpt lat=1 lon=\"2\"/></gpx>", "line 1: attribute 'lat' of <trkpt> is not quoted"),
        ("<gpx><trkpt lat=\"1\" lon=\"2/></gpx>", "line 1: the file ends inside a tag, comment or section"),
        ("<gpx></gpx>\n<gpx></gpx>", "line 2: a second root element <gpx>"),
        ("<gpx></gpx>\ntrailing", "line 2: text after the root element"),
        ("$GPRMC,1,2,3", "line 1: not XML: text before the root element"),
        ("<kml></kml>", "line 1: the root element is <kml>, not <gpx> or <kml>"),
        (
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><ele>&bogus;</ele></trkpt></trkseg></trk></gpx>",
            "line 1: an unknown entity '&bogus;'"
        ),
        ("<gpx creator=\"&#xZZ;\"></gpx>", "line 1: an unknown entity '&#xZZ;'"),
        ("", "line 1: no XML element in the file"),
    ])
    func malformedXMLIsAnErrorWithItsLine(text: String, message: String) {
        #expect(throws: TrackReadError.self) { try Self.read(text, chunk: 5) }
        do {
            _ = try Self.read(text, chunk: 5)
        } catch {
            #expect((error as? TrackReadError)?.description == message)
        }
    }

    @Test func aTagThatNeverEndsIsRefusedInBoundedMemory() {
        // 2 MB of attribute text: refused at the tokenizer's limit (1 MiB), not held.
        let text = "<gpx><trkpt lat=\"1\" lon=\"2\" x=\"" + String(repeating: "a", count: 2 << 20)
        do {
            _ = try Self.read(text, chunk: 1 << 16)
            Issue.record("read")
        } catch {
            #expect((error as? TrackReadError)?.description == "line 1: a tag longer than 1048576 bytes (is it XML?)")
        }
    }
}
