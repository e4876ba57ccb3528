/// The corrections a receiver is being fed (RTCM 3 from an NTRIP caster), as the live views show them: the page,
/// the status line, and the fixes themselves (their differential age and station, for gpsd's `dgpsAge` and
/// `dgpsSta`, GPX's `ageofdgpsdata` and `dgpsid`). Whoever feeds them tells the pipeline
/// (``ReceiverPipeline/setCorrections(_:)``).
public struct CorrectionSummary: Sendable, Hashable {
    /// Where they come from (`ntrip://caster:2101/MOUNT`).
    public var source: String
    /// Whether the connection to the source is up.
    public var isConnected: Bool
    /// Seconds since the last message; `nil` before the first.
    public var ageSeconds: Double?
    /// Messages a second over the last ten seconds.
    public var messagesPerSecond: Double
    /// The base station's ID and position (its 1005/1006), when known.
    public var stationID: Int?
    public var stationLatitude: Double?
    public var stationLongitude: Double?

    public init(
        source: String, isConnected: Bool, ageSeconds: Double?, messagesPerSecond: Double, stationID: Int?,
        stationLatitude: Double?, stationLongitude: Double?
    ) {
        self.source = source
        self.isConnected = isConnected
        self.ageSeconds = ageSeconds
        self.messagesPerSecond = messagesPerSecond
        self.stationID = stationID
        self.stationLatitude = stationLatitude
        self.stationLongitude = stationLongitude
    }
}
