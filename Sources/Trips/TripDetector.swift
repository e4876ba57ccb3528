import Geodesy
import NMEA

/// Finds trips and stops in a stream of fixes, geometrically, one fix at a time, in bounded memory.
///
///     var detector = TripDetector()
///     for fix in fixes {
///         detector.add(fix) { event in
///             switch event {
///             case .trip(let trip): …   // a finished trip
///             case .stop(let stop): …   // a finished stop
///             }
///         }
///     }
///     detector.finish { event in … }  // the trip or stop still open
///
/// **Rules.** A trip starts when a fix lies more than ``Options/minimumDistanceMeters`` from the stop's position; its
/// start is moved back to the last fix at rest there (within ``Options/restRadiusMeters``), when movement really
/// began. A stop is when every fix of the last ``Options/stopSeconds`` lies within the minimum distance of the
/// newest; the trip ends where the vehicle came to rest (the earliest of the fixes, up to the newest, that all lie
/// within the rest radius of it), so the minutes spent confirming the stop are not part of the trip. A pause in the
/// data longer than ``Options/maximumGapSeconds`` ends a trip at the last fix before it; a stop continues across a
/// gap when the data resumes within the minimum distance, and ends at the gap otherwise (the movement in between is
/// unknown, no trip is invented). A shorter pause is bridged by a straight line, unless it lasts the stop time or more
/// and the data resumes within the minimum distance: then the vehicle stood there, and that is a stop. Parked jitter —
/// metres, and fractions of a knot — never goes past the minimum distance, so it never makes a trip.
///
/// **Memory.** The detector keeps the fixes of the last ``Options/stopSeconds`` only, at most one every 0.75 s (or
/// `stopSeconds / 320` when that is longer): every fix of a 1 Hz receiver, and a ring of 243 samples (14 KB) for
/// the default 180 s, fixed when the detector is made, whatever the length of the journey or the rate of the
/// receiver. Everything else it keeps is a few numbers.
///
/// **Time.** Fixes need a date and time (``Fix/timestamp``); a fix older than the one before is dropped and counted.
/// A single position more than a kilometre away at more than ``Options/maximumSpeed`` (a receiver's glitch) is
/// dropped; three in a row are taken as a gap followed by a new position.
public struct TripDetector: Sendable {
    public struct Options: Sendable, Hashable {
        /// A trip starts when a fix lies farther than this from the stop; a stop is when the fixes of
        /// ``stopSeconds`` lie within this of the newest. Metres.
        public var minimumDistanceMeters: Double
        /// How long all fixes must stay within ``minimumDistanceMeters`` to make a stop. Seconds.
        public var stopSeconds: Double
        /// A pause in the data longer than this ends a trip. Seconds.
        public var maximumGapSeconds: Double
        /// Within this of the stop's position the vehicle is at rest (where a trip's start and end are placed).
        /// Metres; `nil` is a quarter of ``minimumDistanceMeters``.
        public var restRadiusMeters: Double?
        /// Faster than this (metres per second) over more than a kilometre is a glitch, not travel; `nil` accepts
        /// every position.
        public var maximumSpeed: Double?

        public init(
            minimumDistanceMeters: Double = 200, stopSeconds: Double = 180, maximumGapSeconds: Double = 3600,
            restRadiusMeters: Double? = nil, maximumSpeed: Double? = 150
        ) {
            self.minimumDistanceMeters = minimumDistanceMeters
            self.stopSeconds = stopSeconds
            self.maximumGapSeconds = maximumGapSeconds
            self.restRadiusMeters = restRadiusMeters
            self.maximumSpeed = maximumSpeed
        }

        var restRadius: Double { restRadiusMeters ?? minimumDistanceMeters / 4 }
    }

    /// A trip or a stop that has finished.
    public enum Event: Sendable, Hashable {
        case trip(Trip)
        case stop(Stop)
    }

    /// What the detector is doing now, for a live status line.
    public enum State: Sendable, Hashable {
        /// No fix with a position and time yet.
        case waiting
        /// At rest since `since` (nanoseconds since 1970), at the position.
        case stopped(since: Int64, latitude: Double, longitude: Double)
        /// On a trip that began at `since`, so far `distanceMeters` long.
        case moving(since: Int64, distanceMeters: Double)
    }

    /// What the detector did with the fixes it was given.
    public struct Statistics: Sendable, Hashable {
        /// Fixes used.
        public var fixes = 0
        /// Fixes without a position (searching, no fix), ignored.
        public var withoutPosition = 0
        /// Fixes with a position but no date or time, ignored.
        public var withoutTime = 0
        /// Fixes older than the one before, dropped.
        public var outOfOrder = 0
        /// Fixes at the same time as the one before, dropped.
        public var duplicates = 0
        /// Positions dropped as glitches (see ``Options/maximumSpeed``).
        public var glitches = 0
        /// Pauses longer than the maximum gap.
        public var gaps = 0
        public init() {}
    }

    public let options: Options
    public private(set) var statistics = Statistics()

    /// One fix as the detector keeps it.
    struct Sample: Sendable {
        var timestamp: Int64
        var latitude: Double
        var longitude: Double
        /// The receiver's speed over ground, metres per second; NaN when it sent none.
        var speed = Double.nan
        /// Without the receiver's speed: the speed from the positions over the ``slowBaselineSeconds`` or more
        /// before; NaN when there is no earlier fix to tell.
        var derived = Double.nan
        /// On a trip: its distance and highest speed up to this fix, and its fixes.
        var distance = 0.0
        var maximumSpeed = 0.0
        var fixes = 0

        var point: TripPoint { TripPoint(timestamp: timestamp, latitude: latitude, longitude: longitude) }

        /// Not moving, by the receiver's own speed, or else by the positions before (unknown counts as slow). A
        /// track without speeds (most phones' GPX) gives the same trips as the log it came from.
        var isSlow: Bool { speed.isNaN ? !(derived >= TripDetector.slowSpeed) : !(speed >= TripDetector.slowSpeed) }

        /// Not moving from here to `later` (a fix ``slowBaselineSeconds`` or more after): by the receiver's own
        /// speed, or else by the positions after, which, unlike those before, know when the vehicle stopped.
        func isSlow(before later: Sample) -> Bool {
            guard speed.isNaN else { return isSlow }
            return TripDetector.speed(from: self, to: later).map { $0 < TripDetector.slowSpeed } ?? isSlow
        }
    }

    /// A receiver reporting this speed or more (metres per second, 3.6 km/h) is moving, even within the rest
    /// radius; parked receivers report 0.1–0.5 knots.
    static let slowSpeed = 1.0
    /// Speeds worked out from positions, to tell a moving vehicle from a parked one without the receiver's speed,
    /// span this long at least: over a few seconds a parked receiver's jitter of a few metres would look like movement.
    static let slowBaselineSeconds: Int64 = 10

    /// Metres per second from `earlier` to `later`; `nil` when they are not a baseline apart.
    static func speed(from earlier: Sample, to later: Sample) -> Double? {
        let elapsed = later.timestamp - earlier.timestamp
        guard elapsed >= slowBaselineSeconds * 1_000_000_000 else { return nil }
        let distance = Geodesy.distanceMeters(earlier.latitude, earlier.longitude, later.latitude, later.longitude)
        return distance / (Double(elapsed) / 1e9)
    }

    private enum Mode: Sendable {
        case waiting
        case stopped
        case moving
    }

    private var mode = Mode.waiting
    /// The last fix used.
    private var last: Sample?
    /// Fixes of the last `stopSeconds`, thinned to one per `spacing`.
    private var window: SampleRing
    private let spacing: Int64
    private let stopNanoseconds: Int64
    private let gapNanoseconds: Int64
    /// For speeds worked out from positions: the fix a second or more back.
    private var speedReference: Sample?
    private var derivedSpeed: Double?
    private var consecutiveGlitches = 0

    // Stopped: where, since when, the last fix at rest, and the way since it (a trip's beginning if it departs).
    private var stopPosition = TripPoint(timestamp: 0, latitude: 0, longitude: 0)
    private var stopOpenStart = false
    private var rest = Sample(timestamp: 0, latitude: 0, longitude: 0)
    private var sinceRest = Sample(timestamp: 0, latitude: 0, longitude: 0)

    // Moving: the trip so far (start, and distance, top speed and fixes up to `last`).
    private var tripStart = TripPoint(timestamp: 0, latitude: 0, longitude: 0)
    private var trip = Sample(timestamp: 0, latitude: 0, longitude: 0)

    public init(options: Options = Options()) {
        precondition(
            options.minimumDistanceMeters > 0 && options.stopSeconds > 0 && options.maximumGapSeconds > 0,
            "trip detector options must be positive")
        self.options = options
        stopNanoseconds = Int64(options.stopSeconds * 1e9)
        gapNanoseconds = Int64(options.maximumGapSeconds * 1e9)
        // 240 samples cover the stop time; keep a sample when 3/4 of a slot has passed since the last.
        let slot = max(1e9, options.stopSeconds * 1e9 / 240)
        spacing = Int64(slot * 0.75)
        window = SampleRing(capacity: Int(options.stopSeconds * 1e9 / Double(spacing)) + 3)
    }

    /// Samples the window can hold (fixed at creation), and holds now: the detector's memory bound.
    var windowCapacity: Int { window.capacity }
    var windowCount: Int { window.count }

    /// What the detector is doing now.
    public var state: State {
        switch mode {
        case .waiting: .waiting
        case .stopped:
            .stopped(
                since: stopPosition.timestamp, latitude: stopPosition.latitude,
                longitude: stopPosition.longitude)
        case .moving: .moving(since: tripStart.timestamp, distanceMeters: trip.distance)
        }
    }

    /// The trip in progress as ``finish(_:)`` would end it now (where the vehicle came to rest, or at its last fix);
    /// `nil` when not on a trip.
    /// - Complexity: O(*n*) in the fixes of the last ``Options/stopSeconds`` (at most 243 for the default).
    public var tripInProgress: Trip? {
        guard mode == .moving, let last else { return nil }
        return trip(arrivingAt: arrivalSample(before: last).0, ending: .endOfData)
    }

    /// Adds one fix; calls `emit` with each trip or stop it finishes (none, one, or two — a stop and a trip).
    /// Fixes without a position or a time are counted and ignored.
    public mutating func add(_ fix: Fix, _ emit: (Event) -> Void) {
        guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else {
            statistics.withoutPosition += 1
            return
        }
        guard let timestamp = fix.timestamp else {
            statistics.withoutTime += 1
            return
        }
        add(timestamp: timestamp, latitude: latitude, longitude: longitude, speed: fix.speed, emit)
    }

    /// Adds one fix and returns what it finished.
    public mutating func add(_ fix: Fix) -> [Event] {
        var events: [Event] = []
        add(fix) { events.append($0) }
        return events
    }

    /// Adds one position: `timestamp` in nanoseconds since 1970-01-01 UTC, decimal degrees, and the receiver's
    /// speed over ground in metres per second when it sent one.
    public mutating func add(
        timestamp: Int64, latitude: Double, longitude: Double, speed: Double? = nil,
        _ emit: (Event) -> Void
    ) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
            statistics.withoutPosition += 1
            return
        }
        var sample = Sample(timestamp: timestamp, latitude: latitude, longitude: longitude, speed: speed ?? .nan)
        guard let previous = last else {
            statistics.fixes += 1
            begin(sample)
            return
        }
        let elapsed = timestamp - previous.timestamp
        if elapsed < 0 {
            statistics.outOfOrder += 1
            return
        }
        if elapsed == 0 {
            statistics.duplicates += 1
            return
        }
        let step = Geodesy.distanceMeters(previous.latitude, previous.longitude, latitude, longitude)
        var gap = elapsed > gapNanoseconds
        if !gap, let limit = options.maximumSpeed, step > 1000, step / (Double(elapsed) / 1e9) > limit {
            consecutiveGlitches += 1
            guard consecutiveGlitches >= 3 else {
                statistics.glitches += 1
                return
            }
            gap = true  // the receiver really is somewhere else now
        }
        consecutiveGlitches = 0
        statistics.fixes += 1
        // A pause of the stop time or more, after which the vehicle is where it was: it stood there.
        let paused = elapsed >= stopNanoseconds && step <= options.minimumDistanceMeters
        if gap || paused {
            if gap { statistics.gaps += 1 }
            resume(after: previous, at: sample, ending: gap ? .gap : .stop, emit)
            return
        }

        if speed == nil { sample.derived = speedBefore(sample) ?? .nan }
        let speed = speed ?? derive(sample)
        if speed != nil || speedReference == nil || timestamp - speedReference!.timestamp >= 1_000_000_000 {
            speedReference = sample
        }
        switch mode {
        case .waiting:
            begin(sample)
            return
        case .stopped:
            advanceStopped(sample, step: step, speed: speed, emit)
        case .moving:
            advanceMoving(&sample, step: step, speed: speed, emit)
        }
        last = sample
    }

    /// A fix while stopped: a departure when it is beyond the minimum distance from the stop, else perhaps the
    /// place where the vehicle rests.
    private mutating func advanceStopped(_ sample: Sample, step: Double, speed: Double?, _ emit: (Event) -> Void) {
        sinceRest.distance += step
        sinceRest.maximumSpeed = max(sinceRest.maximumSpeed, speed ?? 0)
        sinceRest.fixes += 1
        let fromStop = Geodesy.distanceMeters(
            stopPosition.latitude, stopPosition.longitude, sample.latitude, sample.longitude)
        if fromStop > options.minimumDistanceMeters {
            depart(at: sample, emit)
        } else {
            let kept = keep(sample)
            if sample.isSlow && (fromStop <= options.restRadius || (kept && atRest(around: sample))) {
                markRest(sample)
            }
        }
    }

    /// A fix while moving: the trip's figures grow, and it ends when the vehicle has stopped.
    private mutating func advanceMoving(_ sample: inout Sample, step: Double, speed: Double?, _ emit: (Event) -> Void) {
        trip.distance += step
        trip.maximumSpeed = max(trip.maximumSpeed, speed ?? 0)
        trip.fixes += 1
        sample.distance = trip.distance
        sample.maximumSpeed = trip.maximumSpeed
        sample.fixes = trip.fixes
        last = sample
        if keep(sample), stopped(at: sample) {
            arrive(ending: .stop, emit)
        }
    }

    /// Ends what is open: the trip in progress (at the fix where it came to rest, or its last) and the stop at the
    /// end of the data. The detector then waits for a first fix again.
    public mutating func finish(_ emit: (Event) -> Void) {
        guard let last else { return }
        if mode == .moving { arrive(ending: .endOfData, emit) }
        if mode == .stopped {
            emitStop(
                Stop(start: stopPosition, endTimestamp: last.timestamp, openStart: stopOpenStart, openEnd: true),
                emit)
        }
        mode = .waiting
        self.last = nil
        window.removeAll()
        speedReference = nil
        derivedSpeed = nil
        consecutiveGlitches = 0
    }

    /// Ends what is open and returns it.
    public mutating func finish() -> [Event] {
        var events: [Event] = []
        finish { events.append($0) }
        return events
    }

    // MARK: Transitions

    /// The first fix, or the first after a gap that moved the vehicle: at rest here, since an unknown time.
    private mutating func begin(_ sample: Sample) {
        mode = .stopped
        stopPosition = sample.point
        stopOpenStart = true
        restart(at: sample)
    }

    /// At rest at `sample`, with nothing before it: the window, the rest and the speed begin again there.
    private mutating func restart(at sample: Sample) {
        window.removeAll()
        _ = keep(sample)
        markRest(sample)
        speedReference = sample
        derivedSpeed = nil
        last = sample
    }

    /// Movement beyond the minimum distance: the stop ends, a trip begins at the last fix at rest.
    private mutating func depart(at sample: Sample, _ emit: (Event) -> Void) {
        emit(.stop(Stop(start: stopPosition, endTimestamp: rest.timestamp, openStart: stopOpenStart, openEnd: false)))
        mode = .moving
        tripStart = rest.point
        trip = sinceRest
        trip.timestamp = sample.timestamp
        window.removeAll()
        var first = rest
        first.distance = 0
        first.maximumSpeed = 0
        first.fixes = 0
        _ = keep(first)
        var current = sample
        current.distance = trip.distance
        current.maximumSpeed = trip.maximumSpeed
        current.fixes = trip.fixes
        _ = keep(current)
    }

    /// The trip ends where the vehicle came to rest (or at its last fix); a stop begins there, at the mean position
    /// of the fixes at rest.
    private mutating func arrive(ending: Trip.Ending, _ emit: (Event) -> Void) {
        guard let last else { return }
        let (arrival, position) = arrivalSample(before: last)
        emit(.trip(trip(arrivingAt: arrival, ending: ending)))
        mode = .stopped
        stopPosition = TripPoint(
            timestamp: arrival.timestamp, latitude: position.latitude,
            longitude: position.longitude)
        stopOpenStart = false
        markRest(last)
    }

    /// The trip in progress, ended at `arrival`.
    private func trip(arrivingAt arrival: Sample, ending: Trip.Ending) -> Trip {
        Trip(
            start: tripStart, end: arrival.point, distanceMeters: arrival.distance,
            maximumSpeed: arrival.maximumSpeed, fixes: arrival.fixes + 1, ending: ending)
    }

    /// A pause between `previous` and `sample` longer than the maximum gap, or longer than the stop time with the
    /// vehicle where it was: a trip in progress ends (`ending`), and the stop goes on at `sample` or, when the data
    /// resumes elsewhere, ends at `previous`.
    private mutating func resume(
        after previous: Sample, at sample: Sample, ending: Trip.Ending,
        _ emit: (Event) -> Void
    ) {
        if mode == .moving { arrive(ending: ending, emit) }
        let fromStop = Geodesy.distanceMeters(
            stopPosition.latitude, stopPosition.longitude,
            sample.latitude, sample.longitude)
        if mode == .stopped && fromStop <= options.minimumDistanceMeters {
            // Still (or again) at the same stop: it goes on across the gap.
            restart(at: sample)
            return
        }
        emitStop(
            Stop(start: stopPosition, endTimestamp: previous.timestamp, openStart: stopOpenStart, openEnd: true),
            emit)
        begin(sample)
    }

    /// Hands out a stop that lasted; one of no duration (a trip cut by the end of the data or a gap) says nothing.
    private func emitStop(_ stop: Stop, _ emit: (Event) -> Void) {
        if stop.endTimestamp > stop.start.timestamp { emit(.stop(stop)) }
    }

    private mutating func markRest(_ sample: Sample) {
        rest = sample
        sinceRest = Sample(timestamp: sample.timestamp, latitude: sample.latitude, longitude: sample.longitude)
    }

    // MARK: Window

    /// Adds `sample` to the window when a slot has passed since the last one kept, and drops what is older than
    /// the stop time (keeping one fix at or before its beginning, to know the window covers it). Returns whether
    /// it was kept.
    private mutating func keep(_ sample: Sample) -> Bool {
        if let newest = window.last, sample.timestamp - newest.timestamp < spacing { return false }
        window.append(sample)
        let horizon = sample.timestamp - stopNanoseconds
        while window.count >= 2 && window[1].timestamp <= horizon { window.removeFirst() }
        return true
    }

    /// Every fix of the last stop time lies within the minimum distance of `sample`, and they cover all of it.
    private func stopped(at sample: Sample) -> Bool { windowLies(within: options.minimumDistanceMeters, of: sample) }

    /// Every fix of the last stop time lies within the rest radius of `sample`: at rest here.
    private func atRest(around sample: Sample) -> Bool { windowLies(within: options.restRadius, of: sample) }

    /// The window covers the last stop time and every fix in it lies within `meters` of `sample`.
    private func windowLies(within meters: Double, of sample: Sample) -> Bool {
        guard window.count >= 2, window[0].timestamp <= sample.timestamp - stopNanoseconds else { return false }
        for index in 0..<window.count
        where Geodesy.distanceMeters(
            window[index].latitude, window[index].longitude, sample.latitude,
            sample.longitude) > meters
        {
            return false
        }
        return true
    }

    /// The earliest fix of the window from which on every fix lies within the rest radius of `newest`, slow by the
    /// receiver's speed: when the vehicle came to rest where it is (`newest` itself when the fix before it is
    /// farther or faster). With it, the mean position of those fixes: where the vehicle stands.
    private func arrivalSample(before newest: Sample) -> (Sample, (latitude: Double, longitude: Double)) {
        var arrival = newest
        var latitudeSum = 0.0
        var longitudeSum = 0.0
        var count = 0
        if newest.isSlow {
            var index = window.count - 1
            while index >= 0 {
                let sample = window[index]
                let later = fix(after: index, newest)
                index -= 1
                guard sample.timestamp < newest.timestamp else { continue }
                guard sample.timestamp > tripStart.timestamp, sample.isSlow(before: later),
                    Geodesy.distanceMeters(
                        sample.latitude, sample.longitude, newest.latitude,
                        newest.longitude) <= options.restRadius
                else { break }
                arrival = sample
                var longitudeOffset = sample.longitude - newest.longitude
                if longitudeOffset > 180 {
                    longitudeOffset -= 360
                } else if longitudeOffset < -180 {
                    longitudeOffset += 360
                }
                latitudeSum += sample.latitude - newest.latitude
                longitudeSum += longitudeOffset
                count += 1
            }
        }
        // Offsets from `newest` (within ±180°) average without trouble at the date line.
        var longitude = newest.longitude + longitudeSum / Double(count + 1)
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return (arrival, (newest.latitude + latitudeSum / Double(count + 1), longitude))
    }

    /// The speed from the positions over the baseline before `sample` (from the newest fix kept that far back);
    /// at the start of the data, where no fix is that far back, over the second or more since the oldest.
    private func speedBefore(_ sample: Sample) -> Double? {
        var index = window.count - 1
        while index >= 0 {
            if let speed = Self.speed(from: window[index], to: sample) { return speed }
            index -= 1
        }
        guard window.count > 0 else { return nil }
        let oldest = window[0]
        let elapsed = Double(sample.timestamp - oldest.timestamp) / 1e9
        guard elapsed >= 1 else { return nil }
        return Geodesy.distanceMeters(oldest.latitude, oldest.longitude, sample.latitude, sample.longitude) / elapsed
    }

    /// The first fix kept after window index `earlierIndex` that is a baseline later than it, or `newest` when none
    /// is.
    private func fix(after earlierIndex: Int, _ newest: Sample) -> Sample {
        let earlier = window[earlierIndex]
        var index = earlierIndex + 1
        while index < window.count {
            if window[index].timestamp - earlier.timestamp >= Self.slowBaselineSeconds * 1_000_000_000 {
                return window[index]
            }
            index += 1
        }
        return newest
    }

    /// The speed from the positions, over a second or more.
    private mutating func derive(_ sample: Sample) -> Double? {
        guard let reference = speedReference else { return nil }
        let elapsed = Double(sample.timestamp - reference.timestamp) / 1e9
        guard elapsed >= 1 else { return derivedSpeed }
        derivedSpeed =
            Geodesy.distanceMeters(
                reference.latitude, reference.longitude, sample.latitude,
                sample.longitude) / elapsed
        return derivedSpeed
    }
}

/// A fixed-capacity ring of samples, oldest first; appending to a full ring drops the oldest.
///
/// - Complexity: O(1) for every operation.
struct SampleRing: Sendable {
    private var storage: [TripDetector.Sample]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        storage = Array(
            repeating: TripDetector.Sample(timestamp: 0, latitude: 0, longitude: 0),
            count: max(capacity, 2))
    }

    var capacity: Int { storage.count }

    /// The slot of the `index`th oldest sample.
    private func slot(_ index: Int) -> Int {
        let slot = head + index
        return slot >= storage.count ? slot - storage.count : slot
    }

    subscript(index: Int) -> TripDetector.Sample {
        precondition(index >= 0 && index < count)
        return storage[slot(index)]
    }

    var last: TripDetector.Sample? { count == 0 ? nil : self[count - 1] }

    mutating func append(_ sample: TripDetector.Sample) {
        if count == storage.count { removeFirst() }
        storage[slot(count)] = sample
        count += 1
    }

    mutating func removeFirst() {
        precondition(count > 0)
        head = slot(1)
        count -= 1
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }
}
