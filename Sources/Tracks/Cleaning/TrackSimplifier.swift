import Glibc
import NMEA
import Trips

/// Fewer points with a guaranteed bound: every dropped point lies within ``toleranceMeters`` of the straight line
/// between the kept points either side of it (`--simplify METERS`).
///
/// A streaming "opening window" simplification: from the last kept point (the anchor) the window grows while every
/// point in it stays within the tolerance of the line from the anchor to the newest point; when a point would break
/// that, the point before it is kept and becomes the anchor. Each dropped point was checked against exactly the line
/// that replaces it, so the bound holds by construction (the test checks it point by point). Segment ends are kept;
/// a window holds at most ``maximumWindow`` points (then its end is kept), so memory is bounded and the work is
/// O(n · window).
///
/// Distances are on a local plane at the anchor (equirectangular, with ``Geodesy/earthRadiusMeters``): within a
/// window of a few kilometres the error is far below a centimetre per metre of tolerance.
public struct TrackSimplifier: Sendable {
    public let toleranceMeters: Double
    public let maximumWindow: Int
    /// The last kept point's position.
    private var anchor: (latitude: Double, longitude: Double)?
    /// Positions after the anchor, the newest last; the newest is ``candidate``.
    private var window: [(latitude: Double, longitude: Double)] = []
    /// The newest point, kept if the next one does not fit.
    private var candidate: Fix?
    public private(set) var kept = 0
    public private(set) var dropped = 0

    public init(toleranceMeters: Double, maximumWindow: Int = 1000) {
        self.toleranceMeters = toleranceMeters
        self.maximumWindow = max(maximumWindow, 2)
        window.reserveCapacity(self.maximumWindow)
    }

    /// Adds the next point of the current segment (`startsSegment` for the first of a new one); `emit` receives the
    /// points that are kept, in order.
    public mutating func add(_ fix: Fix, startsSegment: Bool, _ emit: (Fix) -> Void) {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return }
        if startsSegment { finishSegment(emit) }
        guard let anchor else {
            keep(fix, emit)
            return
        }
        let point = (latitude: latitude, longitude: longitude)
        if window.count < maximumWindow && fits(from: anchor, to: point) {
            window.append(point)
            candidate = fix
            return
        }
        // The newest point breaks the window: keep the candidate before it, and start again from there.
        if let held = candidate {
            keep(held, emit)
            if let newAnchor = self.anchor, fits(from: newAnchor, to: point) {
                window.append(point)
                candidate = fix
                return
            }
        }
        keep(fix, emit)
    }

    /// Keeps the segment's last point: call at a segment break and at the end.
    public mutating func finishSegment(_ emit: (Fix) -> Void) {
        if let held = candidate { keep(held, emit) }
        anchor = nil
        window.removeAll(keepingCapacity: true)
        candidate = nil
    }

    private mutating func keep(_ fix: Fix, _ emit: (Fix) -> Void) {
        dropped += max(window.count - (candidate == nil ? 0 : 1), 0)
        kept += 1
        emit(fix)
        anchor = (fix.latitude!, fix.longitude!)
        window.removeAll(keepingCapacity: true)
        candidate = nil
    }

    /// `true` when every point in the window is within the tolerance of the line from `start` to `end`.
    private func fits(
        from start: (latitude: Double, longitude: Double), to end: (latitude: Double, longitude: Double)
    ) -> Bool {
        let plane = LocalPlane(origin: start)
        let endPoint = plane.project(end)
        for point in window where Self.distance(plane.project(point), toSegmentEndingAt: endPoint) > toleranceMeters {
            return false
        }
        return true
    }

    /// The distance from `point` to the segment from the origin to `end`, metres on the plane.
    static func distance(_ point: (x: Double, y: Double), toSegmentEndingAt end: (x: Double, y: Double)) -> Double {
        let lengthSquared = end.x * end.x + end.y * end.y
        var t = lengthSquared > 0 ? (point.x * end.x + point.y * end.y) / lengthSquared : 0
        t = min(max(t, 0), 1)
        let dx = point.x - t * end.x
        let dy = point.y - t * end.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// An equirectangular plane at an origin, metres east (`x`) and north (`y`).
struct LocalPlane {
    let origin: (latitude: Double, longitude: Double)
    let metersPerDegreeLatitude = Geodesy.earthRadiusMeters * Double.pi / 180
    let metersPerDegreeLongitude: Double

    init(origin: (latitude: Double, longitude: Double)) {
        self.origin = origin
        metersPerDegreeLongitude = metersPerDegreeLatitude * cos(origin.latitude * Double.pi / 180)
    }

    func project(_ position: (latitude: Double, longitude: Double)) -> (x: Double, y: Double) {
        var deltaLongitude = position.longitude - origin.longitude
        if deltaLongitude > 180 { deltaLongitude -= 360 } else if deltaLongitude < -180 { deltaLongitude += 360 }
        return (deltaLongitude * metersPerDegreeLongitude, (position.latitude - origin.latitude) * metersPerDegreeLatitude)
    }
}
