import Foundation
import TestSupport
import Testing

/// `scripts/check-architecture` (issue 26): the module graph agrees with docs/architecture.md, and a planted bad
/// import, a dependency the table does not allow, a `Mutex` outside `Threading` and a target without a row each fail
/// it, naming the file and the reason.
@Suite struct ArchitectureCheckTests {
    static let script = ToolSupport.repository.appendingPathComponent("scripts/check-architecture").path

    static func check(_ root: String? = nil) throws -> ChildProcess.Outcome {
        try ChildProcess.run([script] + (root.map { ["--root", $0] } ?? []))
    }

    /// A copy of the package's description and table under `directory`, with `files` (path → text) as its sources.
    static func copy(in directory: TemporaryDirectory, package: (String) -> String = { $0 }, files: [String: String])
        throws
    {
        let repository = ToolSupport.repository.path
        let manifest = try String(contentsOfFile: repository + "/Package.swift", encoding: .utf8)
        directory.write(package(manifest), to: "Package.swift")
        try FileManager.default.createDirectory(
            atPath: directory.file("docs"), withIntermediateDirectories: true)
        directory.write(
            try String(contentsOfFile: repository + "/docs/architecture.md", encoding: .utf8),
            to: "docs/architecture.md")
        for (path, text) in files {
            try FileManager.default.createDirectory(
                atPath: (directory.file(path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            directory.write(text, to: path)
        }
    }

    @Test func thePackageAgreesWithItsTable() throws {
        let outcome = try Self.check()
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.error)")
        #expect(outcome.output.hasSuffix("targets agree with docs/architecture.md\n"))
    }

    @Test func aPlantedBadImportFails() throws {
        let directory = TemporaryDirectory()
        try Self.copy(
            in: directory,
            files: [
                "Sources/NMEA/Values/Planted.swift": "import Foundation\n",
                "Sources/Web/Planted.swift": "@_spi(Testing) import Fleet\nlet lock = Mutex(0)\n",
                "Sources/Tracks/Planted.swift": "import Trips\n",
            ])
        let outcome = try Self.check(directory.path)
        #expect(outcome.status == 1)
        #expect(
            outcome.output.split(separator: "\n").sorted() == [
                "Sources/NMEA/Values/Planted.swift: imports Foundation, which NMEA may not (docs/architecture.md)",
                "Sources/Tracks/Planted.swift: imports Trips, which Tracks may not (docs/architecture.md)",
                "Sources/Web/Planted.swift: imports Fleet, which Web may not (docs/architecture.md)",
                "Sources/Web/Planted.swift: uses Mutex, which Thread Sanitizer cannot see: use Threading's Locked",
            ])
        #expect(outcome.error == "check-architecture: 4 problems\n")
    }

    @Test func aDependencyOrATargetTheTableDoesNotHaveFails() throws {
        let directory = TemporaryDirectory()
        try Self.copy(
            in: directory,
            package: {
                $0.replacingOccurrences(
                    of: #".target(name: "Geodesy"),"#, with: #".target(name: "Geodesy", dependencies: ["NMEA"]),"#
                ).replacingOccurrences(
                    of: #".target(name: "CShims"),"#, with: #".target(name: "CShims"), .target(name: "Stray"),"#)
            }, files: [:])
        let outcome = try Self.check(directory.path)
        #expect(outcome.status == 1)
        #expect(
            outcome.output.split(separator: "\n").sorted() == [
                "Package.swift: Geodesy depends on NMEA, which docs/architecture.md does not allow",
                "Package.swift: target Stray has no row in docs/architecture.md",
            ])
    }
}
