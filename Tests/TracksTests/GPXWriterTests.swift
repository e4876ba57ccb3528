import Foundation
import NMEA
import System
import TestSupport
import Testing

@testable import Tracks

/// The GPX the fixed sequence gives: a new segment after the lost fix and after the five-minute gap; the 2D point
/// has no elevation; course 360 is written 0 and longitude 180 is written -180 (the schema's ranges);
/// 0.00001 stays out of exponent notation; times keep the fraction the receiver sent.
let expectedGPX = #"""
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="swift-nmea" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" xmlns:nmea="https://github.com/swift-nmea/swift-nmea/gpx/accuracy/1" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd http://www.garmin.com/xmlschemas/TrackPointExtension/v2 http://www.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">
      <trk>
        <trkseg>
          <trkpt lat="48.1173" lon="11.5166"><ele>545.4</ele><time>2026-11-30T08:00:00.25Z</time><fix>3d</fix><sat>8</sat><hdop>0.9</hdop><vdop>1.2</vdop><pdop>1.5</pdop><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>11.5</gpxtpx:speed><gpxtpx:course>84.4</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
          <trkpt lat="48.1174" lon="11.5168"><ele>545.6</ele><time>2026-11-30T08:00:01.25Z</time><fix>dgps</fix><sat>9</sat><hdop>0.8</hdop><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>11.6</gpxtpx:speed><gpxtpx:course>359.99</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
        </trkseg>
        <trkseg>
          <trkpt lat="-33.5" lon="-70.25"><time>2026-11-30T08:00:03.25Z</time><fix>2d</fix><extensions><gpxtpx:TrackPointExtension><gpxtpx:course>0</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
        </trkseg>
        <trkseg>
          <trkpt lat="0.00001" lon="-180"><ele>-12.5</ele><time>2026-11-30T08:05:03Z</time><fix>3d</fix><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>0</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions></trkpt>
        </trkseg>
      </trk>
    </gpx>

    """#

@Suite struct GPXWriterTests {
    @Test func fixedSequenceIsByteExact() throws {
        let path = TemporaryDirectory().file("fixed.gpx")
        let writer = try GPXWriter(path: path)
        for fix in fixedSequence { try writer.write(fix) }
        try writer.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expectedGPX)
        #expect(
            writer.statistics
                == {
                    var statistics = TrackStatistics()
                    statistics.fixes = 5
                    statistics.points = 4
                    statistics.segments = 3
                    statistics.skipped = 1
                    statistics.flushes = 1
                    return statistics
                }())
        try Support.expectValidGPX(path)
    }

    @Test func flushingEveryFixGivesTheSameSmallFile() throws {
        let path = TemporaryDirectory().file("live.gpx")
        let writer = try GPXWriter(path: path, options: TrackOptions(flush: .everyFix, publication: .atFirstPoint))
        for (index, fix) in fixedSequence.enumerated() {
            try writer.write(fix)
            // After each flush the file on disk is already a valid document with every point so far.
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let written = fixedSequence[...index].filter(\.hasPosition).count
            #expect(Support.gpxCounts(text).points == written)
            try Support.expectValidGPX(path)
        }
        try writer.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expectedGPX)
        #expect(writer.statistics.flushes == 4)
    }

    @Test func streamGivesTheSameBytes() throws {
        let path = TemporaryDirectory().file("stream.gpx")
        let fd = try FileDescriptor.open(path, .writeOnly, options: [.create, .truncate, .closeOnExec])
        defer { try? fd.close() }
        let writer = try GPXWriter(
            streamingTo: fd, name: "stream", options: TrackOptions(flush: .everyFix, publication: .atFirstPoint))
        for fix in fixedSequence { try writer.write(fix) }
        try writer.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expectedGPX)
    }

    @Test func unfinishedFileIsValidAndHoldsTheFlushedPoints() throws {
        let path = TemporaryDirectory().file("unfinished.gpx")
        let writer = try GPXWriter(path: path, options: TrackOptions(flush: .everyFix, publication: .atFirstPoint))
        for fix in fixedSequence.prefix(2) { try writer.write(fix) }
        // Not finished: the file still ends in inert padding, which readers must accept.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix(expectedGPX.components(separatedBy: "    </trkseg>")[0]))
        #expect(text.contains("    </trkseg>\n  </trk>\n</gpx>\n<?pad "))
        #expect(text.utf8.count % 4096 == 0)
        #expect(Support.gpxTimes(text) == ["2026-11-30T08:00:00.25Z", "2026-11-30T08:00:01.25Z"])
        try Support.expectValidGPX(path)
    }

    @Test(arguments: [30.0, 60.0, 120.0])
    func timeGapsLongerThanTheSplitGapStartSegments(splitGap: Double) throws {
        // Points at 0, 10, 50 (gap 40), 140 (gap 90), 260 s (gap 120).
        let seconds = [0, 10, 50, 140, 260]
        let fixes = seconds.map { second in
            makeFix(String(format: "2026-11-30T08:%02d:%02d", second / 60, second % 60), lat: 48, lon: 11)
        }
        let path = TemporaryDirectory().file("gaps.gpx")
        let writer = try GPXWriter(path: path, options: TrackOptions(splitGapSeconds: splitGap))
        for fix in fixes { try writer.write(fix) }
        try writer.finish()
        let expectedSegments = splitGap == 30 ? 4 : splitGap == 60 ? 3 : 1
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(Support.gpxCounts(text).segments == expectedSegments)
        #expect(Support.gpxCounts(text).points == 5)
        try Support.expectValidGPX(path)
    }

    @Test func emptyTrackIsValid() throws {
        let path = TemporaryDirectory().file("empty.gpx")
        let writer = try GPXWriter(path: path)
        try writer.write(makeFix("2026-11-30T08:00:00"))  // no position
        try writer.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\">\n  <trk>\n  </trk>\n</gpx>\n"))
        try Support.expectValidGPX(path)
    }

    @Test func creatorIsEscaped() throws {
        let path = TemporaryDirectory().file("creator.gpx")
        let writer = try GPXWriter(path: path, creator: "a \"b\" <c> & d")
        try writer.finish()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("creator=\"a &quot;b&quot; &lt;c&gt; &amp; d\""))
        try Support.expectValidGPX(path)
    }

    @Test func segmenterSkipsProvisionalFixesAndSplitsOnTimeGoingBack() {
        var segmenter = TrackSegmenter(splitGapSeconds: 60)
        var provisional = makeFix("2026-11-30T08:00:00", lat: 1, lon: 2)
        provisional.isProvisional = true
        #expect(segmenter.place(provisional) == .skip)
        #expect(segmenter.place(makeFix("2026-11-30T08:00:00", lat: 1, lon: 2)) == .newSegment)
        #expect(segmenter.place(makeFix("2026-11-30T08:00:01", lat: 1, lon: 2)) == .continueSegment)
        #expect(segmenter.place(makeFix("2026-11-30T07:59:00", lat: 1, lon: 2)) == .newSegment)
        #expect(segmenter.place(makeFix("2026-11-30T07:59:01", lat: 91, lon: 2)) == .skip)
        #expect(segmenter.place(makeFix("2026-11-30T07:59:02", lat: 1, lon: 2)) == .newSegment)
    }
}

@Suite struct GPXSchemaTests {
    @Test(.enabled(if: Support.canValidateGPX, "xmllint or gpx-1.1.xsd missing: GPX files are not validated"))
    func schemaAndValidatorArePresent() throws {
        let outcome = try ChildProcess.run(
            [Support.xmllint!, "--noout", "--schema", Support.schemaPath!, "/dev/null"])
        #expect(outcome.status != 0)  // an empty document is rejected: the validator really validates
    }
}
