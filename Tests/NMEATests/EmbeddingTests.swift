import Foundation
import NMEA
import TestSupport
import Testing

/// Issue 12, item 11: a package that depends on the `NMEA` product alone builds, links and runs, in debug and in
/// release, with no flags; its program is the README's library examples, which compile without a warning. A second
/// program with the `Tracks` product writes a GPX file (built and run in debug).
///
/// The embedder lives in `.build/embedder` of this package (written afresh only when its text changes), so that a
/// second run rebuilds nothing but what changed.
@Suite(.enabled(if: Tools.which("swift") != nil, "no swift toolchain on PATH to build an embedding package"))
struct EmbeddingTests {
    static let directory = Locations.packageRoot + "/.build/embedder"

    /// The embedder's manifest: one executable that depends on this package's `NMEA` product by path.
    static var manifest: String {
        let identity = String(Locations.packageRoot.split(separator: "/").last!)
        return """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Embedder",
                dependencies: [.package(path: "\(Locations.packageRoot)")],
                targets: [
                    .executableTarget(name: "Embedder", dependencies: [.product(name: "NMEA", package: "\(identity)")]),
                    .executableTarget(
                        name: "TrackEmbedder",
                        dependencies: [
                            .product(name: "NMEA", package: "\(identity)"),
                            .product(name: "Tracks", package: "\(identity)"),
                        ]),
                ]
            )

            """
    }

    /// Its program: standard input in 1000-byte chunks and bytes (with the standard library alone: no Glibc or
    /// Foundation, which would link libm for it), then the README's two library examples as they stand.
    static func program() throws -> String {
        let blocks = try ReadmeTests.readmeBlocks()
        return """
            import NMEA

            var bytes: [UInt8] = []
            while let line = readLine(strippingNewline: false) { bytes += Array(line.utf8) }
            let chunks = stride(from: 0, to: bytes.count, by: 1000).map { Array(bytes[$0..<min($0 + 1000, bytes.count)]) }

            """ + blocks[0] + "\n" + blocks[1]
    }

    /// A second program, with the `Tracks` product too: standard input to the GPX file named by its argument.
    static let trackProgram = """
        import NMEA
        import Tracks

        var bytes: [UInt8] = []
        while let line = readLine(strippingNewline: false) { bytes += Array(line.utf8) }
        let writer = try GPXWriter(path: CommandLine.arguments[1])
        var reader = FixReader()
        reader.read(bytes) { fix in try? writer.write(fix) }
        reader.finish { fix in try? writer.write(fix) }
        try writer.finish()
        print(writer.statistics.points)

        """

    static func write(_ text: String, to path: String) throws {
        if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func embedderBuildsAndRunsInDebugAndRelease() throws {
        try Self.write(Self.manifest, to: Self.directory + "/Package.swift")
        try Self.write(try Self.program(), to: Self.directory + "/Sources/Embedder/main.swift")
        try Self.write(Self.trackProgram, to: Self.directory + "/Sources/TrackEmbedder/main.swift")
        // An ASCII log (the program reads its input with `readLine`, which would replace a binary frame's bytes)
        // without the GLL and ZDA that end its last epoch, so that only `finish` hands that one out, and with two
        // lines the framer rejects.
        let sample = Array(
            try Data(contentsOf: URL(fileURLWithPath: Locations.packageRoot + "/nmea-samples/drive.nmea")))
        let lines = sample.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast(3)
        let bytes =
            Array(lines.joined(separator: [UInt8(ascii: "\n")])) + Array("\n".utf8)
            + Array("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*00\n$GPRMC,1*00\n".utf8)
        var reader = FixReader()
        var fixes: [Fix] = []
        reader.read(bytes) { fixes.append($0) }
        reader.finish { fixes.append($0) }
        let rejected = reader.statistics.framer.rejected
        #expect(fixes.count == 600 && rejected == 2)

        for configuration in ["debug", "release"] {
            // Release builds `Embedder` alone: the optimised core is the check (the `Tracks` product, its modules in
            // release too, cost 145 s more of CPU in every CI run; its wiring is checked in debug).
            let products = configuration == "release" ? ["--product", "Embedder"] : []
            let build = try ChildProcess.run(
                ["swift", "build", "-c", configuration, "--package-path", Self.directory] + products,
                mergingError: true, timeout: .seconds(1200))
            #expect(build.status == 0, "\(configuration): \(build.output)")
            #expect(!build.output.contains("warning:"), "\(configuration): \(build.output)")
            guard build.status == 0 else { continue }
            let run = try ChildProcess.run(
                [Self.directory + "/.build/\(configuration)/Embedder"], input: .bytes(bytes))
            #expect(run.status == 0, "\(configuration): \(run.error)")
            let printed = run.outputLines
            // Each pass prints a line per fix (the last one from `finish`), then the counters and the three sentences
            // parsed with `ParsedSentence(parsing:)`; the second pass also one per rejected line.
            #expect(printed.count == 2 * fixes.count + 4 + rejected, "\(configuration)")
            // The first pass's last line of a fix is the one `finish` printed: the last epoch's.
            #expect(printed[fixes.count - 1] == "Optional(\"\(fixes.last!.iso8601!)\")", "the last fix, from finish")
            #expect(printed[fixes.count + 1] == "Optional(48.11730000) Optional(8)")
            #expect(printed[fixes.count + 2] == "Optional(274.07)")
            #expect(printed[fixes.count + 3] == "PINV [\"17\", \"ON\"]")

            guard configuration == "debug" else { continue }
            let directory = TemporaryDirectory("embedder-\(configuration)")
            defer { directory.remove() }
            let track = try ChildProcess.run(
                [Self.directory + "/.build/\(configuration)/TrackEmbedder", directory.file("track.gpx")],
                input: .bytes(bytes))
            #expect(track.status == 0 && track.output == "\(fixes.count)\n", "\(configuration): \(track.error)")
            let gpx = directory.read("track.gpx") ?? ""
            #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == fixes.count && gpx.hasSuffix("</gpx>\n"))
        }
    }
}
