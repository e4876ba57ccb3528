import Foundation
import TestSupport
import Testing

/// Issue 27: the NMEA core built as Embedded Swift (`scripts/embedded`), fed `drive.nmea` in 64-byte chunks, prints
/// the fixes `nmea parse --fixes` prints: the same count, the same times, positions to 1e-6. The wasm32 firmware
/// runs in wasmtime (PyPI, in a venv the script makes), the Cortex-M4 one in QEMU; neither allocates a byte.
@Suite(.serialized) struct EmbeddedFirmwareTests {
    static let root = Locations.packageRoot
    static let drive = root + "/nmea-samples/drive.nmea"

    /// `nmea parse --fixes` of drive.nmea as (time, latitude, longitude).
    static func reference() throws -> [(String, Double?, Double?)] {
        let outcome = try Tool.run(["parse", "--fixes", drive])
        #expect(outcome.status == 0)
        return try outcome.output.split(separator: "\n").map { line in
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (object["time"] as? String ?? "-", object["lat"] as? Double, object["lon"] as? Double)
        }
    }

    /// Checks the firmware's output against the reference; its `HEAP` line is returned.
    static func check(_ output: String) throws -> String? {
        let reference = try reference()
        let fixes = output.split(separator: "\n").filter { $0.hasPrefix("FIX ") }.map { $0.split(separator: " ") }
        #expect(fixes.count == 600 && reference.count == 600)
        for (index, (fix, expected)) in zip(fixes, reference).enumerated() {
            #expect(fix.count == 4 && String(fix[1]) == expected.0, "fix \(index + 1): \(fix)")
            guard fix.count == 4, let latitude = Double(fix[2]), let longitude = Double(fix[3]) else {
                Issue.record("fix \(index + 1) has no position: \(fix)")
                continue
            }
            #expect(abs(latitude - (expected.1 ?? .nan)) <= 1e-6, "fix \(index + 1): \(fix)")
            #expect(abs(longitude - (expected.2 ?? .nan)) <= 1e-6, "fix \(index + 1): \(fix)")
        }
        return output.split(separator: "\n").first { $0.hasPrefix("HEAP ") }.map(String.init)
    }

    @Test(
        .enabled(if: Tools.which("python3") != nil, "no python3 for wasmtime's venv"), .timeLimit(.minutes(20)))
    func wasm32FirmwareInWasmtime() throws {
        let run = try ChildProcess.run(
            [Self.root + "/scripts/embedded", "--target", "wasm32", "wasm", Self.drive], timeout: .seconds(1200))
        #expect(run.status == 0, "\(run.error)")
        // No heap: the framer in a static buffer, the fix handed out from where it was built.
        #expect(try Self.check(run.output) == "HEAP 0")
    }

    @Test(
        .enabled(if: Tools.which("qemu-system-arm") != nil, "no qemu-system-arm (scripts/embedded installs it)"),
        .timeLimit(.minutes(20)))
    func cortexM4FirmwareInQEMU() throws {
        let run = try ChildProcess.run([Self.root + "/scripts/embedded", "run", Self.drive], timeout: .seconds(1200))
        #expect(run.status == 0, "\(run.error)")
        #expect(try Self.check(run.output) == "HEAP 0")
        #expect(run.output.contains("\nSIZE text="))
    }
}
