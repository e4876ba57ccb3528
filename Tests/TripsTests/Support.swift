import NMEA
import Simulation
import TestSupport

@testable import Trips

/// Scenarios turned into NMEA, NMEA turned back into fixes, fixes into trips: the whole path a log takes.
enum Journey {
    /// What the detector found in a journey.
    struct Outcome {
        var trips: [Trip] = []
        /// Every stop, in order (including the one before the first trip and after the last).
        var stops: [Stop] = []
        var events: [TripDetector.Event] = []
        var statistics = TripDetector.Statistics()

        /// Stops with a trip before and after them.
        var stopsBetweenTrips: [Stop] {
            guard let first = events.firstIndex(where: { if case .trip = $0 { true } else { false } }),
                let last = events.lastIndex(where: { if case .trip = $0 { true } else { false } })
            else { return [] }
            return events[first..<last].compactMap { if case .stop(let stop) = $0 { stop } else { nil } }
        }
    }

    /// The sentences a receiver with `profile` sends for `scenario`.
    static func nmea(_ scenario: Scenario, profile: EpochWriter.Profile) -> [UInt8] {
        let writer = EpochWriter(profile: profile)
        var builder = SentenceBuilder()
        for fix in scenario.fixes() { writer.write(fix, into: &builder) }
        return builder.bytes
    }

    /// Frames, decodes and assembles `bytes`, and hands the fixes to a detector.
    static func detect(
        _ bytes: [UInt8], fallbackDate: UTCDate? = nil,
        options: TripDetector.Options = .init()
    ) -> Outcome {
        var outcome = Outcome()
        var detector = TripDetector(options: options)
        var assembler = FixAssembler(options: .init(fallbackDate: fallbackDate))
        func record(_ event: TripDetector.Event) {
            outcome.events.append(event)
            switch event {
            case .trip(let trip): outcome.trips.append(trip)
            case .stop(let stop): outcome.stops.append(stop)
            }
        }
        func feed(_ fix: Fix) { detector.add(fix, record) }
        var framer = Framer()
        framer.feed(bytes) { (event: FramerEvent) in
            guard case .sentence(let sentence) = event, let parsed = try? ParsedSentence(sentence) else { return }
            assembler.add(parsed, feed)
        }
        framer.finish { (event: FramerEvent) in
            guard case .sentence(let sentence) = event, let parsed = try? ParsedSentence(sentence) else { return }
            assembler.add(parsed, feed)
        }
        assembler.finish(feed)
        detector.finish(record)
        outcome.statistics = detector.statistics
        return outcome
    }

    static func detect(
        _ scenario: Scenario, profile: EpochWriter.Profile = .rmcGGA, fallbackDate: UTCDate? = nil,
        options: TripDetector.Options = .init()
    ) -> Outcome {
        detect(nmea(scenario, profile: profile), fallbackDate: fallbackDate, options: options)
    }

    /// The fix a receiver would report for a simulated epoch (no NMEA in between).
    static func fix(_ simulated: SimulatedFix, withSpeed: Bool = true) -> Fix {
        let moment = simulated.dateTime
        var fix = Fix(date: moment.date, time: moment.time)
        guard simulated.hasFix else { return fix }
        fix.latitude = simulated.latitude
        fix.longitude = simulated.longitude
        fix.speed = withSpeed ? simulated.speedMetersPerSecond : nil
        fix.quality = .gps
        fix.mode = .threeD
        return fix
    }

    /// Nanoseconds since 1970 of the moment `seconds` after the scenario's start.
    static func time(_ scenario: Scenario, plus seconds: Double) -> Int64 {
        scenario.startNanoseconds + Int64(seconds * 1e9)
    }
}

/// Where the repository's place file is.
enum PlaceData {
    static let path = Locations.packageRoot + "/Resources/places.bin"

    /// Loaded once for all tests.
    static let index: PlaceIndex = try! PlaceIndex(path: path)
}
