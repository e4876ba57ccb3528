import Geodesy
import NMEA

/// Removes physically impossible jumps (`--drop-outliers`): a point, or a run of up to ``maximumRun`` points, that
/// the track reaches faster than any plausible motion and leaves again, while the track carries on from the point
/// before it as if the run had not happened.
///
/// **The envelope.** From a kept point A at reported speed `v` (m/s; the Doppler speed of RMC/VTG, which a position
/// glitch does not share), the furthest a receiver can plausibly be after `dt` seconds is
/// `(v · 1.5 + 10) · dt + 5 · dt² + 30` metres: half again its speed plus 10 m/s, an acceleration of 10 m/s² (1 g)
/// and 30 m of position noise. `v` is A's speed (a glitch may report a wrong speed of its own); without one, 70 m/s
/// (250 km/h). A run is an outlier only when it
/// leaves the envelope *and* the first point after it is back inside A's envelope: a real jump — a train leaving, a
/// fix regained after a tunnel — moves the rest of the track too, so it stays.
///
/// Streaming with a look-ahead of ``maximumRun`` + 1 points; segment breaks (fixes without a position) end the
/// look-ahead, and the held points are written unjudged.
public struct OutlierFilter: Sendable {
    public let maximumRun: Int
    private var anchor: Fix?
    /// Points after the anchor, not yet judged.
    private var pending: [Fix] = []
    public private(set) var removed = 0

    public init(maximumRun: Int = 3) {
        self.maximumRun = max(maximumRun, 1)
        pending.reserveCapacity(self.maximumRun + 1)
    }

    /// Adds the next fix; `emit` receives the fixes that pass, in order.
    public mutating func add(_ fix: Fix, _ emit: (Fix) -> Void) {
        guard fix.hasPosition, !fix.isProvisional else {
            if fix.isProvisional { return emit(fix) }
            finish(emit)
            return emit(fix)
        }
        guard let anchor else {
            self.anchor = fix
            return emit(fix)
        }
        pending.append(fix)
        while let first = pending.first {
            if Self.isPlausible(first, from: anchor) {
                // The common case: the next point is where it could be.
                pending.removeFirst()
                emit(first)
                self.anchor = first
                return advance(emit)
            }
            // Out of the envelope: look for a point after the run that is back inside it.
            if let back = pending.indices.dropFirst().first(where: { Self.isPlausible(pending[$0], from: anchor) }) {
                removed += back
                pending.removeFirst(back)
                continue
            }
            if pending.count > maximumRun {
                // No return within the run: the track really went there.
                pending.removeFirst()
                emit(first)
                self.anchor = first
                continue
            }
            return
        }
    }

    /// Judges what follows a new anchor.
    private mutating func advance(_ emit: (Fix) -> Void) {
        guard !pending.isEmpty else { return }
        let held = pending
        pending.removeAll(keepingCapacity: true)
        for fix in held { add(fix, emit) }
    }

    /// Writes the points still held (at a break or the end), unjudged.
    public mutating func finish(_ emit: (Fix) -> Void) {
        for fix in pending { emit(fix) }
        pending.removeAll(keepingCapacity: true)
        anchor = nil
    }

    /// `true` when `fix` is within the envelope of motion from `anchor`.
    static func isPlausible(_ fix: Fix, from anchor: Fix) -> Bool {
        guard let latitude = fix.latitude, let longitude = fix.longitude, let fromLatitude = anchor.latitude,
            let fromLongitude = anchor.longitude
        else { return true }
        var seconds = 1.0
        if let time = fix.timestamp, let from = anchor.timestamp {
            seconds = max(Double(time - from) / 1e9, 0.05)
        }
        // The anchor's speed: a glitch may come with a wrong speed of its own, so the candidate's is not trusted.
        let speed = anchor.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 70
        let reach = (speed * 1.5 + 10) * seconds + 5 * seconds * seconds + 30
        return Geodesy.distanceMeters(fromLatitude, fromLongitude, latitude, longitude) <= reach
    }
}

/// Collapses a parked receiver's jitter (`--stationary METERS`): a point is written only when it is more than
/// METERS from the last point written, so a stop becomes its first point. Segment breaks pass, and the first point
/// after one is always written.
///
/// Points dropped at a stop leave a gap in time; a stop longer than the split gap therefore ends the segment, as a
/// stop does.
public struct StationaryFilter: Sendable {
    public let radiusMeters: Double
    private var last: (latitude: Double, longitude: Double)?
    public private(set) var removed = 0

    public init(radiusMeters: Double) { self.radiusMeters = radiusMeters }

    public mutating func add(_ fix: Fix, _ emit: (Fix) -> Void) {
        guard fix.hasPosition, !fix.isProvisional, let latitude = fix.latitude, let longitude = fix.longitude else {
            if !fix.isProvisional { last = nil }
            return emit(fix)
        }
        if let last, Geodesy.distanceMeters(last.latitude, last.longitude, latitude, longitude) <= radiusMeters {
            removed += 1
            return
        }
        last = (latitude, longitude)
        emit(fix)
    }
}
