import Geodesy
import Pipeline
import RTCM
import System

/// Where an NTRIP client stands: its connection, the corrections it passed on, the base station they come from, the
/// GGA it sent. A snapshot (``NTRIPClient/status``) for the status line, the page and the gpsd server.
public struct CorrectionStatus: Sendable, Hashable {
    /// The caster and mount (`ntrip://user@caster:2101/MOUNT`).
    public var source: String
    public var isConnected = false
    /// Connections made (one more than the reconnections).
    public var connections = 0
    /// What the connection last said: "connecting", "refused the login…", "reconnecting in 2 s".
    public var message = "connecting"
    /// RTCM 3 frames passed on (CRC-valid, whole), and their bytes.
    public var frames = 0
    public var bytes = 0
    /// Bytes of the stream (after the head, without chunk sizes), in all.
    public var streamBytes = 0
    /// Bytes of the stream that were not whole RTCM 3 frames (noise, RTCM 2, another protocol, a frame cut off by a
    /// dropped connection): skipped.
    public var skippedBytes: Int { streamBytes - bytes }
    /// When the last frame arrived.
    public var lastFrame: MonotonicTime?
    /// The base station's ID, from the last message that carries one.
    public var stationID: Int?
    /// The base station's antenna reference point (1005/1006), WGS 84.
    public var stationLatitude: Double?
    public var stationLongitude: Double?
    public var stationHeight: Double?
    /// GGA sentences sent to the caster, and when the last went.
    public var ggaSent = 0
    public var lastGGA: MonotonicTime?
    /// `true` once the client has given up (or was stopped).
    public internal(set) var hasEnded = false
    /// Frames that arrived in each of the last ten whole seconds (for the rate).
    var perSecond = RateWindow()

    public init(source: String) { self.source = source }

    /// Seconds since the last frame; `nil` before the first.
    public var ageSeconds: Double? { lastFrame.map { Double($0.elapsed.nanosecondsClamped) / 1e9 } }

    /// Frames a second over the last ten seconds.
    public var messagesPerSecond: Double { perSecond.rate(now: .now()) }

    /// What the live views show (``Pipeline/ReceiverPipeline/setCorrections(_:)``).
    public var summary: CorrectionSummary {
        CorrectionSummary(
            source: source, isConnected: isConnected, ageSeconds: ageSeconds, messagesPerSecond: messagesPerSecond,
            stationID: stationID, stationLatitude: stationLatitude, stationLongitude: stationLongitude)
    }

    /// The distance from a position to the base station, metres; `nil` until a 1005/1006 told where it is.
    public func baseDistanceMeters(latitude: Double, longitude: Double) -> Double? {
        guard let stationLatitude, let stationLongitude else { return nil }
        return Geodesy.distanceMeters(latitude, longitude, stationLatitude, stationLongitude)
    }

    /// Counts `frame`, and learns the station from it.
    mutating func count(_ frame: RTCMFrame, bytes: Int) {
        frames += 1
        self.bytes += bytes
        let now = MonotonicTime.now()
        lastFrame = now
        perSecond.add(now: now)
        var reading = StationReading()
        frame.decode(into: &reading)
        if let id = reading.stationID { stationID = id }
        if let station = reading.station {
            let position = Geodesy.geodetic(x: station.x, y: station.y, z: station.z)
            stationLatitude = position.latitude
            stationLongitude = position.longitude
            stationHeight = position.height
        }
    }
}

/// The station ID of any message that has one (through the registry of types), and where 1005/1006 put it.
private struct StationReading: RTCMMessageVisitor {
    var stationID: Int?
    var station: (x: Double, y: Double, z: Double)?

    mutating func visit<Message: RTCMMessageBody>(_ message: Message) {
        stationID = message.stationID
        if let reference = message as? RTCMStation { station = (reference.x, reference.y, reference.z) }
    }

    mutating func visitUndecoded(_ frame: RTCMFrame, malformed: Bool) {}
}

/// Counts in whole seconds over the last ten: a rate that needs no allocation.
struct RateWindow: Sendable, Hashable {
    private var counts = [Int](repeating: 0, count: 10)
    private var second: Int64 = 0

    mutating func add(now: MonotonicTime) {
        advance(to: now.nanoseconds / 1_000_000_000)
        counts[Int(second % 10)] += 1
    }

    /// The mean over the nine whole seconds before `now`'s (the current one is partial).
    func rate(now: MonotonicTime) -> Double {
        let current = now.nanoseconds / 1_000_000_000
        var total = 0
        for past in max(0, current - 9)..<current where past <= second && past > second - 10 {
            total += counts[Int(past % 10)]
        }
        return Double(total) / 9
    }

    private mutating func advance(to current: Int64) {
        guard current > second else { return }
        for step in 1...min(10, current - second) { counts[Int((second + step) % 10)] = 0 }
        second = current
    }
}
