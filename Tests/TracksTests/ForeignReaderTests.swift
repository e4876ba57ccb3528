import NMEA
import Testing

@testable import Tracks

/// Issue 25: KML and CSV read back, GeoJSON's every feature in file order, nothing invented — each reader's exact
/// values, in any chunking.
@Suite struct ForeignReaderTests {
    /// `time lat lon [ele]`, `-` for a segment break, `!` after a point whose mode is only assumed.
    static func summary(_ fixes: [Fix]) -> [String] {
        fixes.map { fix in
            guard let latitude = fix.latitude, let longitude = fix.longitude, fix.hasPosition else { return "-" }
            var text = "\(fix.iso8601 ?? "untimed") \(latitude) \(longitude)"
            if let altitude = fix.altitudeMeters { text += " \(altitude)" }
            return text + (fix.modeIsAssumed ? "!" : "")
        }
    }

    static func read(_ format: TrackFileReader.Format, _ text: String, chunk: Int) throws -> ([String], TrackFileReader)
    {
        var reader = TrackFileReader(format: format)
        let fixes = try readInChunks(
            text, chunk: chunk, read: { try reader.read($0, $1) }, finish: { try reader.finish($0) })
        return (summary(fixes), reader)
    }

    // MARK: KML

    static let kml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
          <Placemark><name>Interleaved</name><gx:Track>
            <when>2026-11-30T08:00:00Z</when><gx:coord>11.5 48.1 520</gx:coord>
            <when/><gx:coord>11.6 48.2</gx:coord>
          </gx:Track></Placemark>
          <Placemark><name>Schema order</name><gx:Track>
            <when>2026-11-30T10:00:00+02:00</when><when>2026-11-30T08:00:02.5Z</when>
            <gx:coord>12 49</gx:coord><gx:coord>12.1 49.1 7</gx:coord>
          </gx:Track></Placemark>
          <Placemark><name>A line</name><LineString><coordinates>
            13,50,1 13.1,50.1
            13.2,50.2,3</coordinates></LineString></Placemark>
          <Placemark><name>Home</name><styleUrl>#route</styleUrl><LineString><coordinates>1,2 3,4</coordinates>
            </LineString></Placemark>
          <Placemark><name>Lunch</name><Point><coordinates>14,51</coordinates></Point></Placemark>
          <Placemark><name>Stop: Eitting</name><TimeStamp><when>2026-11-30T09:00:00Z</when></TimeStamp>
            <styleUrl>#mark</styleUrl><Point><coordinates>15,52</coordinates></Point></Placemark>
          <Placemark><TimeStamp><when>2026-11-30T09:30:00Z</when></TimeStamp>
            <Point><coordinates>16,53,9</coordinates></Point></Placemark>
          <Placemark><name>Field</name><Polygon><outerBoundaryIs><LinearRing>
            <coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        </Document></kml>
        """

    @Test(arguments: [1, 7, 1 << 16])
    func kmlTracksLinesPlacemarksInFileOrder(chunk: Int) throws {
        let (fixes, reader) = try Self.read(.kml, Self.kml, chunk: chunk)
        #expect(
            fixes == [
                "2026-11-30T08:00:00Z 48.1 11.5 520.0!", "untimed 48.2 11.6!", "-",
                // Times listed before their positions (the schema's order), offsets converted to UTC.
                "2026-11-30T08:00:00Z 49.0 12.0!", "2026-11-30T08:00:02.5Z 49.1 12.1 7.0!", "-",
                "untimed 50.0 13.0 1.0!", "untimed 50.1 13.1!", "untimed 50.2 13.2 3.0!",
                // A timed Point placemark is a fix; ours of a stop (#mark) is not read back.
                "2026-11-30T09:30:00Z 53.0 16.0 9.0!",
            ])
        let statistics = reader.statistics
        #expect(statistics.points == 8)
        #expect(statistics.segments == 3)
        #expect(statistics.waypoints == 1)
        #expect(statistics.routes == 1)
        #expect(statistics.ignoredFeatures == 1)
        #expect(reader.navigation.waypoints == [Navigation.Waypoint(name: "Lunch", latitude: 51, longitude: 14)])
        #expect(reader.navigation.routes.map(\.name) == ["Home"])
        #expect(
            reader.navigation.placedPoints(of: reader.navigation.routes[0]).points.map(\.latitude) == [2, 4])
    }

    @Test func aKMLLineLongerThanAPieceIsReadWhole() throws {
        let positions = (0..<20_000).map { "\(10 + Double($0) / 10_000),\(45 + Double($0) / 10_000)" }
        let text =
            "<kml><Placemark><LineString><coordinates>" + positions.joined(separator: " ")
            + "</coordinates></LineString></Placemark></kml>"
        let (fixes, reader) = try Self.read(.kml, text, chunk: 4096)
        #expect(reader.statistics.points == 20_000)
        #expect(fixes.first == "untimed 45.0 10.0!")
        #expect(fixes.last == "untimed 46.9999 11.9999!")
    }

    // MARK: CSV

    @Test(arguments: [1, 5, 1 << 16])
    func csvOursAndOthers(chunk: Int) throws {
        let ours = """
            time,lat,lon,ele,speed,course,hdop,sats,fix,segment\r
            2026-11-30T08:00:00.25Z,48.1,11.5,520,12.5,45,0.8,9,3d,1\r
            2026-11-30T08:00:01.25Z,48.2,11.6,,,,,,,1\r
            ,95,11.6,,,,,,,1\r
            2026-11-30T08:00:03Z,48.3,11.7,,,,,,,2\r

            """
        let (fixes, reader) = try Self.read(.csv, ours, chunk: chunk)
        #expect(
            fixes == [
                "2026-11-30T08:00:00.25Z 48.1 11.5 520.0", "2026-11-30T08:00:01.25Z 48.2 11.6!", "-",
                "2026-11-30T08:00:03Z 48.3 11.7!",
            ])
        #expect(reader.statistics.rejectedPoints == 1)
        #expect(reader.statistics.segments == 2)
        let others = """
            "Latitude";"Longitude";"Date";"Time";"Name"
            48.1;11.5;2026-11-30;08:00:00;"a; b"
            48.2;11.6;;1796025600.5;
            48.3;11.7;2026-11-30;not a time;
            """
        let (otherFixes, otherReader) = try Self.read(.csv, others, chunk: chunk)
        #expect(otherFixes == ["2026-11-30T08:00:00Z 48.1 11.5!", "2026-11-30T08:00:00.5Z 48.2 11.6!"])
        #expect(otherReader.statistics.rejectedPoints == 1)
    }

    @Test func csvIsToldByItsHeader() {
        func format(_ text: String) -> TrackFileReader.Format? {
            Array(text.utf8).withUnsafeBytes { TrackFileReader.format(of: $0) }
        }
        #expect(format("time,lat,lon\r\n") == .csv)
        #expect(format("Lat;Lng\n1;2\n") == .csv)
        #expect(format("\u{FEFF}latitude\tlongitude\n") == .csv)
        #expect(format("time,speed\n") == nil)
        #expect(format("$GPRMC,lat,lon\n") == nil)
        #expect(format("<?xml version=\"1.0\"?><!-- a <kml> in a comment --><kml>") == .kml)
        #expect(format("<gpx>") == .gpx)
        #expect(format("{}") == .geojson)
    }

    // MARK: GeoJSON

    @Test(arguments: [1, 3, 1 << 16])
    func geojsonEveryFeatureInFileOrder(chunk: Int) throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"time":"2026-11-30T08:00:00Z"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1.1,2.1,5]},"properties":{"time":"2026-11-30T08:00:01Z","fix":"3d"}},
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[3,4],[3.1,4.1]]},
             "properties":{"coordinateProperties":{"times":["2026-11-30T09:00:00Z","2026-11-30T09:00:01Z"]}}},
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[5,6],[5.1,6.1]]},"properties":{"coordTimes":["2026-11-30T10:00:00Z"]}},
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[7,8],[7.1,8.1]]},"properties":{"pointFeatures":true}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[9,10]},"properties":{"name":"Lunch"}},
            {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}
            ]}
            """
        let (fixes, reader) = try Self.read(.geojson, text, chunk: chunk)
        #expect(
            fixes == [
                "2026-11-30T08:00:00Z 2.0 1.0!", "2026-11-30T08:00:01Z 2.1 1.1 5.0", "-",
                "2026-11-30T09:00:00Z 4.0 3.0!", "2026-11-30T09:00:01Z 4.1 3.1!", "-",
                // Times that cannot be paired: the positions without them.
                "untimed 6.0 5.0!", "untimed 6.1 5.1!", "-",
            ])
        #expect(reader.statistics.unpairedTimes == 1)
        #expect(reader.statistics.ignoredFeatures == 1)
        #expect(reader.navigation.waypoints.map(\.name) == ["Lunch"])
    }
}
