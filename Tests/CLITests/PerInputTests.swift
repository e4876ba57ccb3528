import Foundation
import Testing

/// Every reading command reads its files one after the other through one stream, finishing each before the next
/// begins: the last epoch of a file is never merged with the first of the next.
@Suite struct PerInputTests {
    static let samples = ToolSupport.repository.appendingPathComponent("nmea-samples")
    static let corpus: URL? = {
        let url = ToolSupport.repository.deletingLastPathComponent().appendingPathComponent("shared/nmea-corpus")
        let path = ProcessInfo.processInfo.environment["NMEA_CORPUS"] ?? url.path
        return FileManager.default.fileExists(atPath: path) ? URL(fileURLWithPath: path) : nil
    }()

    static func parseFixes(_ files: [String]) throws -> String {
        let outcome = try Tool.run(["parse", "--fixes"] + files)
        #expect(outcome.status == 0, "\(outcome.error)")
        return outcome.output
    }

    @Test func parseFixesOfTwoSamplesIsTheTwoRunsOneAfterTheOther() throws {
        // (A log without dates after one with them takes the last date, as a log cut in two would: the dates are
        // the one thing an input hands on to the next, so `gga-only.nmea` comes first here.)
        for (first, second) in [
            ("drive.nmea", "commute.nmea"), ("faulty.nmea", "drive.nmea"),
            ("gga-only.nmea", "commute.nmea"), ("drive.nmea", "drive.nmea"),
        ] {
            let a = Self.samples.appendingPathComponent(first).path
            let b = Self.samples.appendingPathComponent(second).path
            let together = try Self.parseFixes([a, b])
            #expect(!together.isEmpty)
            #expect(together == (try Self.parseFixes([a])) + (try Self.parseFixes([b])), "\(first) \(second)")
        }
    }

    @Test(.enabled(if: corpus != nil, "the shared corpus (../shared/nmea-corpus or $NMEA_CORPUS) is absent"))
    func parseFixesOfThreeCorpusLogsIsTheRunsOneAfterTheOther() throws {
        let corpus = try #require(Self.corpus)
        let logs = ["gpsd/bundg_zeus_9.log", "gpsd/quectel-l76k-nmea.log", "gpsd/telit-he910.log"]
            .map { corpus.appendingPathComponent($0).path }
        let together = try Self.parseFixes(logs)
        var separately = ""
        for log in logs { separately += try Self.parseFixes([log]) }
        #expect(together.split(separator: "\n").count > 400)
        #expect(together == separately)
    }

    /// A simulated drive cut inside an epoch: the first file ends with epoch 300's RMC, the second begins with a GGA
    /// of the same second 3 km to the north, written with one more decimal. Read as two inputs, that is two fixes at
    /// 08:05:00 (the second far off); merged into one epoch, the finer GGA position would win, and the drive would
    /// jump 3 km and back.
    static func cutDrive(in directory: URL) throws -> (whole: String, first: String, second: String) {
        let drive = try Tool.run(["simulate", "--duration", "600", "--profile", "rmc-gga"])
        let lines = drive.output.split(whereSeparator: \.isNewline).map(String.init)
        try #require(lines.count == 1200)
        #expect(lines[600].hasPrefix("$GPRMC,080500.00,") && lines[601].hasPrefix("$GPGGA,080500.00,"))
        let body = "$GPGGA,080500.00,4811.000000,N,01134.530000,E,1,24,0.50,520.0,M,47.3,M,,"
        let checksum = body.utf8.dropFirst().reduce(UInt8(0), ^)
        let farOff =
            body + "*" + String(checksum >> 4, radix: 16, uppercase: true)
            + String(checksum & 0xF, radix: 16, uppercase: true)
        let whole = directory.appendingPathComponent("whole.nmea")
        let first = directory.appendingPathComponent("first.nmea")
        let second = directory.appendingPathComponent("second.nmea")
        try (lines.joined(separator: "\r\n") + "\r\n").write(to: whole, atomically: true, encoding: .utf8)
        try (lines[0...600].joined(separator: "\r\n") + "\r\n").write(to: first, atomically: true, encoding: .utf8)
        try ([farOff] + lines[602...]).joined(separator: "\r\n").write(to: second, atomically: true, encoding: .utf8)
        return (whole.path, first.path, second.path)
    }

    @Test func everyReadingCommandFinishesEachFileBeforeTheNext() throws {
        let directory = Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (whole, first, second) = try Self.cutDrive(in: directory)

        let fixes = try Self.parseFixes([first, second]).split(separator: "\n")
        try #require(fixes.count == 601)
        #expect(fixes[300].contains("08:05:00") && !fixes[300].contains("\"lat\":48.18333"))
        #expect(!fixes[300].contains("\"alt\""))
        #expect(fixes[301].contains("08:05:00") && fixes[301].contains("\"lat\":48.18333"))
        #expect(fixes[301].contains("\"alt\":520"))

        let gpx = directory.appendingPathComponent("drive.gpx")
        let convert = try Tool.run(["convert", first, second, "-o", gpx.path])
        #expect(convert.status == 0, "\(convert.error)")
        let points = try String(contentsOf: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
        #expect(points == 601)

        let plot = try Tool.run(["plot", "-v", first, second, "-o", directory.appendingPathComponent("d.svg").path])
        #expect(plot.status == 0, "\(plot.error)")
        #expect(plot.error.contains(": 601 fixes, "), "\(plot.error)")

        // Trips leave out the second fix of 08:05:00 as a duplicate: the trips are those of the uncut drive, and
        // no 3 km jump is taken for a receiver glitch.
        let trips = try Tool.run(["trips", "--json", "--no-places", first, second])
        let uncut = try Tool.run(["trips", "--json", "--no-places", whole])
        #expect(trips.status == 0 && uncut.status == 0, "\(trips.error)")
        #expect(trips.output.contains("\"trips\":[{"))
        #expect(trips.output == uncut.output)
        #expect(!trips.error.contains("glitch"), "\(trips.error)")
    }
}
