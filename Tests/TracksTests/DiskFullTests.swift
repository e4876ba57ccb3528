import Foundation
import Glibc
import NMEA
import Simulation
import TestSupport
import Testing
import Tracks

/// A full disk, or a device that fails every write, gives a typed error with a clear message, and the file already
/// written stays a complete document.
@Suite(.serialized) struct DiskFullTests {
    @Test func devFullGivesNoSpaceForGPX() throws {
        do {
            _ = try GPXWriter(path: "/dev/full")
            Issue.record("no error writing to /dev/full")
        } catch {
            #expect(error.isNoSpace)
            #expect(error.operation == .write)
            #expect(error.description == "cannot write '/dev/full': No space left on device; the output is incomplete")
        }
    }

    @Test func devFullGivesNoSpaceForGeoJSON() throws {
        #expect(throws: TrackError.self) { try GeoJSONWriter(path: "/dev/full") }
    }

    @Test func missingDirectoryGivesACreateError() throws {
        do {
            // A missing directory is made (issue 25: every output makes its folders); one through a file cannot be.
            _ = try GPXWriter(path: "/dev/null/track.gpx")
            Issue.record("no error")
        } catch {
            #expect(error.operation == .create)
            #expect(error.description == "cannot create '/dev/null/track.gpx': Not a directory")
        }
    }

    @Test(
        .enabled(if: TinyDisk.canMount, "cannot mount a tmpfs here (no privilege): a full disk is not tested"),
        arguments: ["gpx", "geojson"])
    func fullDiskLeavesAValidFileWithEveryFlushedPoint(format: String) throws {
        let directory = try #require(TinyDisk.mount())
        defer { TinyDisk.unmount(directory) }
        let path = directory + "/track." + format
        let options = TrackOptions(flush: .everyFix, publication: .atFirstPoint)
        let writer: any TrackWriter =
            format == "gpx"
            ? try GPXWriter(path: path, options: options)
            : try GeoJSONWriter(path: path, options: .init(track: options, pointsPerFeature: 100))
        var written: [String] = []
        var failure: TrackError?
        for fix in Scenario.crashTest().fixes().prefix(5000).map(Fix.init) where fix.hasPosition {
            do {
                try writer.write(fix)
                written.append(fix.iso8601!)
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure, "64 KiB never filled up")
        #expect(error.isNoSpace)
        #expect(error.fileIsIntact)
        #expect(error.description.hasPrefix("cannot write '\(path)': No space left on device; the file is a complete"))
        #expect(written.count > 50)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        if format == "gpx" {
            try Support.expectValidGPX(path)
            #expect(Support.gpxTimes(text) == written)
        } else {
            let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            let features = try #require(document?["features"] as? [[String: Any]])
            var times: [String] = []
            for feature in features {
                let properties = try #require(feature["properties"] as? [String: Any])
                let featureTimes =
                    (properties["coordTimes"] as? [String])
                    ?? (properties["coordTimes"] as? [[String]])?.flatMap { $0 } ?? []
                times += properties["continued"] as? Bool == true ? Array(featureTimes.dropFirst()) : featureTimes
            }
            #expect(times == written)
        }
    }
}
