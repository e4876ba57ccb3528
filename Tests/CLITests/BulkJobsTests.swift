import Foundation
import Simulation
import TestSupport
import Testing

/// One file on every core (issue 33): `parse`, `parse --fixes`, `convert` and `trips` read one plain file in pieces
/// on `--jobs` threads, and write byte for byte what `--jobs 1` writes — standard output, every output file, the
/// messages on standard error and the exit status. `NMEA_PIECE_BYTES` cuts the files into pieces of a few dozen
/// bytes, so that pieces begin inside epochs, inside lines, at midnight and at a GPS week rollover.
@Suite struct BulkJobsTests {
    static let corpus = Locations.corpus

    /// What a run left: its status, standard output and error, and the bytes of each file it wrote.
    struct Result: Equatable {
        var status: Int32
        var output: [UInt8]
        var error: String
        var files: [String: Data]
    }

    /// Runs `nmea arguments…` in a fresh directory with pieces of `pieceBytes`, `--jobs jobs` appended.
    static func run(_ arguments: [String], jobs: Int, pieceBytes: Int, name: String) throws -> Result {
        let directory = TemporaryDirectory("bulk-\(name)-\(jobs)-\(pieceBytes)").path
        let outcome = try ChildProcess.run(
            [BuiltExecutables.nmea] + arguments + ["--jobs", String(jobs)],
            environment: ["NMEA_PIECE_BYTES": String(pieceBytes), "XDG_CACHE_HOME": directory + "/cache"],
            directory: directory)
        var files: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory) where file != "cache" {
            files[file] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
        }
        // The place cache's first-use message names the run's own directory.
        let error = outcome.error.replacingOccurrences(of: directory, with: "<directory>")
        return Result(status: outcome.status, output: outcome.outputBytes, error: error, files: files)
    }

    /// Every command, on `inputs`: `--jobs 1` once, then 2 and 4 with each piece size, all the same.
    static func expectSameForEveryJobs(_ inputs: [String], pieceBytes: [Int], date: String? = nil) throws {
        let dated = date.map { ["--date", $0] } ?? []
        let commands: [(String, [String])] = [
            ("parse", ["parse"] + inputs),
            // Every counter, summed over the pieces as one reader counts them.
            ("stats", ["parse", "--stats", "--fixes"] + dated + inputs),
            ("fixes", ["parse", "--fixes"] + dated + inputs),
            (
                "convert",
                ["convert"] + dated + inputs + ["-o", "t.gpx", "-o", "t.geojson", "-o", "t.kml", "-o", "t.csv"]
            ),
            ("gpx10", ["convert"] + dated + inputs + ["-o", "t.gpx", "--format", "gpx10"]),
            ("clean", ["convert"] + dated + inputs + ["-o", "c.gpx", "--drop-outliers", "--max-hdop", "8"]),
            ("trips", ["trips", "--json"] + dated + inputs),
        ]
        for (name, arguments) in commands {
            let one = try run(arguments, jobs: 1, pieceBytes: 1 << 18, name: name)
            #expect(
                !one.output.isEmpty || !one.files.isEmpty, "\(name): nothing written (\(one.status)): \(one.error)")
            for bytes in pieceBytes {
                for jobs in [2, 4] {
                    let many = try run(arguments, jobs: jobs, pieceBytes: bytes, name: name)
                    #expect(many.status == one.status, "\(name) --jobs \(jobs), pieces of \(bytes)")
                    #expect(many.error == one.error, "\(name) --jobs \(jobs), pieces of \(bytes)")
                    #expect(many.output == one.output, "\(name) --jobs \(jobs), pieces of \(bytes): stdout differs")
                    #expect(many.files == one.files, "\(name) --jobs \(jobs), pieces of \(bytes): files differ")
                }
            }
        }
    }

    /// AIS on every core: the workers print the sentences whose messages stand alone, and the one printer of the
    /// file prints those in parts and type 24's in their places (a message's parts, a type 24's A and B, in
    /// different pieces). The same lines, counts and summary as one core: generated traffic with broken fragments
    /// among it (a part with a character outside the alphabet, a part without its first, a part numbered past its
    /// count, a type 24 that does not read), and the real logs; raw, `--ais-only` and `--mmsi`.
    @Test func aisIsTheSameOnEveryCore() throws {
        let directory = TemporaryDirectory("bulk-ais").path
        func sentence(_ body: String) -> String {
            let checksum = body.utf8.dropFirst().reduce(UInt8(0), ^)
            return body + "*" + String(format: "%02X", checksum) + "\r\n"
        }
        var text = String(decoding: AISTraffic().sentences(messages: 1_500), as: UTF8.self)
        text += sentence("!AIVDM,2,1,3,A,55NBjP01mtGIL@CW;SM<D60P5Ld000000000000P0`<3557l0<50@kk@K5h@00000,0")
        text += sentence("!AIVDM,2,2,3,A,0000~~~000,2")
        text += sentence("!AIVDM,2,2,4,B,88888888880,2")
        text += sentence("!AIVDM,2,3,5,A,55NBjP01mt,0")
        text += sentence("!AIVDM,1,1,,A,H~~~0000,0")
        text += String(decoding: AISTraffic().sentences(messages: 1_500), as: UTF8.self)
        let generated = directory + "/traffic.nmea"
        try text.write(toFile: generated, atomically: true, encoding: .utf8)
        var inputs = [generated]
        if let corpus = Locations.gnssCorpus {
            inputs += ["ais-18-27.log", "ais-nmea.log", "ais-nmea-type6-fid55.log"].map { corpus + "/ais/" + $0 }
        }
        for input in inputs {
            // Two stations of the input, to keep with --mmsi.
            let all = try Self.run(["parse", "--ais-only", input], jobs: 1, pieceBytes: 1 << 18, name: "ais")
            let stations = Set(
                String(decoding: all.output, as: UTF8.self).split(separator: "\n").compactMap { line in
                    line.firstRange(of: #""mmsi":"#).map { String(line[$0.upperBound...].prefix { $0.isNumber }) }
                })
            let kept = stations.sorted().prefix(2).joined(separator: ",")
            #expect(stations.count > 2, "\(input)")
            let parses = [[], ["--ais-raw"], ["--ais-only"], ["--ais-only", "--mmsi", kept]].map { ["parse"] + $0 }
            // The vessels and their tracks: the messages taken in the same order, the same counts.
            let vessels = [["ais"], ["ais", "--json"], ["convert", "--ais", "-o", "t.geojson", "-o", "t.csv"]]
            for command in parses + vessels {
                let arguments = command + [input]
                let one = try Self.run(arguments, jobs: 1, pieceBytes: 1 << 18, name: "ais")
                #expect(
                    one.status == 0 && (!one.output.isEmpty || one.files.count == 2),
                    "\(input) \(command): \(one.error)")
                for bytes in [97, 1_000] {
                    let many = try Self.run(arguments, jobs: 2, pieceBytes: bytes, name: "ais")
                    #expect(many == one, "\(input) \(command), pieces of \(bytes)")
                }
            }
        }
        // The broken fragments: two printed as raw sentences (the one printer's decoder refused them), and counted.
        let one = try Self.run(["parse", generated], jobs: 2, pieceBytes: 97, name: "ais")
        let lines = String(decoding: one.output, as: UTF8.self).split(separator: "\n")
        #expect(lines.filter { $0.contains("~~~") }.count == 2)
        #expect(one.error.contains("incomplete"), "\(one.error)")
    }

    /// The positive control: with `--jobs 2` a file is read in many pieces, most taken as their workers made them,
    /// and some done again in order — a piece cut inside a line (a line longer than a piece) — so both paths are
    /// what the tests above compare.
    @Test func bothPathsAreTaken() throws {
        let samples = ToolSupport.repository.appendingPathComponent("nmea-samples").path
        func pieces(_ arguments: [String], bytes: Int) throws -> (all: Int, again: Int) {
            let outcome = try ChildProcess.run(
                [BuiltExecutables.nmea] + arguments + ["--jobs", "2"],
                environment: ["NMEA_PIECE_BYTES": String(bytes), "NMEA_PIECE_REPORT": "1"])
            return pieceReport(outcome.error).map { ($0.pieces, $0.again) } ?? (0, 0)
        }
        let drive = try pieces(["parse", "--fixes", samples + "/drive.nmea"], bytes: 4096)
        #expect(drive.all > 10)
        #expect(drive.again == 0)
        let cut = try pieces(["parse", "--fixes", samples + "/drive.nmea"], bytes: 40)
        #expect(cut.again > 0 && cut.again < cut.all)
        // AIS pieces are taken as made: their sentences in parts are left to the one printer, not the pieces.
        let ais = try pieces(["parse", samples + "/harbour-ais.nmea"], bytes: 97)
        #expect(ais.all > 5 && ais.again == 0)
        // `nmea ais` and `convert --ais` read their messages in pieces too.
        let vessels = try pieces(["ais", samples + "/harbour-ais.nmea"], bytes: 97)
        #expect(vessels.all > 5 && vessels.again == 0)
        let tracks = try pieces(
            ["convert", "--ais", samples + "/harbour-ais.nmea", "-o", "-", "--format", "csv"], bytes: 97)
        #expect(tracks.all > 5 && tracks.again == 0)
        // --jobs 1 reads as it streams: no pieces.
        let one = try ChildProcess.run(
            [BuiltExecutables.nmea, "parse", samples + "/drive.nmea", "--jobs", "1"],
            environment: ["NMEA_PIECE_BYTES": "4096", "NMEA_PIECE_REPORT": "1"])
        #expect(!one.error.contains(" pieces, "))
    }

    @Test(.enabled(if: corpus != nil, "the shared NMEA corpus is absent (set NMEA_CORPUS)"))
    func theCorpusIsTheSameOnEveryCore() throws {
        let root = URL(fileURLWithPath: Self.corpus!)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var inputs: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard ["nmea", "log", "txt"].contains(url.pathExtension), !url.lastPathComponent.hasPrefix("SOURCES") else {
                continue
            }
            inputs.append(url.path)
        }
        // The logs that read as logs (the corpus also holds other receivers' outputs, and logs that fail on
        // purpose, which would make `trips` and `convert` write nothing at all).
        inputs = inputs.sorted().filter { input in
            (try? ChildProcess.run([BuiltExecutables.nmea, "parse", "--fixes", input, "--jobs", "1"]).status) == 0
        }
        #expect(inputs.count > 20)
        try Self.expectSameForEveryJobs(inputs, pieceBytes: [97])
    }

    @Test func theSamplesAreTheSameOnEveryCore() throws {
        let samples = ToolSupport.repository.appendingPathComponent("nmea-samples").path
        let inputs = ["drive.nmea", "commute.nmea", "faulty.nmea", "harbour-ais.nmea"].map { samples + "/" + $0 }
        try Self.expectSameForEveryJobs(inputs, pieceBytes: [61, 333])
    }

    /// RTCM 2, RTCM 3 and UBX among stray line feeds: a piece after a line feed inside an RTCM 2 stream (its words'
    /// sync held) is decoded again in order, so every message comes out once, as with one core.
    @Test(.enabled(if: Locations.gnssCorpus != nil, "the GNSS corpus is absent"))
    func binaryStreamsAreTheSameOnEveryCore() throws {
        let rtcm = Locations.gnssCorpus! + "/rtcm/"
        let inputs = ["rtcm2.bend.log", "rtcm2.log", "ublox-f9p-rtcm.log"].map { rtcm + $0 }
        for input in inputs {
            let one = try Self.run(["parse", input], jobs: 1, pieceBytes: 1 << 18, name: "binary")
            #expect(one.status == 0 && !one.output.isEmpty, "\(input): \(one.error)")
            for bytes in [53, 400] {
                let many = try Self.run(["parse", input], jobs: 2, pieceBytes: bytes, name: "binary")
                #expect(many.output == one.output && many.error == one.error, "\(input), pieces of \(bytes)")
            }
        }
    }

    /// More fixes than the hand-off to the thread that takes them holds (batches of 256, four queued, in
    /// `FixHandOff`), so that the assembling thread waits for it: every fix still comes out once, in order.
    @Test func manyBatchesOfFixesAreTheSameOnEveryCore() throws {
        let directory = TemporaryDirectory("bulk-batches").path
        let path = directory + "/long.nmea"
        let made = try ChildProcess.run(
            [BuiltExecutables.nmea, "simulate", "--duration", "2500", "--profile", "multi-gnss", "-o", path])
        #expect(made.status == 0, "\(made.error)")
        let arguments = ["convert", path, "-o", "t.gpx", "-o", "t.csv"]
        let one = try Self.run(arguments, jobs: 1, pieceBytes: 1 << 18, name: "batches")
        let csv = try #require(one.files["t.csv"])
        #expect(csv.split(separator: UInt8(ascii: "\n")).count > 6 * 256)
        for (jobs, bytes) in [(2, 4096), (2, 1 << 16), (4, 1000)] {
            let many = try Self.run(arguments, jobs: jobs, pieceBytes: bytes, name: "batches")
            #expect(many == one, "--jobs \(jobs), pieces of \(bytes)")
        }
    }

    /// Epochs of RMC, GGA and GSA at 1 Hz across midnight, then GGA alone (the date carried over from the last RMC,
    /// past a second midnight), then RMC again with dates 1024 weeks back (a receiver after a week rollover).
    @Test func midnightDateCarryAndWeekRolloverAreTheSameOnEveryCore() throws {
        let directory = TemporaryDirectory("bulk-midnight").path
        let path = directory + "/midnight.nmea"
        try Self.midnightLog().write(toFile: path, atomically: true, encoding: .ascii)
        try Self.expectSameForEveryJobs([path], pieceBytes: [53, 97, 211])
    }

    /// The log of ``midnightDateCarryAndWeekRolloverAreTheSameOnEveryCore()``.
    static func midnightLog() -> String {
        var lines: [String] = []
        let calendar = Calendar(identifier: .gregorian)
        var utc = calendar
        utc.timeZone = TimeZone(identifier: "UTC")!
        let start = Date(timeIntervalSince1970: 1_795_132_680)  // 2026-11-19 23:58:00 UTC
        for second in 0..<600 {
            let now = start.addingTimeInterval(Double(second))
            let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
            let time = String(format: "%02d%02d%02d.00", parts.hour!, parts.minute!, parts.second!)
            var date = String(format: "%02d%02d%02d", parts.day!, parts.month!, parts.year! % 100)
            if second >= 400 {
                // 1024 weeks back, as a receiver past its rollover reports.
                let back = utc.dateComponents(
                    [.year, .month, .day], from: now.addingTimeInterval(-7168 * 86_400))
                date = String(format: "%02d%02d%02d", back.day!, back.month!, back.year! % 100)
            }
            let latitude = String(format: "4807.%03d", second % 1000)
            let gga = "GPGGA,\(time),\(latitude),N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
            let rmc = "GPRMC,\(time),A,\(latitude),N,01131.000,E,022.4,084.4,\(date),003.1,W"
            // GGA alone from 00:00:30 for five minutes: the date is carried over from the last RMC.
            let ggaOnly = (150..<300).contains(second)
            if !ggaOnly { lines.append(sentence(rmc)) }
            lines.append(sentence(gga))
            if !ggaOnly { lines.append(sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")) }
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `$body*hh`.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + String(format: "*%02X", checksum)
    }
}
