import Foundation
import TestSupport
import Testing

/// Issue 12, item 4: every geometry `nmea convert` writes is valid (RFC 7946, OGC simple features), checked by GDAL's
/// SQLite dialect, whose `ST_IsValid` is SpatiaLite's over GEOS: for every log of the shared corpus. On the main
/// this began from, 43 of the 177 outputs held a line with fewer than two distinct positions.
@Suite struct GeoJSONValidityTests {
    static let ogrinfo = Tools.which("ogrinfo")

    /// The corpus's input logs (as `CorpusTests` lists them): every file but expected outputs and documentation.
    static func corpusLogs() throws -> [String] {
        let root = try #require(Locations.corpus)
        let excluded = [".chk", ".gpx", ".csv", ".md", ".tsv"]
        var logs: [String] = []
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        while let path = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            let name = (path as NSString).lastPathComponent
            if excluded.contains(where: { name.hasSuffix($0) }) || name.contains(".expected") { continue }
            logs.append(path)
        }
        return logs.sorted()
    }

    /// `(features, invalid)` of a GeoJSON file by `ST_IsValid`, or `nil` when ogrinfo says nothing readable.
    static func validity(_ path: String, layer: String) throws -> (features: Int, invalid: Int)? {
        let sql =
            "SELECT COUNT(*) AS features, COALESCE(SUM(CASE WHEN ST_IsValid(geometry) THEN 0 ELSE 1 END), 0) "
            + "AS invalid FROM \"\(layer)\""
        let outcome = try ChildProcess.run([
            try #require(ogrinfo), "-ro", "-q", "-dialect", "sqlite", "-sql", sql, path,
        ])
        func value(_ name: String) -> Int? {
            outcome.outputLines.first { $0.contains("\(name) (Integer) = ") }
                .flatMap { Int($0.split(separator: "=").last!.trimmingCharacters(in: .whitespaces)) }
        }
        guard let features = value("features"), let invalid = value("invalid") else { return nil }
        return (features, invalid)
    }

    /// GDAL answers for a valid and an invalid geometry as expected here, so a pass below means something.
    @Test(.enabled(if: ogrinfo != nil, "ogrinfo (gdal-bin) is not installed"))
    func theValidityCheckTellsValidFromInvalid() throws {
        let directory = TemporaryDirectory()
        directory.write(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","#
                + #""coordinates":[[11,48]]},"properties":{}},{"type":"Feature","geometry":{"type":"LineString","#
                + #""coordinates":[[11,48],[11,48,5]]},"properties":{}},{"type":"Feature","geometry":{"type":"#
                + #""LineString","coordinates":[[11,48],[11.1,48]]},"properties":{}}]}"#, to: "known.geojson")
        let answer = try Self.validity(directory.file("known.geojson"), layer: "known")
        #expect(answer?.features == 3)
        #expect(answer?.invalid == 2)
    }

    @Test(
        .enabled(if: ogrinfo != nil, "ogrinfo (gdal-bin) is not installed"),
        .enabled(if: Locations.corpus != nil, "corpus not found: set NMEA_CORPUS or put it at ../shared/nmea-corpus"))
    func everyCorpusConversionIsValidGeoJSON() throws {
        let root = try #require(Locations.corpus)
        let logs = try Self.corpusLogs()
        #expect(logs.count >= 170)
        let directory = TemporaryDirectory()
        var checked = 0
        var features = 0
        var invalid: [String] = []
        for (index, log) in logs.enumerated() {
            let output = directory.file("\(index).geojson")
            let first = try ChildProcess.run([BuiltExecutables.nmea, "convert", root + "/" + log, "-o", output])
            if first.status == 1 && first.error.contains("rejected (missing checksum)") {
                // Old receivers that send no checksum: refused, saying how to read them (issue 25, item 2).
                #expect(first.error.contains("--allow-missing-checksum accepts sentences without one"))
                _ = try ChildProcess.run([
                    BuiltExecutables.nmea, "convert", root + "/" + log, "-o", output, "--allow-missing-checksum",
                ])
            }
            guard FileManager.default.fileExists(atPath: output) else {
                Issue.record("\(log): no output")
                continue
            }
            guard let answer = try Self.validity(output, layer: String(index)) else {
                Issue.record("\(log): ogrinfo could not read \(output)")
                continue
            }
            checked += 1
            features += answer.features
            if answer.invalid > 0 { invalid.append("\(log): \(answer.invalid) of \(answer.features) invalid") }
        }
        #expect(checked == logs.count)
        #expect(features >= 140)  // 380 here (147 on main, before Points): not a vacuous pass
        #expect(invalid == [])
    }
}
