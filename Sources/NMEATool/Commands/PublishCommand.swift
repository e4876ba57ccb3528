import Fleet
import Glibc
import NMEA
import Pipeline
import Recording
import System
import Tracks
import Trips

/// `nmea publish`: replays recorded NMEA through the MQTT publisher, as `nmea record --mqtt` publishes live.
enum PublishCommand: Command {
    static let spec = CommandSpec(
        name: "publish",
        abstract: "Publish the fixes and trips of NMEA logs to an MQTT broker as OwnTracks positions.",
        discussion: """
            Assembles the fixes of each log (as convert does) and publishes them as OwnTracks 'location' messages \
            (QoS 1, the last one retained), through the same rate limit and disk-backed queue as a live recorder: \
            a position goes out when --mqtt-interval seconds (of fix time) have passed and it moved at least \
            --mqtt-min-move metres, or after --mqtt-heartbeat seconds in any case; 0 and 0 publish every fix. \
            Messages wait in the queue until the broker acknowledges them, so an unreachable broker loses nothing: \
            what is not acknowledged when publish ends (after --wait seconds) stays queued for the next run with \
            the same queue directory. --speed replays in real time (1), faster (10) or as fast as possible (max). \
            Each trip found in the fixes (by the rule 'nmea trips' uses, with its place names) goes to \
            <topic>/trip when it ends, as 'nmea record --mqtt' sends it; --no-trips leaves them out.
            Fixes without a date (GGA-only logs) have no OwnTracks time and are not published: give --date. \
            Cleaning (--max-hdop, --drop-outliers, --simplify…) happens before both, as in 'nmea convert'.
            """,
        arguments: [SentenceInput.files],
        options: MQTTOptions.options + [speed, wait, noTrips, SentenceInput.date] + CleaningOptions.options
            + SentenceInput.options,
        examples: [
            "nmea publish drive.nmea --mqtt mqtt://localhost --mqtt-topic owntracks/acme/van7",
            "nmea publish day.nmea --mqtt mqtts://van7@broker.example --mqtt-password-file ~/.config/nmea/mqtt "
                + "--speed 10",
            "nmea publish log.nmea --mqtt mqtt://localhost --mqtt-interval 0 --mqtt-min-move 0",
            "nmea publish day.nmea --mqtt mqtt://localhost --fix 3d --drop-outliers --stationary 10",
        ])

    private static let speed = ReplaySpeed.option(
        help: "Replay speed: 1 for real time, 10 for ten times faster, or max.", default: .maximum)
    private static let wait = Option<Double>(
        long: "wait", valueName: "seconds",
        help: "At the end, wait this long for the broker to acknowledge everything.",
        default: 30, in: 0...1e7)
    private static let noTrips = Flag(long: "no-trips", help: "Publish positions only.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let configuration = try MQTTOptions.configuration(arguments) else {
            throw arguments.usageError("Missing expected argument '--mqtt <url>'")
        }
        let wait = try arguments.value(Self.wait)
        let speed = try arguments.value(Self.speed)?.factor
        var input = try SentenceInput(arguments)
        var cleaner = try CleaningOptions.parse(arguments)
        let publisher: FleetPublisher
        do {
            publisher = try FleetPublisher(configuration)
        } catch {
            throw RuntimeError(error.message)
        }
        StopSignal.install()
        if publisher.counters.recovered > 0 {
            Console.error(
                "nmea publish: \(publisher.counters.recovered) messages left queued by an earlier run "
                    + "go first\n")
        }
        let session = PublishSession(publisher, speed: speed, findsTrips: !arguments.flag(noTrips))
        let completed = try input.read(
            isCancelled: { StopSignal.isRequested }, { TrackCleaner.apply(&cleaner, $0, session.emit) })
        let interrupted = !completed || StopSignal.isRequested
        if !interrupted {
            cleaner?.finish(session.emit)
            session.finishTrips()
        }
        session.savePlaces()
        let delivered = session.waitUntilDelivered(within: wait, interrupted: interrupted)
        publisher.close()
        session.clearStatus()
        input.printSummary(command: "nmea publish")
        cleaner?.report(command: "nmea publish")
        session.report()
        let undated = input.statistics.assembler.undatedFixes
        if undated > 0 && input.fallbackDate == nil {
            Console.error(
                "nmea publish: \(undated) fixes had no date and were not "
                    + "published; --date YYYY-MM-DD gives them one\n")
        }
        if !delivered {
            session.reportUndelivered(within: interrupted ? nil : wait)
            return ExitStatus.failure
        }
        if interrupted { return ExitStatus.failure }
        return input.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}

/// One `nmea publish` run: the fixes paced and published, the trips found and published with their places, the
/// status line on a terminal, and what was done, said at the end.
private final class PublishSession {
    let publisher: FleetPublisher
    /// Pacing: the one pacer, by the fixes' times (no pause shortened: a replay at --speed 1 is real time).
    private var pacer: ReplayPacer?
    private var detector: TripDetector?
    private var places: CachedGeocoder??
    private var trips = 0
    private let terminal = Console.standardErrorIsTerminal
    private var lastStatus = 0.0

    init(_ publisher: FleetPublisher, speed: Double?, findsTrips: Bool) {
        self.publisher = publisher
        pacer = speed.map { ReplayPacer(speed: $0, maximumGap: .infinity) }
        detector = findsTrips ? TripDetector() : nil
    }

    /// Publishes `fix` when it is due, and the trip it ends.
    func emit(_ fix: Fix) {
        if StopSignal.isRequested { return }
        if pacer != nil, let timestamp = fix.timestamp {
            let due = pacer!.due(receivedMilliseconds: timestamp / 1_000_000, now: MonotonicTime.now().seconds)
            while true {
                let now = MonotonicTime.now().seconds
                if now >= due || StopSignal.isRequested { break }
                usleep(UInt32(min(due - now, 0.2) * 1e6))
                showStatus()
            }
        }
        publisher.publish(fix)
        detector?.add(fix, publishTrip)
        showStatus()
    }

    /// The trip under way, when the input has ended.
    func finishTrips() { detector?.finish(publishTrip) }

    private func publishTrip(_ event: TripDetector.Event) {
        guard case .trip(let trip) = event else { return }
        if places == nil { places = .some(PlaceOptions.geocoder(command: "nmea publish")) }
        let geocoder = places ?? nil
        let start = geocoder?.placeName(latitude: trip.start.latitude, longitude: trip.start.longitude)
        let end = geocoder?.placeName(latitude: trip.end.latitude, longitude: trip.end.longitude)
        publisher.publish(TripSummary(trip: trip, startPlace: start?.label, endPlace: end?.label))
        trips += 1
    }

    func savePlaces() {
        if case .some(.some(let geocoder)) = places { geocoder.save() }
    }

    /// Waits for the broker to acknowledge what is queued: `seconds` at most, 2 when interrupted.
    func waitUntilDelivered(within seconds: Double, interrupted: Bool) -> Bool {
        var delivered = publisher.waitUntilDelivered(timeout: interrupted ? min(seconds, 2) : 0)
        if !delivered && !interrupted {
            let deadline = MonotonicTime.now().seconds + seconds
            while !delivered && MonotonicTime.now().seconds < deadline && !StopSignal.isRequested {
                delivered = publisher.waitUntilDelivered(timeout: 0.25)
                showStatus()
            }
        }
        return delivered
    }

    /// The counters on standard error's last line, at most twice a second (on a terminal).
    private func showStatus(force: Bool = false) {
        guard terminal else { return }
        let now = MonotonicTime.now().seconds
        guard force || now - lastStatus >= 0.5 else { return }
        lastStatus = now
        Console.error("\r\u{1B}[K" + publisher.counters.summary)
    }

    func clearStatus() {
        if terminal { Console.error("\r\u{1B}[K") }
    }

    /// What was published, queued, acknowledged and dropped.
    func report() {
        let counters = publisher.counters
        var line = "nmea publish: \(counters.fixes) fixes"
        if trips > 0 { line += " and \(trips) trip\(trips == 1 ? "" : "s")" }
        line += ", \(counters.queued) queued"
        if counters.rateLimited > 0 { line += " (\(counters.rateLimited) held back by the rate limit)" }
        if counters.withoutPosition > 0 { line += ", \(counters.withoutPosition) without a position or date" }
        line += ", \(counters.acknowledged) acknowledged by the broker"
        if counters.dropped > 0 { line += ", \(counters.dropped) dropped" }
        Console.error(line + "\n")
        if let problem = counters.lastQueueProblem, counters.dropped > 0 {
            Console.error("nmea publish: \(problem)\n")
        }
    }

    /// What the broker did not acknowledge (`within` the wait, unless interrupted), and where it stays.
    func reportUndelivered(within seconds: Double?) {
        let counters = publisher.counters
        var message =
            "nmea publish: \(counters.pending) messages not acknowledged"
            + (seconds.map { " within \(DecimalFormatter.string($0)) s" } ?? "")
        if let error = counters.lastError, counters.state != .connected { message += " (\(error))" }
        message += "; they stay queued in \(publisher.queueDirectory) for the next run\n"
        Console.error(message)
    }
}
