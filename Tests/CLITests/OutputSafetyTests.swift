import Foundation
import Glibc
import TestSupport
import Testing

/// Issue 12, items 1 and 2: a command never destroys a file it was not asked to replace. Outputs are written beside
/// their name and renamed into place only on success (or, live, at the first fix); an output that is an input is
/// refused before anything is opened for writing.
@Suite struct OutputSafetyTests {
    static let nmea = BuiltExecutables.nmea
    static let log = ConvertCommandTests.smallLog

    /// The names in `directory` other than `keep`, sorted: what a run left behind.
    static func names(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    // MARK: Item 1: replaced only on success

    @Test func aFailedConversionLeavesTheOldOutputsByteForByte() throws {
        let directory = TemporaryDirectory()
        directory.write(Self.log, to: "drive.nmea")
        let gpx = directory.file("keep.gpx")
        let geojson = directory.file("keep.geojson")
        let good = try Tool.run(["convert", directory.file("drive.nmea"), "-o", gpx, "-o", geojson])
        #expect(good.status == 0)
        let before = [readFile(gpx), readFile(geojson)]
        #expect(before[0]?.count ?? 0 > 400)
        // A typo in the input's name: exit 1, and both outputs as they were, with no temporary file beside them.
        let typo = try Tool.run(["convert", directory.file("drive-typo.nmea"), "-o", gpx, "-o", geojson])
        #expect(typo.status == 1)
        // Refused before any output is opened (issue 25: one admission step).
        #expect(
            typo.error == "Error: cannot open '\(directory.file("drive-typo.nmea"))': No such file or directory\n")
        #expect([readFile(gpx), readFile(geojson)] == before)
        // A good input and a missing one: still nothing replaced (the outputs would lack the missing one's track).
        let half = try Tool.run(["convert", directory.file("drive.nmea"), directory.file("gone.nmea"), "-o", gpx])
        #expect(half.status == 1)
        #expect(readFile(gpx) == before[0])
        #expect(try Self.names(in: directory) == ["drive.nmea", "keep.geojson", "keep.gpx"])
    }

    @Test func aFailedPlotLeavesTheOldPicture() throws {
        let directory = TemporaryDirectory()
        directory.write(Self.log, to: "drive.nmea")
        let svg = directory.file("keep.svg")
        #expect(try Tool.run(["plot", directory.file("drive.nmea"), "-o", svg]).status == 0)
        let before = readFile(svg)
        #expect(before?.count ?? 0 > 1000)
        let typo = try Tool.run(["plot", directory.file("drive-typo.nmea"), "-o", svg])
        #expect(typo.status == 1)
        #expect(readFile(svg) == before)
        // A good input beside the missing one: the picture would lack a track, so nothing is written either.
        directory.write(Self.log.replacingOccurrences(of: "4807.03", with: "4807.13"), to: "other.nmea")
        let half = try Tool.run(["plot", directory.file("other.nmea"), directory.file("drive-typo.nmea"), "-o", svg])
        #expect(half.status == 1)
        #expect(half.error.hasSuffix("1 of 2 inputs cannot be read: nothing was read and no output was written\n"))
        #expect(readFile(svg) == before)
        try FileManager.default.removeItem(atPath: directory.file("other.nmea"))
        #expect(try Self.names(in: directory) == ["drive.nmea", "keep.svg"])
    }

    @Test func aReplacedFileKeepsItsModeAndALinkIsFollowed() throws {
        let directory = TemporaryDirectory()
        directory.write(Self.log, to: "drive.nmea")
        directory.write("old", to: "real.gpx")
        chmod(directory.file("real.gpx"), 0o640)
        symlink("real.gpx", directory.file("link.gpx"))
        #expect(try Tool.run(["convert", directory.file("drive.nmea"), "-o", directory.file("link.gpx")]).status == 0)
        let link = try FileManager.default.attributesOfItem(atPath: directory.file("link.gpx"))
        #expect(link[.type] as? FileAttributeType == .typeSymbolicLink)
        let real = try FileManager.default.attributesOfItem(atPath: directory.file("real.gpx"))
        #expect((real[.posixPermissions] as? Int) == 0o640)
        #expect(directory.read("real.gpx")?.hasSuffix("</gpx>\n") == true)
        #expect(try Self.names(in: directory) == ["drive.nmea", "link.gpx", "real.gpx"])
    }

    /// A live conversion (from a FIFO) stopped by SIGINT or SIGTERM before its first fix: the old file is intact and
    /// the temporary one is gone. Stopped after fixes: the file is in place, valid, with them.
    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalLeavesNoTemporaryFile(signal: Int32) throws {
        let directory = TemporaryDirectory("signal\(signal)")
        directory.write("old content\n", to: "keep.gpx")
        let fifo = directory.file("live.nmea")
        #expect(mkfifo(fifo, 0o600) == 0)
        let convert = try ChildProcess([Self.nmea, "convert", fifo, "-o", directory.file("keep.gpx")])
        let temporary = directory.file(".keep.gpx.partial-\(convert.pid)")
        #expect(waitUntil(timeout: .seconds(10)) { access(temporary, F_OK) == 0 })
        convert.signal(signal)
        #expect(convert.wait() == 128 + signal)
        #expect(directory.read("keep.gpx") == "old content\n")
        #expect(try Self.names(in: directory) == ["keep.gpx", "live.nmea"])

        // Live, after its first fixes: in place at once, and a valid document when killed.
        let second = try ChildProcess([Self.nmea, "convert", fifo, "-o", directory.file("keep.gpx")])
        let writer = open(fifo, O_WRONLY)
        #expect(writer >= 0)
        defer { close(writer) }
        _ = Array(Self.log.utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        // Both epochs are out once the next one begins; the second ends at the next RMC's time.
        let next = "$GPRMC,080002.25,A,4807.0401,N,01131.0022,E,012.5,045.0,301126,,,A*5F\r\n"
        _ = Array(next.utf8).withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        #expect(
            waitUntil(timeout: .seconds(10)) {
                (directory.read("keep.gpx") ?? "").components(separatedBy: "<trkpt ").count == 3
            })
        second.signal(signal)
        #expect(second.wait() == 128 + signal)
        let text = directory.read("keep.gpx") ?? ""
        #expect(text.contains("</trkseg>\n  </trk>\n</gpx>\n"))
        #expect(try Self.names(in: directory) == ["keep.gpx", "live.nmea"])
    }

    @Test func aSimulationStoppedMidwayLeavesTheOldFile() throws {
        let directory = TemporaryDirectory()
        directory.write("old\n", to: "day.nmea")
        let simulate = try ChildProcess([
            Self.nmea, "simulate", "--duration", "2000000", "-o", directory.file("day.nmea"),
        ])
        let temporary = directory.file(".day.nmea.partial-\(simulate.pid)")
        #expect(
            waitUntil(timeout: .seconds(20)) { (try? FileManager.default.attributesOfItem(atPath: temporary)) != nil })
        simulate.signal(SIGTERM)
        #expect(simulate.wait() == 128 + SIGTERM)
        #expect(directory.read("day.nmea") == "old\n")
        #expect(try Self.names(in: directory) == ["day.nmea"])
    }

    // MARK: Item 2: an output that is an input

    @Test func anOutputThatIsAnInputIsRefused() throws {
        let directory = TemporaryDirectory()
        directory.write(Self.log, to: "c.nmea")
        let log = directory.file("c.nmea")
        link(log, directory.file("hard.gpx"))
        symlink("c.nmea", directory.file("soft.gpx"))
        let original = readFile(log)
        let refusals: [([String], String)] = [
            (
                ["convert", log, "-o", log, "--format", "gpx"],
                "The output '\(log)' is the same file as the input '\(log)'"
            ),
            (
                ["convert", log, "-o", directory.file("soft.gpx")],
                "The output '\(directory.file("soft.gpx"))' is the same file as the input '\(log)'"
            ),
            (
                ["convert", directory.path + "/./c.nmea", "-o", directory.file("hard.gpx")],
                "The output '\(directory.file("hard.gpx"))' is the same file as the input '\(directory.path)/./c.nmea'"
            ),
            (
                ["plot", log, "-o", directory.file("soft.gpx")],
                "The output '\(directory.file("soft.gpx"))' is the same file as the input '\(log)'"
            ),
        ]
        for (arguments, message) in refusals {
            let outcome = try Tool.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.error.hasPrefix("Error: \(message): writing it would destroy the input\nUsage: nmea "))
            #expect(readFile(log) == original)
        }
        // Two outputs that are one file.
        directory.write("", to: "a.gpx")
        symlink("a.gpx", directory.file("b.gpx"))
        let twice = try Tool.run(["convert", log, "-o", directory.file("a.gpx"), "-o", directory.file("b.gpx")])
        #expect(twice.status == 64)
        #expect(
            twice.error.hasPrefix(
                "Error: The outputs '\(directory.file("a.gpx"))' and '\(directory.file("b.gpx"))' are the same file\n"))
        #expect(try Self.names(in: directory) == ["a.gpx", "b.gpx", "c.nmea", "hard.gpx", "soft.gpx"])
        #expect(readFile(log) == original)
    }

    /// Standard input and standard output as one file (`< c.nmea >> c.nmea`) would read its own output forever.
    @Test func standardOutputThatIsTheInputIsRefused() throws {
        let directory = TemporaryDirectory()
        directory.write(Self.log, to: "c.nmea")
        let log = directory.file("c.nmea")
        let process = try ChildProcess(
            [Self.nmea, "convert", "-", "-o", "-", "--format", "gpx"], input: .file(log), output: .file(log))
        #expect(process.wait() == 64)
        #expect(process.error.hasPrefix("Error: The output '-' (standard output) is the same file as the input '-'"))
        #expect(readFile(log) == Array(Self.log.utf8))
    }
}
