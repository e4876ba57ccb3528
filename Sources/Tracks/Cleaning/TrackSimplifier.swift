import Geodesy
import Glibc
import NMEA

/// Fewer points with a guaranteed bound: every dropped point lies within ``toleranceMeters`` of the great-circle
/// line between the kept points either side of it (`--simplify METERS`).
///
/// A streaming "opening window" simplification: from the last kept point (the anchor) the window grows while every
/// point in it stays within the tolerance of the line from the anchor to the newest point; when a point would break
/// that, the point before it is kept and becomes the anchor. Each dropped point was checked against exactly the line
/// that replaces it, so the bound holds by construction (the test checks it point by point). Segment ends are kept;
/// a window spans at most ``maximumWindow`` points and ``maximumSpanNanoseconds`` (the writers' split gap, so the
/// points kept are never further apart in time than a segment allows), which bounds memory and makes the work
/// O(n · window).
///
/// Distances are exact on the sphere of ``Geodesy/earthRadiusMeters``: each point is kept as a unit vector, its
/// distance to a line is the cross-track distance to the great circle (or the distance to the nearer end when it
/// lies beyond one), compared through sines and chords so a check costs a few multiplications per point.
public struct TrackSimplifier: Sendable {
    typealias Vector = (x: Double, y: Double, z: Double)

    public let toleranceMeters: Double
    public let maximumWindow: Int
    public let maximumSpanNanoseconds: Int64
    /// `sin(tolerance / R)`: the largest |P·n| of a point within the tolerance of a great circle with unit normal n.
    private let crossTrackLimit: Double
    /// The squared chord of the tolerance: the largest |P − A|² of a point within it of A.
    private let chordLimit: Double
    /// The last kept point, and its time.
    private var anchor: Vector?
    private var anchorTimestamp: Int64?
    /// Points after the anchor, the newest last; the newest is ``candidate``.
    private var window: [Vector] = []
    /// The newest point, kept if the next one does not fit.
    private var candidate: Fix?
    public private(set) var kept = 0
    public private(set) var dropped = 0

    public init(toleranceMeters: Double, maximumWindow: Int = 1000, maximumSpanSeconds: Double = 60) {
        self.toleranceMeters = toleranceMeters
        self.maximumWindow = max(maximumWindow, 2)
        maximumSpanNanoseconds = Int64((maximumSpanSeconds * 1e9).rounded())
        let angle = toleranceMeters / Geodesy.earthRadiusMeters
        crossTrackLimit = sin(angle)
        let chord = 2 * sin(angle / 2)
        chordLimit = chord * chord
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
        let point = Geodesy.unitVector(latitude, longitude)
        if window.count < maximumWindow && withinSpan(fix) && fits(from: anchor, to: point) {
            window.append(point)
            candidate = fix
            return
        }
        // The newest point breaks the window: keep the candidate before it, and start again from there (an empty
        // window fits any line).
        if let held = candidate {
            keep(held, emit)
            if withinSpan(fix) {
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
        anchor = Geodesy.unitVector(fix.latitude!, fix.longitude!)
        anchorTimestamp = fix.timestamp
        window.removeAll(keepingCapacity: true)
        candidate = nil
    }

    /// `true` when `fix` is within the longest span from the anchor (or either has no time).
    private func withinSpan(_ fix: Fix) -> Bool {
        guard let anchorTimestamp, let timestamp = fix.timestamp else { return true }
        return timestamp - anchorTimestamp <= maximumSpanNanoseconds
    }

    /// `true` when every point in the window is within the tolerance of the great-circle line from `a` to `b`.
    private func fits(from a: Vector, to b: Vector) -> Bool {
        var normal = Self.cross(a, b)
        let length = Self.dot(normal, normal).squareRoot()
        // Two points closer than a micrometre: the line is a point, and every point must be near it.
        guard length > 1e-13 else { return window.allSatisfy { Self.chordSquared($0, a) <= chordLimit } }
        normal = (normal.x / length, normal.y / length, normal.z / length)
        for point in window {
            // Beside the arc (between its ends): the cross-track distance; beyond an end: the distance to it.
            let beyondStart = Self.dot(Self.cross(a, point), normal) < 0
            let beyondEnd = Self.dot(Self.cross(point, b), normal) < 0
            if beyondStart || beyondEnd {
                if min(Self.chordSquared(point, a), Self.chordSquared(point, b)) > chordLimit { return false }
            } else if abs(Self.dot(point, normal)) > crossTrackLimit {
                return false
            }
        }
        return true
    }

    static func dot(_ u: Vector, _ v: Vector) -> Double { u.x * v.x + u.y * v.y + u.z * v.z }

    static func cross(_ u: Vector, _ v: Vector) -> Vector {
        (u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
    }

    static func chordSquared(_ u: Vector, _ v: Vector) -> Double {
        let (dx, dy, dz) = (u.x - v.x, u.y - v.y, u.z - v.z)
        return dx * dx + dy * dy + dz * dz
    }
}
