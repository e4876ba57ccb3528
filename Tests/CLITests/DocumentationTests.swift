import Foundation
import TestSupport
import Testing

/// scripts/build-docs: the toolchain's docc builds the NMEA documentation with both articles.
@Suite struct DocumentationTests {
    static let docc: String? = {
        for candidate in ["/opt/swift/usr/bin/docc", Tools.which("docc")].compactMap({ $0 })
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return nil
    }()

    @Test(.enabled(if: docc != nil, "docc is not in the toolchain"), .timeLimit(.minutes(10)))
    func buildsWithBothArticles() throws {
        let output = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let script = ToolSupport.repository.appendingPathComponent("scripts/build-docs").path
        // The NMEA module of the build the tests run from (a build of its own would compile it once more).
        let modules = BuiltExecutables.modules.map { ["--modules", $0] } ?? []
        let outcome = try ToolSupport.run(
            script, ["--output", output.path] + modules, directory: ToolSupport.repository)
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(!outcome.error.contains("error:"), "\(outcome.error)")
        // The catalog's own pages resolve every link.
        #expect(!outcome.error.contains("NMEA.docc"), "\(outcome.error)")
        let data = output.appendingPathComponent("data/documentation/nmea")
        for page in ["parsingnmea.json", "loggingfromareceiver.json", "framer.json", "fixassembler.json"] {
            #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent(page).path), "\(page)")
        }
        let parsing = try String(contentsOf: data.appendingPathComponent("parsingnmea.json"), encoding: .utf8)
        #expect(parsing.contains("Parsing NMEA in your tool"))
        let logging = try String(
            contentsOf: data.appendingPathComponent("loggingfromareceiver.json"),
            encoding: .utf8)
        #expect(logging.contains("Logging from a receiver"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path))
    }
}
