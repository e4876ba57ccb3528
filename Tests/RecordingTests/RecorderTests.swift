import Glibc
import NMEA
import Pipeline
import Recording
import Simulation
import Synchronization
import System
import TestSupport
import Testing
import Tracks

/// The recorder on a pipeline fed by hand (each chunk read, then a pause), so that the ring holds exactly the
/// records a receiver's bytes make: tracks, raw capture and trips opened with the first fix of their day, rotated at
/// midnight by the fixes' date, raw bytes held until a fix names their file.
@Suite struct RecorderTests {
    /// Messages the recorder reported.
    final class Messages: Sendable {
        let lines = Mutex<[String]>([])
        func report(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func configuration(_ directory: TemporaryDirectory, rotation: Rotation, raw: Bool = true)
        -> Recorder.Configuration
    {
        var configuration = Recorder.Configuration()
        let options = TrackOptions(flush: .everyFix)
        configuration.tracks = [
            TrackOutput(OutputName(directory.file("%Y-%m-%d-x.gpx"), rotation: rotation)) { path throws(TrackError) in
                try GPXWriter(path: path, options: options)
            }
        ]
        if raw { configuration.raw = OutputName(directory.file("%Y-%m-%d-x.nmea"), rotation: rotation) }
        return configuration
    }

    /// Runs a recorder over `chunks`, each read at once and followed by a pause (the pipeline's idle), its pipeline
    /// publishing sentences when asked (a tagged capture writes them).
    static func record(
        _ chunks: [String], _ configuration: Recorder.Configuration, messages: Messages,
        publishesSentences: Bool = false
    ) throws -> Recorder {
        var pipelineConfiguration = ReceiverPipeline.Configuration()
        pipelineConfiguration.publishesSentences = publishesSentences
        let pipeline = ReceiverPipeline(configuration: pipelineConfiguration)
        let recorder = try Recorder(pipeline: pipeline, configuration, report: messages.report)
        recorder.start()
        pipeline.feed { feeder in
            feeder.report(.connected(device: "test", baudRate: 9600))
            for chunk in chunks {
                var bytes = Array(chunk.utf8)
                bytes.withUnsafeMutableBytes { feeder.ingest(UnsafeRawBufferPointer($0)) }
                feeder.idle()
            }
        }
        recorder.finish()
        return recorder
    }

    static func read(_ path: String) -> String? {
        readFile(path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func points(_ path: String) -> Int {
        (read(path) ?? "").ranges(of: "<trkpt ").count
    }

    /// What came before the first fix (a receiver's start-up text), then five epochs before midnight and three after.
    static let startUp = "$GPTXT,01,01,02,u-blox ag*50\r\nnoise\r\n"
    static let before = (-5 ... -1).map { sampleEpoch(aroundMidnight: $0) }
    static let after = (0...2).map { sampleEpoch(aroundMidnight: $0) }

    @Test func everyOutputRotatesAtMidnightByTheFixesDateAndNothingIsOpenedBeforeTheFirstFix() throws {
        let directory = TemporaryDirectory("recorder-rotate")
        defer { directory.remove() }
        let messages = Messages()
        let recorder = try Self.record(
            [Self.startUp] + Self.before + Self.after, Self.configuration(directory, rotation: .daily),
            messages: messages)
        #expect(messages.all == [])
        let day1 = directory.file("1994-03-23-x")
        let day2 = directory.file("1994-03-24-x")
        #expect(
            Directory.entries(directory.path).sorted() == [
                "1994-03-23-x.gpx", "1994-03-23-x.nmea", "1994-03-24-x.gpx",
                "1994-03-24-x.nmea",
            ])
        #expect(recorder.files == [day1 + ".gpx", day2 + ".gpx", day1 + ".nmea", day2 + ".nmea"])
        #expect(Self.points(day1 + ".gpx") == 5)
        #expect(Self.points(day2 + ".gpx") == 3)
        // The bytes before the first fix lead the first day's capture; the new day's begins with its first epoch.
        #expect(Self.read(day1 + ".nmea") == Self.startUp + Self.before.joined())
        #expect(Self.read(day2 + ".nmea") == Self.after.joined())
        #expect(recorder.points == 8)
        #expect(recorder.rawBytes == (Self.startUp + Self.before.joined() + Self.after.joined()).utf8.count)
        #expect(recorder.summary == ["5 points in \(day1).gpx, 3 points in \(day2).gpx; 1 line rejected"])
    }

    /// Opened at once, the track under a temporary name until its first point (issue 12, item 1): a run without a
    /// point leaves no empty track behind.
    @Test func withoutRotationTheNamesAreUsedAsGivenAndOpenedAtOnce() throws {
        let directory = TemporaryDirectory("recorder-plain")
        defer { directory.remove() }
        let messages = Messages()
        let configuration = Self.configuration(directory, rotation: .none)
        var pipelineConfiguration = ReceiverPipeline.Configuration()
        pipelineConfiguration.publishesSentences = false
        let pipeline = ReceiverPipeline(configuration: pipelineConfiguration)
        let recorder = try Recorder(pipeline: pipeline, configuration, report: messages.report)
        #expect(
            Directory.entries(directory.path).sorted() == ["%Y-%m-%d-x.nmea", ".%Y-%m-%d-x.gpx.partial-\(getpid())"])
        recorder.start()
        pipeline.feed { _ in }  // no input: the ring closes
        recorder.finish()
        #expect(recorder.points == 0)
        #expect(Directory.entries(directory.path) == ["%Y-%m-%d-x.nmea"])
        #expect(recorder.summary == ["0 points (no dated fix opened a track); 0 lines rejected"])
    }

    @Test func rawBytesWithoutAnyDatedFixGoToTheSystemClocksDayAtTheEnd() throws {
        let directory = TemporaryDirectory("recorder-undated")
        defer { directory.remove() }
        let messages = Messages()
        let recorder = try Self.record(
            [Self.startUp], Self.configuration(directory, rotation: .daily),
            messages: messages)
        let today = UTCDate(daysSinceEpoch: Int(time(nil) / 86_400))
        let path = OutputName(directory.file("%Y-%m-%d-x.nmea"), rotation: .daily).path(for: today)
        #expect(Directory.entries(directory.path) == [String(path.split(separator: "/").last!)])
        #expect(Self.read(path) == Self.startUp)
        #expect(
            recorder.summary == [
                "0 points (no dated fix opened a track); 1 line rejected",
                "no fix gave a date: the raw bytes went to \(path), named after the system clock",
            ])
    }

    @Test func rawBytesBeforeTheFirstFixAreHeldWithinTheLimitTheOldestDropped() throws {
        let directory = TemporaryDirectory("recorder-held")
        defer { directory.remove() }
        var configuration = Self.configuration(directory, rotation: .daily)
        configuration.rawHeldLimit = 300
        let noise = String(repeating: "x", count: 400) + "\r\n"
        let recorder = try Self.record([noise] + Self.before, configuration, messages: Messages())
        let text = Self.read(directory.file("1994-03-23-x.nmea"))
        // Held until the first fix: the noise and the first epoch (its fix completes when the second begins). The
        // last 300 of those bytes are kept; the rest are counted as dropped.
        let held = Array((noise + Self.before[0]).utf8)
        #expect(text == String(decoding: held.suffix(300), as: UTF8.self) + Self.before.dropFirst().joined())
        #expect(
            recorder.summary.contains(
                "\(held.count - 300) raw bytes received before the first dated fix did not fit in memory and were "
                    + "dropped"))
    }

    @Test func eachTripGoesToTheFileOfTheDayItStarted() throws {
        let directory = TemporaryDirectory("recorder-trips")
        defer { directory.remove() }
        // Parked, a drive that ends just before midnight, parked across it, a drive after it, parked: a fix every 5 s.
        let scenario = Scenario(
            start: DateTime(2026, 11, 29, 23, 40, 0), rateHz: 0.2,
            legs: [
                .park(seconds: 300), .drive(seconds: 600, speedKmh: 60), .park(seconds: 600),
                .drive(seconds: 600, speedKmh: 60), .park(seconds: 600),
            ])
        let writer = EpochWriter(profile: .rmcGGA)
        let epochs = scenario.fixes().map { fix in
            var builder = SentenceBuilder()
            writer.write(fix, into: &builder)
            return String(decoding: builder.bytes, as: UTF8.self)
        }
        var configuration = Self.configuration(directory, rotation: .daily, raw: false)
        configuration.trips = OutputName(directory.file("trips.jsonl"), rotation: .daily)
        let recorder = try Self.record(epochs, configuration, messages: Messages())
        #expect(recorder.trips == 2)
        let first = Self.read(directory.file("trips-2026-11-29.jsonl")) ?? ""
        let second = Self.read(directory.file("trips-2026-11-30.jsonl")) ?? ""
        #expect(first.hasPrefix(#"{"start":{"time":"2026-11-29T23:4"#))
        #expect(first.split(separator: "\n").count == 1)
        #expect(second.hasPrefix(#"{"start":{"time":"2026-11-30T00:0"#))
        #expect(second.split(separator: "\n").count == 1)
        #expect(
            Directory.entries(directory.path).sorted() == [
                "2026-11-29-x.gpx", "2026-11-30-x.gpx", "trips-2026-11-29.jsonl", "trips-2026-11-30.jsonl",
            ])
    }

    /// `record --max-hdop --drop-outliers`: the tracks and the trips see the cleaned fixes, the raw capture every
    /// byte; the summary says what cleaning did.
    @Test func cleaningAppliesToTracksAndTripsNotToTheRawCapture() throws {
        let directory = TemporaryDirectory("recorder-cleaning")
        defer { directory.remove() }
        // Ten epochs a second apart at 22.4 knots eastward: the fourth 20 km north (a glitch), the seventh with an
        // HDOP of 9.9.
        func epoch(_ second: Int) -> String {
            let time = "1200" + (second < 10 ? "0" : "") + "\(second).00"
            let latitude = second == 3 ? "4817.038" : "4807.038"
            let step = String(93 * second)  // 0.0093' of longitude, 11.5 m, a second
            let longitude = "1131." + String(repeating: "0", count: 4 - step.count) + step
            let hdop = second == 6 ? "9.9" : "0.9"
            return nmeaSentence("GPRMC,\(time),A,\(latitude),N,0\(longitude),E,022.4,090.0,301126,,")
                + nmeaSentence("GPGGA,\(time),\(latitude),N,0\(longitude),E,1,08,\(hdop),545.4,M,46.9,M,,")
        }
        let epochs = (0..<10).map(epoch)
        var configuration = Self.configuration(directory, rotation: .none)
        configuration.cleaner = TrackCleaner(filter: FixQualityFilter(maximumHDOP: 5), dropOutliers: true)
        let recorder = try Self.record(epochs, configuration, messages: Messages())
        let track = Self.read(directory.file("%Y-%m-%d-x.gpx")) ?? ""
        #expect(Self.points(directory.file("%Y-%m-%d-x.gpx")) == 8)
        #expect(!track.contains("lat=\"48.28"))
        #expect(!track.contains("<time>2026-11-30T12:00:06"))
        #expect(Self.read(directory.file("%Y-%m-%d-x.nmea")) == epochs.joined())
        #expect(
            recorder.summary == [
                "8 points in \(directory.file("%Y-%m-%d-x.gpx")); 0 lines rejected",
                "tracks: dropped 1 fix (1 HDOP too high or unknown); removed 1 outlier (impossible jumps)",
            ])
    }

    @Test func anUnwritableOutputIsAnErrorBeforeAnythingRuns() throws {
        let directory = TemporaryDirectory("recorder-unwritable")
        defer { directory.remove() }
        var configuration = Self.configuration(directory, rotation: .none)
        configuration.raw = OutputName(directory.file("missing/x.nmea"))
        let pipeline = ReceiverPipeline()
        #expect(
            throws: RecordingError(
                "cannot open '\(directory.file("missing/x.nmea"))': "
                    + "\(Errno.noSuchFileOrDirectory)")
        ) {
            _ = try Recorder(pipeline: pipeline, configuration, report: { _ in })
        }
        #expect(
            OutputName(directory.file("missing/%Y.nmea"), rotation: .daily).directoryProblem
                == "cannot create '\(directory.file("missing/%Y.nmea"))': \(Errno.noSuchFileOrDirectory) "
                + "('\(directory.file("missing"))')")
        #expect(OutputName(directory.file("%Y/x.nmea"), rotation: .daily).directoryProblem == nil)
        #expect(OutputName(directory.file("%Y-x.nmea"), rotation: .daily).directoryProblem == nil)
    }
}
