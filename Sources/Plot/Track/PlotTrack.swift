import Geodesy
import NMEA
import Trips

/// One position to draw.
public struct TrackPoint: Sendable, Hashable {
    /// Seconds: since 1970-01-01 UTC when the date is known (``PlotTrack/hasDate``), else since midnight of the
    /// first day. `nil` when the receiver sent no time.
    public var time: Double?
    public var latitude: Double
    public var longitude: Double
    /// Metres per second, as the receiver reported it; `nil` when it sent none (then it is derived from positions).
    public var speed: Double?
    public var altitudeMeters: Double?

    public init(
        time: Double?, latitude: Double, longitude: Double, speed: Double? = nil,
        altitudeMeters: Double? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.altitudeMeters = altitudeMeters
    }
}

/// The points of a track gathered for drawing, in bounded memory, with exact totals.
///
/// Points are kept as they come until ``Options/capacity``; beyond that every other point is dropped and from then
/// on only every second (fourth, …) point is kept, so a day at 10 Hz fits in the same memory as a day at 1 Hz.
/// The first point of each segment and the last point are always kept. Totals — distance, maximum speed, altitude
/// range, time span — and stops are computed from every point, never from the thinned ones; the distance and the
/// stops are the track's by the one trip rule (``TripLog``), the figures `nmea trips` prints for the same fixes.
public struct PlotTrack: Sendable {
    public struct Options: Sendable {
        /// At most this many points are held (plus segment starts).
        public var capacity = 100_000
        /// A gap in time longer than this breaks the line, seconds.
        public var splitGapSeconds = 60.0
        /// The trip rule, whose stops the picture marks (`nmea trips --min-distance`, `--min-stop`, `--max-gap`).
        public var trips = TripDetector.Options()

        public init(capacity: Int = 100_000, splitGapSeconds: Double = 60, trips: TripDetector.Options = .init()) {
            self.capacity = max(16, capacity)
            self.splitGapSeconds = splitGapSeconds
            self.trips = trips
        }
    }

    /// A kept point: longitude unwrapped across the antimeridian, speed reported or derived.
    public struct Point: Sendable, Hashable {
        public var time: Double?
        public var latitude: Double
        public var longitude: Double
        public var speed: Double?
        public var altitudeMeters: Double?
        /// The line is broken before this point (first point, fix lost, or a gap in time).
        public var startsSegment: Bool
    }

    public let options: Options
    /// The kept points, in order.
    public private(set) var points: [Point] = []
    /// Every point added.
    public private(set) var count = 0
    /// The first and last point added.
    public private(set) var first: Point?
    public private(set) var last: Point?
    /// Metres travelled: the track's distance by the trip rule (``TripLog``; the trip in progress counts), so a
    /// parked receiver's jitter adds nothing.
    public var distanceMeters: Double { trips.summary.distanceMeters }
    /// The fastest point.
    public private(set) var fastest: Point?
    public private(set) var lowestAltitude: Double?
    public private(set) var highestAltitude: Double?
    public private(set) var earliestTime: Double?
    public private(set) var latestTime: Double?
    /// The stops between trips found so far (complete after ``finish()``), as `nmea trips` lists them.
    public var stops: [Stop] { trips.stops }
    /// `true` when times are seconds since 1970 (the input had dates); `false` for seconds since midnight.
    public var hasDate: Bool { trips.isDated == true }
    /// Every how many points one is kept now (1 until ``Options/capacity`` is reached).
    public private(set) var stride = 1

    /// The trips and stops of every point with a time, by the one rule; the clock of fixes without dates.
    private var trips: TripLog
    private var previous: Point?
    /// The last few points of the segment, for speeds derived from positions.
    private var recent: [Point] = []
    private var breakBeforeNext = false
    private var sinceKept = 0
    private var lastWasKept = false

    public init(options: Options = Options()) {
        self.options = options
        trips = TripLog(options: options.trips, undatedFixes: .timeOfDay)
    }

    /// Seconds, in the track's time base, of a time the trip rule gives (a stop's start or end).
    public func seconds(_ timestamp: Int64) -> Double { Double(timestamp) / 1e9 }

    /// Adds a fix: its position, or a break in the line when it has none. Fixes without a date are timed by the time
    /// of day when the track began without dates (``TrackClock``).
    public mutating func add(_ fix: Fix) {
        guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else {
            breakSegment()
            return
        }
        let timestamp = trips.add(fix)
        draw(
            TrackPoint(
                time: timestamp.map { Double($0) / 1e9 }, latitude: latitude, longitude: longitude, speed: fix.speed,
                altitudeMeters: fix.altitudeMeters))
    }

    /// Breaks the line before the next point (the fix was lost).
    public mutating func breakSegment() { breakBeforeNext = true }

    /// Adds a point. Times should increase; a point earlier than the one before starts a new segment.
    public mutating func add(_ input: TrackPoint) {
        if let time = input.time, time.isFinite {
            trips.add(
                timestamp: Int64((time * 1e9).rounded()), latitude: input.latitude, longitude: input.longitude,
                speed: input.speed)
        }
        draw(input)
    }

    /// Keeps a point for drawing and in the totals (the trip rule has had it).
    private mutating func draw(_ input: TrackPoint) {
        guard input.latitude.isFinite, input.longitude.isFinite else { return }
        var longitude = input.longitude
        if let previous {
            while longitude - previous.longitude > 180 { longitude -= 360 }
            while longitude - previous.longitude < -180 { longitude += 360 }
        }
        var point = Point(
            time: input.time, latitude: input.latitude, longitude: longitude, speed: input.speed,
            altitudeMeters: input.altitudeMeters?.isFinite == true ? input.altitudeMeters : nil,
            startsSegment: previous == nil || breakBeforeNext)
        breakBeforeNext = false
        if let previous, let time = point.time, let previousTime = previous.time {
            if time - previousTime > options.splitGapSeconds || time < previousTime - 0.5 {
                point.startsSegment = true
            }
        }
        if point.startsSegment { recent.removeAll(keepingCapacity: true) }
        if point.speed == nil { point.speed = derivedSpeed(point) }
        if let speed = point.speed, !speed.isFinite { point.speed = nil }
        recent.append(point)
        if recent.count > 5 { recent.removeFirst() }
        record(point)
        previous = point
    }

    /// Speed over the last few seconds of positions (up to 5 fixes back), so one fix's jitter counts less.
    private func derivedSpeed(_ point: Point) -> Double? {
        guard let time = point.time,
            let oldest = recent.first(where: { $0.time != nil && time - $0.time! <= 5.5 }),
            let oldestTime = oldest.time, time > oldestTime
        else { return nil }
        return Geodesy.distanceMeters(oldest.latitude, oldest.longitude, point.latitude, point.longitude)
            / (time - oldestTime)
    }

    /// Ends the input: the trip in progress ends.
    public mutating func finish() {
        trips.finish()
        if let last, !lastWasKept {
            points.append(last)
            lastWasKept = true
        }
    }

    /// Keeps the totals and keeps the point if its turn has come.
    private mutating func record(_ point: Point) {
        count += 1
        if first == nil { first = point }
        last = point
        if let speed = point.speed, speed > (fastest?.speed ?? -1) { fastest = point }
        if let altitude = point.altitudeMeters {
            lowestAltitude = min(lowestAltitude ?? altitude, altitude)
            highestAltitude = max(highestAltitude ?? altitude, altitude)
        }
        if let time = point.time {
            earliestTime = min(earliestTime ?? time, time)
            latestTime = max(latestTime ?? time, time)
        }
        sinceKept += 1
        guard point.startsSegment || sinceKept >= stride else {
            lastWasKept = false
            return
        }
        if points.count >= options.capacity { halve() }
        points.append(point)
        sinceKept = 0
        lastWasKept = true
    }

    /// Drops every other kept point (segment starts stay) and doubles the stride.
    private mutating func halve() {
        var kept: [Point] = []
        kept.reserveCapacity(points.count / 2 + 16)
        for (index, point) in points.enumerated() where index % 2 == 0 || point.startsSegment {
            kept.append(point)
        }
        points = kept
        stride *= 2
    }
}
