import NMEA
import Trips

/// Everything the screen shows, at one moment: the screen is a pure function of this and the terminal's size
/// (``WatchScreen``).
public struct WatchState: Sendable, Hashable {
    /// Where the data comes from.
    public enum Source: Sendable, Hashable {
        /// A receiver: its path, serial number, or `auto`.
        case device(String)
        /// A file (or `-`, standard input) replayed at `speed` times its recorded rate; `nil` as fast as it reads.
        case replay(name: String, speed: Double?)
        /// A gpsd (or `nmea serve`) at `host:port`.
        case gpsd(host: String, port: Int)
    }

    public var source: Source
    /// The device being read, when known (the receiver's path, or the device gpsd reports).
    public var device: String?
    /// The device's line rate, when known.
    public var baudRate: Int?
    /// The latest fix; `nil` before the first.
    public var fix: Fix?
    /// Seconds since the latest fix arrived; `nil` once the input has ended (a replay's age means nothing then).
    public var fixAgeSeconds: Double?
    /// Fixes per second, from the fixes' own timestamps.
    public var fixRateHz: Double?
    /// Fixes received so far.
    public var fixCount: Int
    /// Lines the framer rejected (bad checksums, garbage), when the source counts them.
    public var rejectedLines: Int?
    /// The current place's name; `nil` when unknown.
    public var place: String?
    /// Why there is no place name (`no place file`, `off`), shown instead of it.
    public var placeNote: String?
    /// The connection's state in words, for the footer: `connected`, `end of input`, `waiting for a GPS receiver`.
    public var status: String
    /// The trips, distance and stops so far by the one trip rule (``TripLog/summary``), for the footer; `nil` when
    /// not kept.
    public var trips: TripLog.Summary?

    public init(
        source: Source, device: String? = nil, baudRate: Int? = nil, fix: Fix? = nil,
        fixAgeSeconds: Double? = nil, fixRateHz: Double? = nil, fixCount: Int = 0, rejectedLines: Int? = nil,
        place: String? = nil, placeNote: String? = nil, status: String = "", trips: TripLog.Summary? = nil
    ) {
        self.source = source
        self.device = device
        self.baudRate = baudRate
        self.fix = fix
        self.fixAgeSeconds = fixAgeSeconds
        self.fixRateHz = fixRateHz
        self.fixCount = fixCount
        self.rejectedLines = rejectedLines
        self.place = place
        self.placeNote = placeNote
        self.status = status
        self.trips = trips
    }
}
