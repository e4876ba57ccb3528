import Foundation
import Testing

/// Issue 12, item 14, as a user meets it: UTF-16 logs and Android GnssLogger logs are read (they gave 0 points and
/// "no fix"), and an input that gives not a single sentence says why, in one line.
@Suite struct InputEncodingCommandTests {
    static let drive = ToolSupport.repository.appendingPathComponent("nmea-samples/drive.nmea").path

    /// UTF-16 with its byte-order mark, either order, converts to the same GPX as the ASCII log.
    @Test(arguments: ["utf-16le", "utf-16be"])
    func utf16LogConvertsLikeItsASCII(encoding: String) throws {
        let directory = Tool.temporaryDirectory("utf16-\(encoding)")
        let text = try String(contentsOfFile: Self.drive, encoding: .utf8)
        let encoded = directory.appendingPathComponent("drive-\(encoding).nmea")
        var bytes: [UInt8] = encoding == "utf-16le" ? [0xFF, 0xFE] : [0xFE, 0xFF]
        for unit in text.utf16 {
            bytes +=
                encoding == "utf-16le"
                ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        try Data(bytes).write(to: encoded)
        let expected = directory.appendingPathComponent("ascii.gpx").path
        let actual = directory.appendingPathComponent("utf16.gpx").path
        #expect(try Tool.run(["convert", Self.drive, "-o", expected]).status == 0)
        let outcome = try Tool.run(["convert", encoded.path, "-o", actual])
        #expect(outcome.status == 0 && outcome.error == "")
        let gpx = try Data(contentsOf: URL(fileURLWithPath: actual))
        #expect(gpx == (try Data(contentsOf: URL(fileURLWithPath: expected))))
        #expect(String(decoding: gpx, as: UTF8.self).components(separatedBy: "<trkpt ").count - 1 == 600)
    }

    /// The receive time of each Android line is printed as `"received"`.
    @Test(.enabled(if: PerInputTests.corpus != nil, "the shared corpus is absent"))
    func androidLogParsesWithReceiveTimes() throws {
        let log = try #require(PerInputTests.corpus).appendingPathComponent("gnss_lib_py/pixel6.nmea").path
        let outcome = try Tool.run(["parse", log])
        #expect(outcome.status == 0 && outcome.error == "")
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.count == 96)
        let first =
            #"{"talker":"GP","type":"GGA","received":"2023-11-07T23:42:57.561Z","time":"23:42:57.00","#
            + #""lat":37.42650661667,"lon":-122.17370890000,"quality":1,"satellites":24,"hdop":0.4,"#
            + #""altitude":51.9,"geoid_separation":-28.4}"#
        #expect(lines.first.map(String.init) == first)
        #expect(lines.allSatisfy { $0.contains(#""received":"2023-11-0"#) })
        let gpx = Tool.temporaryDirectory("pixel6").appendingPathComponent("x.gpx").path
        #expect(try Tool.run(["convert", log, "-o", gpx]).status == 0)
        #expect(try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1 == 48)
    }

    /// An input that gives not a single sentence says why: not ASCII, all rejected (mostly why), no NMEA, empty.
    @Test func anInputWithNothingSaysWhy() throws {
        let directory = Tool.temporaryDirectory("nothing")
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
        let line = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
        let noMark = try file("no-mark.nmea", Array(line.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let unchecked = try file("unchecked.nmea", Array((line + "\n" + line + "\n").utf8))
        let text = try file("text.nmea", Array("hello\nworld\n".utf8))
        let empty = try file("empty.nmea", [])
        let gpx = directory.appendingPathComponent("x.gpx").path
        // An input that is not a log at all is the input's failure (issue 25, item 2): nothing written, each said
        // in a line; an empty one is an empty log, said too.
        let outcome = try Tool.run(["convert", noMark, unchecked, text, empty, Self.drive, "-o", gpx])
        #expect(outcome.status == 1)
        #expect(!FileManager.default.fileExists(atPath: gpx))
        let what = "not an NMEA log, nor a GPX, GeoJSON, KML or CSV track"
        #expect(
            outcome.error.split(separator: "\n").map(String.init) == [
                "Error: \(noMark): \(what): it is not ASCII text (NUL bytes: UTF-16 without its byte-order mark, "
                    + "UTF-32 or binary data)",
                "Error: \(unchecked): \(what): all 2 sentences were rejected (missing checksum)",
                "Error: \(text): \(what): no NMEA found (no sentence starting with '$' or '!')",
                "nmea convert: \(gpx): not written; it holds what it held before (an input could not be read)",
                "nmea convert: \(empty): nothing read: it is empty",
                "nmea convert: 2 lines rejected (2 missing checksum); -v lists them; --allow-missing-checksum "
                    + "accepts sentences without one",
            ])
        // Without them, the empty log is no error.
        let good = try Tool.run(["convert", empty, Self.drive, "-o", gpx])
        #expect(good.status == 0)
        #expect(good.error == "nmea convert: \(empty): nothing read: it is empty\n")
    }
}
