import Foundation
import NMEA
import Simulation
import System
import TestSupport
import Testing

@testable import Tracks

/// KML, CSV and GPX 1.0 of the fixed sequence, byte for byte, and the crash journey as GDAL and GPSBabel read them.
@Suite struct FormatWriterTests {
    static func write(
        _ fixes: [Fix] = fixedSequence, in directory: TemporaryDirectory = TemporaryDirectory(),
        name: String = "out", _ make: (String) throws -> any TrackWriter
    ) throws -> String {
        let path = directory.file(name)
        let writer = try make(path)
        for fix in fixes { try writer.write(fix) }
        try writer.finish()
        return path
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// A segment per break, its altitude mode from its first point (the 2D point has none: on the ground), each
    /// point's time beside its position, the name escaped; longitude 180 stays 180 (KML's range includes it).
    @Test func kmlIsByteExact() throws {
        let path = try Self.write { try KMLWriter(path: $0, name: "Fixed & <sequence>") }
        #expect(
            try Self.text(path) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
                  <Document>
                    <name>Fixed &amp; &lt;sequence&gt;</name>
                    <Style id="track"><LineStyle><color>ffff7f00</color><width>4</width></LineStyle></Style>
                    <Style id="mark"><IconStyle><scale>1.1</scale></IconStyle></Style>
                    <Style id="route"><LineStyle><color>ff0000ff</color><width>2</width></LineStyle></Style>
                    <Placemark>
                      <name>Segment 1</name>
                      <styleUrl>#track</styleUrl>
                      <gx:Track>
                        <altitudeMode>absolute</altitudeMode>
                        <when>2026-11-30T08:00:00.25Z</when><gx:coord>11.5166 48.1173 545.4</gx:coord>
                        <when>2026-11-30T08:00:01.25Z</when><gx:coord>11.5168 48.1174 545.6</gx:coord>
                      </gx:Track>
                    </Placemark>
                    <Placemark>
                      <name>Segment 2</name>
                      <styleUrl>#track</styleUrl>
                      <gx:Track>
                        <altitudeMode>clampToGround</altitudeMode>
                        <when>2026-11-30T08:00:03.25Z</when><gx:coord>-70.25 -33.5 0</gx:coord>
                      </gx:Track>
                    </Placemark>
                    <Placemark>
                      <name>Segment 3</name>
                      <styleUrl>#track</styleUrl>
                      <gx:Track>
                        <altitudeMode>absolute</altitudeMode>
                        <when>2026-11-30T08:05:03Z</when><gx:coord>180 0.00001 -12.5</gx:coord>
                      </gx:Track>
                    </Placemark>
                  </Document>
                </kml>

                """)
    }

    @Test func kmlPlacemarksFollowTheTrack() throws {
        let path = try Self.write([fixedSequence[0]]) { path in
            let writer = try KMLWriter(path: path)
            writer.addPlacemark(
                .init(
                    name: "Start: A & B", description: "first", latitude: 48.11730001234, longitude: 11.5166,
                    timestamp: fixedSequence[0].timestamp))
            return writer
        }
        let text = try Self.text(path)
        #expect(
            text.hasSuffix(
                """
                      </gx:Track>
                    </Placemark>
                    <Placemark>
                      <name>Start: A &amp; B</name>
                      <description>first</description>
                      <TimeStamp><when>2026-11-30T08:00:00.25Z</when></TimeStamp>
                      <styleUrl>#mark</styleUrl>
                      <Point><coordinates>11.5166,48.1173</coordinates></Point>
                    </Placemark>
                  </Document>
                </kml>

                """), "\(text)")
    }

    /// Every column, RFC 4180 rows (CRLF), empty fields for absent values, the segment number of each point.
    @Test func csvIsByteExact() throws {
        let path = try Self.write { try CSVWriter(path: $0, columns: CSVWriter.Column.allCases) }
        let expected = [
            "time,lat,lon,ele,speed,course,hdop,vdop,pdop,sats,fix,segment",
            "2026-11-30T08:00:00.25Z,48.1173,11.5166,545.4,11.5,84.4,0.9,1.2,1.5,8,3d,1",
            "2026-11-30T08:00:01.25Z,48.1174,11.5168,545.6,11.6,359.99,0.8,,,9,dgps,1",
            "2026-11-30T08:00:03.25Z,-33.5,-70.25,,,0,,,,,2d,2",
            "2026-11-30T08:05:03Z,0.00001,180,-12.5,0,,,,,,3d,3",
        ]
        #expect(try Self.text(path) == expected.map { $0 + "\r\n" }.joined())
        let chosen = try Self.write { try CSVWriter(path: $0, columns: [.lon, .lat, .time]) }
        #expect(try Self.text(chosen).hasPrefix("lon,lat,time\r\n11.5166,48.1173,2026-11-30T08:00:00.25Z\r\n"))
    }

    /// GPX 1.0 keeps speed and course as elements, after time, in the schema's order.
    @Test func gpx10IsByteExact() throws {
        let path = try Self.write { try GPXWriter(path: $0, version: .v10) }
        let header =
            "<gpx version=\"1.0\" creator=\"swift-nmea\" xmlns=\"http://www.topografix.com/GPX/1/0\" "
            + "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.topografix.com/"
            + "GPX/1/0 http://www.topografix.com/GPX/1/0/gpx.xsd\">"
        let points = [
            "<trkpt lat=\"48.1173\" lon=\"11.5166\"><ele>545.4</ele><time>2026-11-30T08:00:00.25Z</time>"
                + "<course>84.4</course><speed>11.5</speed><fix>3d</fix><sat>8</sat><hdop>0.9</hdop><vdop>1.2</vdop>"
                + "<pdop>1.5</pdop></trkpt>",
            "<trkpt lat=\"48.1174\" lon=\"11.5168\"><ele>545.6</ele><time>2026-11-30T08:00:01.25Z</time>"
                + "<course>359.99</course><speed>11.6</speed><fix>dgps</fix><sat>9</sat><hdop>0.8</hdop></trkpt>",
            "<trkpt lat=\"-33.5\" lon=\"-70.25\"><time>2026-11-30T08:00:03.25Z</time><course>0</course><fix>2d</fix>"
                + "</trkpt>",
            "<trkpt lat=\"0.00001\" lon=\"-180\"><ele>-12.5</ele><time>2026-11-30T08:05:03Z</time><speed>0</speed>"
                + "<fix>3d</fix></trkpt>",
        ]
        let lines = try Self.text(path).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(
            lines == [
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", header, "<trk>", "<trkseg>", points[0], points[1],
                "</trkseg>", "<trkseg>", points[2], "</trkseg>", "<trkseg>", points[3], "</trkseg>", "</trk>", "</gpx>",
            ])
    }

    // MARK: Other tools read them

    static let journey = InteropTests.fixes
    static let points = InteropTests.points
    static let times = points.map { $0.iso8601! }

    /// `gpsbabel -t -i FORMAT -f PATH -o unicsv`: the rows' ISO times and latitudes (6 decimals, as unicsv prints).
    static func gpsbabelRows(_ format: String, _ path: String) throws -> (times: [String], latitudes: [Double]) {
        let outcome = try ChildProcess.run(
            [Support.gpsbabel!, "-t", "-i", format, "-f", path, "-o", "unicsv", "-F", "-"])
        #expect(outcome.status == 0, "gpsbabel: \(outcome.error)")
        let rows = outcome.output.split(whereSeparator: \.isNewline)
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = rows.first, let date = header.firstIndex(of: "Date"),
            let time = header.firstIndex(of: "Time"), let latitude = header.firstIndex(of: "Latitude")
        else {
            Issue.record("gpsbabel's unicsv has no Date, Time or Latitude: \(rows.first ?? [])")
            return ([], [])
        }
        let times = rows.dropFirst().map { "\($0[date])T\($0[time])Z".replacingOccurrences(of: "/", with: "-") }
        return (times, rows.dropFirst().compactMap { Double($0[latitude]) })
    }

    /// The journey's times to the second (gpsbabel's unicsv prints whole seconds).
    static let wholeSecondTimes = points.map { String($0.iso8601!.prefix(19)) + "Z" }
    static let latitudes = points.map { ($0.latitude! * 1e6).rounded() / 1e6 }

    @Test(.enabled(if: Support.gpsbabel != nil, "gpsbabel not installed"))
    func gpsbabelReadsEveryPointAndTimeOfEachFormat() throws {
        let directory = TemporaryDirectory()
        let kml = try Self.write(Self.journey, in: directory, name: "j.kml") { try KMLWriter(path: $0) }
        let csv = try Self.write(Self.journey, in: directory, name: "j.csv") { try CSVWriter(path: $0) }
        let gpx = try Self.write(Self.journey, in: directory, name: "j.gpx") { try GPXWriter(path: $0, version: .v10) }
        for (format, path) in [("kml", kml), ("unicsv", csv), ("gpx", gpx)] {
            let read = try Self.gpsbabelRows(format, path)
            #expect(read.times == Self.wholeSecondTimes, "\(format)")
            #expect(read.latitudes == Self.latitudes, "\(format)")
        }
    }

    @Test(.enabled(if: Support.ogrinfo != nil, "ogrinfo (gdal-bin) not installed"))
    func gdalReadsTheKMLSegmentsAndPoints() throws {
        let kml = try Self.write(Self.journey, name: "j.kml") { try KMLWriter(path: $0) }
        let outcome = try ChildProcess.run([Support.ogrinfo!, "-ro", "-al", kml])
        #expect(outcome.status == 0, "ogrinfo: \(outcome.error)")
        let lines = outcome.output.split(whereSeparator: \.isNewline).filter { $0.contains("LINESTRING Z (") }
        // A one-point segment is no line; the journey's 20 segments all have more.
        #expect(lines.count == 20)
        let coordinates = lines.map { $0.split(separator: ",").count }.reduce(0, +)
        #expect(coordinates == Self.points.count)
        let begins = outcome.output.split(whereSeparator: \.isNewline).filter { $0.contains("begin (DateTime) = ") }
        #expect(
            begins.first?.hasSuffix(
                Self.wholeSecondTimes[0].prefix(10).replacingOccurrences(of: "-", with: "/")
                    + " " + Self.wholeSecondTimes[0].dropFirst(11).dropLast() + "+00") == true, "\(begins.first ?? "")")
    }

    @Test(.enabled(if: Support.ogrinfo != nil, "ogrinfo (gdal-bin) not installed"))
    func gdalReadsTheCSVAndTheGPX10() throws {
        let directory = TemporaryDirectory()
        let csv = try Self.write(Self.journey, in: directory, name: "j.csv") { try CSVWriter(path: $0) }
        let gpx = try Self.write(Self.journey, in: directory, name: "j.gpx") { try GPXWriter(path: $0, version: .v10) }
        #expect(
            try InteropTests.featureCount(["-oo", "X_POSSIBLE_NAMES=lon", "-oo", "Y_POSSIBLE_NAMES=lat", csv, "j"])
                == Self.points.count)
        #expect(try InteropTests.featureCount([gpx, "track_points"]) == Self.points.count)
        // GDAL reads GPX 1.0's <speed> and <course> into fields of those names.
        let outcome = try ChildProcess.run(
            [Support.ogrinfo!, "-ro", "-al", "-fid", "0", gpx, "track_points"])
        let first = Self.points[0]
        #expect(outcome.output.contains("speed (Real) = \(DecimalFormatter.string(first.speed!, maximumDecimals: 3))"))
        #expect(outcome.output.contains("time (DateTime) = "), "\(outcome.output)")
    }

    /// The crash journey's points, each time the same as the GPX 1.1 track's.
    @Test func everyFormatHoldsTheSamePoints() throws {
        let directory = TemporaryDirectory()
        let kml = try Self.text(try Self.write(Self.journey, in: directory, name: "j.kml") { try KMLWriter(path: $0) })
        let csv = try Self.text(try Self.write(Self.journey, in: directory, name: "j.csv") { try CSVWriter(path: $0) })
        let kmlTimes = kml.components(separatedBy: "<when>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        let csvTimes = csv.split(separator: "\r\n").dropFirst().map { String($0.prefix { $0 != "," }) }
        #expect(kmlTimes == Self.times)
        #expect(csvTimes == Self.times)
    }
}
