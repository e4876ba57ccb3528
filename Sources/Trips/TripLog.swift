import NMEA

/// The trips and stops of a track by the one rule (``TripDetector``), and the track's distance: what `nmea trips`,
/// `nmea plot`, `nmea watch` and the fleet messages report, so that they always agree.
///
///     var log = TripLog()
///     for fix in fixes { log.add(fix) }
///     log.finish()
///     print(log.trips.count, log.stops.count, TripText.distance(log.distanceMeters))
///
/// **The track's distance** is the sum of its trips' distances: the great-circle steps between consecutive fixes
/// from the last fix at rest before each trip to the fix where it came to rest (a pause shorter than
/// ``TripDetector/Options/maximumGapSeconds`` is bridged by a straight line). A parked receiver's jitter, within the
/// minimum distance of its stop, is never part of a trip, so it adds nothing.
///
/// **Its stops** are the stops between trips: after the first trip and before the last. Where the data begins and
/// ends at rest is where the track begins and ends, not a stop.
///
/// **Live.** ``summary`` is what ``finish()`` would give now: the trip in progress counts, ended where the vehicle
/// came to rest. A live view shows the figures a later `nmea trips` of the same log prints.
///
/// Memory: the detector's fixed window, and the trips and stops found (a few dozen bytes each).
public struct TripLog: Sendable {
    /// The figures of a track, or of a track so far.
    public struct Summary: Sendable, Hashable {
        /// Trips (finished, and the one in progress).
        public var trips: Int
        /// Metres, of all those trips.
        public var distanceMeters: Double
        /// Seconds on those trips.
        public var durationSeconds: Double
        /// Stops between them.
        public var stops: Int

        public init(trips: Int = 0, distanceMeters: Double = 0, durationSeconds: Double = 0, stops: Int = 0) {
            self.trips = trips
            self.distanceMeters = distanceMeters
            self.durationSeconds = durationSeconds
            self.stops = stops
        }
    }

    /// The trips found, in order.
    public private(set) var trips: [Trip] = []
    /// The stops between them.
    public private(set) var stops: [Stop] = []
    /// Stops after the last trip so far: between trips once another trip follows.
    private var stopsAfterLastTrip: [Stop] = []
    private var detector: TripDetector
    private var clock: TrackClock

    /// - Parameters:
    ///   - options: the rule's distances and times (`nmea trips --min-distance`, `--min-stop`, `--max-gap`).
    ///   - undatedFixes: whether fixes without a date are timed by the time of day (``TrackClock``).
    public init(options: TripDetector.Options = .init(), undatedFixes: TrackClock.UndatedFixes = .ignored) {
        detector = TripDetector(options: options)
        clock = TrackClock(undatedFixes: undatedFixes)
    }

    /// The rule in use.
    public var options: TripDetector.Options { detector.options }
    /// What the detector did with the fixes.
    public var statistics: TripDetector.Statistics { detector.statistics }
    /// What the detector is doing now.
    public var state: TripDetector.State { detector.state }
    /// Whether the track's times are dates and times (`true`) or times of day (`false`); `nil` before a timed fix.
    public var isDated: Bool? { clock.isDated }

    /// Metres along the finished trips.
    public var distanceMeters: Double { trips.reduce(0) { $0 + $1.distanceMeters } }

    /// Adds a fix. Returns its time on the track (``TrackClock``), nanoseconds, or `nil` when it has no position or no
    /// time and was not used.
    @discardableResult
    public mutating func add(_ fix: Fix) -> Int64? {
        guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else {
            feed { $0.add(fix, $1) }  // counted as without a position
            return nil
        }
        guard let timestamp = clock.timestamp(of: fix) else {
            feed { $0.add(fix, $1) }  // counted as without a time
            return nil
        }
        feed { $0.add(timestamp: timestamp, latitude: latitude, longitude: longitude, speed: fix.speed, $1) }
        return timestamp
    }

    /// Adds a position timed on the track's own clock (`timestamp` in nanoseconds, increasing), with the receiver's
    /// speed over ground in metres per second when it sent one.
    public mutating func add(timestamp: Int64, latitude: Double, longitude: Double, speed: Double?) {
        feed { $0.add(timestamp: timestamp, latitude: latitude, longitude: longitude, speed: speed, $1) }
    }

    /// Ends the track: the trip in progress ends where the vehicle came to rest.
    public mutating func finish() {
        feed { $0.finish($1) }
        stopsAfterLastTrip.removeAll()
    }

    /// The figures as ``finish()`` would leave them now.
    /// - Complexity: O(*n*) in the trips, and the detector's window.
    public var summary: Summary {
        var summary = Summary(
            trips: trips.count, distanceMeters: distanceMeters,
            durationSeconds: trips.reduce(0) { $0 + $1.durationSeconds }, stops: stops.count)
        if let open = detector.tripInProgress {
            summary.trips += 1
            summary.distanceMeters += open.distanceMeters
            summary.durationSeconds += open.durationSeconds
            summary.stops += stopsAfterLastTrip.count
        }
        return summary
    }

    /// Runs `body` on the detector and takes the events it emits (at most two: a stop and a trip).
    private mutating func feed(_ body: (inout TripDetector, (TripDetector.Event) -> Void) -> Void) {
        var events: (TripDetector.Event?, TripDetector.Event?) = (nil, nil)
        body(&detector) { event in
            if events.0 == nil {
                events.0 = event
            } else {
                precondition(events.1 == nil, "the detector emits at most two events at a time")
                events.1 = event
            }
        }
        if let first = events.0 { take(first) }
        if let second = events.1 { take(second) }
    }

    private mutating func take(_ event: TripDetector.Event) {
        switch event {
        case .trip(let trip):
            stops += stopsAfterLastTrip
            stopsAfterLastTrip.removeAll()
            trips.append(trip)
        case .stop(let stop):
            if !trips.isEmpty { stopsAfterLastTrip.append(stop) }
        }
    }
}
