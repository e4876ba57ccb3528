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
        arguments: [SentenceInput.filesArgument],
        options: MQTTOptions.options + [
            ReplaySpeed.option(
                help: "Replay speed: 1 for real time, 10 for ten times faster, or max.", defaultValue: "max"),
            OptionSpec(
                long: "wait", valueName: "seconds",
                help: "At the end, wait this long for the broker to acknowledge everything.",
                defaultValue: "30"),
            OptionSpec(long: "no-trips", help: "Publish positions only."),
            SentenceInput.date,
        ] + CleaningOptions.options + SentenceInput.options,
        examples: [
            "nmea publish drive.nmea --mqtt mqtt://localhost --mqtt-topic owntracks/acme/van7",
            "nmea publish day.nmea --mqtt mqtts://van7@broker.example --mqtt-password-file ~/.config/nmea/mqtt "
                + "--speed 10",
            "nmea publish log.nmea --mqtt mqtt://localhost --mqtt-interval 0 --mqtt-min-move 0",
            "nmea publish day.nmea --mqtt mqtt://localhost --fix 3d --drop-outliers --stationary 10",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let configuration = try MQTTOptions.configuration(arguments) else {
            throw arguments.usageError("Missing expected argument '--mqtt <url>'")
        }
        let wait = try arguments.number("wait", default: 30, in: 0...1e7)
        let speed = try ReplaySpeed.parse(arguments, default: .maximum)?.factor
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
        let terminal = Console.standardErrorIsTerminal
        var lastStatus = 0.0
        func showStatus(force: Bool = false) {
            guard terminal else { return }
            let now = MonotonicTime.now().seconds
            guard force || now - lastStatus >= 0.5 else { return }
            lastStatus = now
            Console.error("\r\u{1B}[K" + publisher.counters.summary)
        }

        // Pacing: the one pacer, by the fixes' times (no pause shortened: a replay at --speed 1 is real time).
        var pacer = speed.map { ReplayPacer(speed: $0, maximumGap: .infinity) }
        var detector = arguments.flag("no-trips") ? nil : TripDetector()
        var places: CachedGeocoder??
        var trips = 0
        func publishTrip(_ event: TripDetector.Event) {
            guard case .trip(let trip) = event else { return }
            if places == nil { places = .some(TripsCommand.makeGeocoder(command: "nmea publish")) }
            let geocoder = places ?? nil
            let start = geocoder?.placeName(latitude: trip.start.latitude, longitude: trip.start.longitude)
            let end = geocoder?.placeName(latitude: trip.end.latitude, longitude: trip.end.longitude)
            publisher.publish(TripSummary(trip: trip, startPlace: start?.label, endPlace: end?.label))
            trips += 1
        }
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

        let completed = try input.read(
            isCancelled: { StopSignal.isRequested }, { TrackCleaner.apply(&cleaner, $0, emit) })
        let interrupted = !completed || StopSignal.isRequested
        if !interrupted {
            cleaner?.finish(emit)
            detector?.finish(publishTrip)
        }
        if case .some(.some(let geocoder)) = places { geocoder.save() }

        var delivered = publisher.waitUntilDelivered(timeout: interrupted ? min(wait, 2) : 0)
        if !delivered && !interrupted {
            let deadline = MonotonicTime.now().seconds + wait
            while !delivered && MonotonicTime.now().seconds < deadline && !StopSignal.isRequested {
                delivered = publisher.waitUntilDelivered(timeout: 0.25)
                showStatus()
            }
        }
        publisher.close()
        if terminal { Console.error("\r\u{1B}[K") }
        let counters = publisher.counters
        input.printSummary(command: "nmea publish")
        cleaner?.report(command: "nmea publish")
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
        let undated = input.statistics.assembler.undatedFixes
        if undated > 0 && input.fallbackDate == nil {
            Console.error(
                "nmea publish: \(undated) fixes had no date and were not "
                    + "published; --date YYYY-MM-DD gives them one\n")
        }
        if !delivered {
            var message =
                "nmea publish: \(counters.pending) messages not acknowledged"
                + (interrupted ? "" : " within \(formatSeconds(wait))")
            if let error = counters.lastError, counters.state != .connected { message += " (\(error))" }
            message += "; they stay queued in \(publisher.queueDirectory) for the next run\n"
            Console.error(message)
            return ExitStatus.failure
        }
        if interrupted { return ExitStatus.failure }
        return input.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    private static func formatSeconds(_ seconds: Double) -> String { DecimalFormatter.string(seconds) + " s" }
}
