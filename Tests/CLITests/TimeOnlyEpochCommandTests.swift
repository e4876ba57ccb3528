import Foundation
import Testing

/// Issue 12, item 3, as a user meets it: logs whose ZDA comes at its own time give one track segment, not one per
/// point, and `parse --fixes` shows no position-less fix at each ZDA.
@Suite(.enabled(if: PerInputTests.corpus != nil, "the shared corpus (../shared/nmea-corpus or $NMEA_CORPUS) is absent"))
struct TimeOnlyEpochCommandTests {
    @Test(arguments: [
        ("gpsbabel/nmea", 154), ("gpsd/ac12.log", 7), ("gpsd/mixed-binary/ac12_binary.log", 5),
    ])
    func convertGivesOneSegment(log: String, points: Int) throws {
        let input = try #require(PerInputTests.corpus).appendingPathComponent(log).path
        let gpx = Tool.temporaryDirectory("convert-\(points)").appendingPathComponent("x.gpx").path
        let outcome = try Tool.run(["convert", input, "-o", gpx])
        #expect(outcome.status == 0, "\(outcome.error)")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.components(separatedBy: "<trkseg>").count - 1 == 1)
        #expect(text.components(separatedBy: "<trkpt ").count - 1 == points)
    }

    @Test func parseFixesShowsNoFixAtTheZDAs() throws {
        let input = try #require(PerInputTests.corpus).appendingPathComponent("gpsbabel/nmea").path
        let outcome = try Tool.run(["parse", "--fixes", input])
        #expect(outcome.status == 0)
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.count == 154)
        #expect(!outcome.output.contains("\"mode\":\"none\""))
        #expect(lines.first?.hasPrefix("{\"time\":\"2004-08-07T03:29:08.379Z\",\"lat\":42.530485,") == true)
    }
}
