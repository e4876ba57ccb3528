/// A place where the receiver stood still.
public struct Stop: Sendable, Hashable {
    /// Seconds (the track's time base) of the first still fix.
    public var start: Double
    /// Seconds of the first fix that moved on, or of the last fix when the track ends standing.
    public var end: Double
    /// The mean position of the still fixes, degrees.
    public var latitude: Double
    public var longitude: Double

    public var durationSeconds: Double { end - start }

    public init(start: Double, end: Double, latitude: Double, longitude: Double) {
        self.start = start
        self.end = end
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Finds stops in a stream of fixes with a small, fixed rule — enough for a picture; the `Trips` module does the
/// real trip analysis.
///
/// A fix is *still* when its speed is below ``Rule/stillSpeed`` (or the receiver sends no speed) and it lies within
/// ``Rule/radiusMeters`` of the first still fix of the run. A run of still fixes lasting at least
/// ``Rule/minimumSeconds`` is a stop. Up to ``Rule/toleratedMovingFixes`` fast fixes inside the radius (a parked
/// receiver's speed noise) do not end a run; a data gap does not either, as long as the position stays.
public struct StopFinder: Sendable {
    public struct Rule: Sendable, Hashable {
        /// Shortest stop, seconds.
        public var minimumSeconds: Double = 120
        /// Slower than this is standing still, m/s (1 km/h).
        public var stillSpeed: Double = 1 / 3.6
        /// How far the position may wander during a stop, metres.
        public var radiusMeters: Double = 50
        /// Fast fixes in a row, inside the radius, that still count as standing.
        public var toleratedMovingFixes = 5

        public init(minimumSeconds: Double = 120) { self.minimumSeconds = minimumSeconds }
    }

    private struct Run {
        var start: Double
        var anchorLatitude: Double
        var anchorLongitude: Double
        var latitudeSum: Double
        var longitudeSum: Double
        var count: Double
        var lastTime: Double
        var movingFixes = 0
        var firstMovingTime = 0.0
    }

    public let rule: Rule
    private var run: Run?

    public init(rule: Rule = Rule()) { self.rule = rule }

    /// Takes the next fix (times increasing); returns the stop it ended, if any.
    public mutating func add(time: Double, latitude: Double, longitude: Double, speed: Double?) -> Stop? {
        let slow = speed.map { $0 < rule.stillSpeed } ?? true
        guard var current = run else {
            if slow { begin(time: time, latitude: latitude, longitude: longitude) }
            return nil
        }
        let inside =
            greatCircleMeters(current.anchorLatitude, current.anchorLongitude, latitude, longitude)
            <= rule.radiusMeters
        if inside && slow {
            current.movingFixes = 0
            current.latitudeSum += latitude
            current.longitudeSum += longitude
            current.count += 1
            current.lastTime = time
            run = current
            return nil
        }
        if inside && current.movingFixes < rule.toleratedMovingFixes {
            if current.movingFixes == 0 { current.firstMovingTime = time }
            current.movingFixes += 1
            run = current
            return nil
        }
        let end = current.movingFixes > 0 ? current.firstMovingTime : time
        run = nil
        let stop = stop(current, end: end)
        if slow { begin(time: time, latitude: latitude, longitude: longitude) }
        return stop
    }

    /// Ends the stream; returns the stop the track ended in, if any.
    public mutating func finish() -> Stop? {
        guard let current = run else { return nil }
        run = nil
        return stop(current, end: current.movingFixes > 0 ? current.firstMovingTime : current.lastTime)
    }

    private mutating func begin(time: Double, latitude: Double, longitude: Double) {
        run = Run(
            start: time, anchorLatitude: latitude, anchorLongitude: longitude, latitudeSum: latitude,
            longitudeSum: longitude, count: 1, lastTime: time)
    }

    private func stop(_ run: Run, end: Double) -> Stop? {
        guard end - run.start >= rule.minimumSeconds - 1e-6 else { return nil }
        return Stop(
            start: run.start, end: end, latitude: run.latitudeSum / run.count,
            longitude: run.longitudeSum / run.count)
    }
}
