import NMEA

/// Drops fixes that are too poor or outside the wanted window: `--max-hdop`, `--max-hacc`, `--min-satellites`,
/// `--fix`, `--since`, `--until`, `--bbox`. A pure test per fix, so it streams in constant memory; every drop is counted by its reason.
///
/// Fixes without a position pass untouched: they are segment breaks for the writers, not points. A dropped fix is
/// not a break — the points either side stay in one segment unless the time between them exceeds the split gap.
public struct FixQualityFilter: Sendable, Hashable {
    /// A latitude/longitude box; `west > east` crosses the antimeridian.
    public struct Box: Sendable, Hashable {
        public var south, west, north, east: Double
        public init(south: Double, west: Double, north: Double, east: Double) {
            (self.south, self.west, self.north, self.east) = (south, west, north, east)
        }

        public func contains(latitude: Double, longitude: Double) -> Bool {
            guard (south...north).contains(latitude) else { return false }
            return west <= east ? (west...east).contains(longitude) : longitude >= west || longitude <= east
        }
    }

    /// Why a fix was dropped.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        case hdop = "HDOP too high or unknown"
        case accuracy = "horizontal accuracy too poor or unknown"
        case satellites = "too few or unknown satellites"
        case mode = "fix too poor or unknown"
        case time = "outside --since/--until or without a time"
        case box = "outside --bbox"
    }

    public var maximumHDOP: Double?
    /// The largest horizontal error estimate kept, metres (u-blox hAcc, GST, PGRME: ``Fix/horizontalErrorMeters``).
    public var maximumHorizontalErrorMeters: Double?
    public var minimumSatellites: Int?
    /// The poorest fix mode kept (`.twoD` keeps 2D and 3D).
    public var minimumMode: FixMode?
    /// Nanoseconds since 1970, inclusive.
    public var since: Int64?
    public var until: Int64?
    public var box: Box?

    public init(
        maximumHDOP: Double? = nil, minimumSatellites: Int? = nil, minimumMode: FixMode? = nil, since: Int64? = nil,
        until: Int64? = nil, box: Box? = nil, maximumHorizontalErrorMeters: Double? = nil
    ) {
        self.maximumHDOP = maximumHDOP
        self.maximumHorizontalErrorMeters = maximumHorizontalErrorMeters
        self.minimumSatellites = minimumSatellites
        self.minimumMode = minimumMode
        self.since = since
        self.until = until
        self.box = box
    }

    /// `true` when no test is set.
    public var isEmpty: Bool { self == FixQualityFilter() }

    /// Why `fix` is dropped, or `nil` when it is kept (always kept: fixes without a position).
    public func rejection(of fix: Fix) -> Reason? {
        guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
        if let maximumHDOP {
            guard let hdop = fix.hdop, hdop <= maximumHDOP else { return .hdop }
        }
        if let maximumHorizontalErrorMeters {
            guard let error = fix.horizontalErrorMeters, error <= maximumHorizontalErrorMeters else { return .accuracy }
        }
        if let minimumSatellites {
            guard let used = fix.satellitesUsed, used >= minimumSatellites else { return .satellites }
        }
        // A track file's point that did not say its fix type meets no --fix: its mode is only assumed.
        if let minimumMode, fix.mode < minimumMode || fix.modeIsAssumed { return .mode }
        if since != nil || until != nil {
            guard let timestamp = fix.timestamp else { return .time }
            if let since, timestamp < since { return .time }
            if let until, timestamp > until { return .time }
        }
        if let box, !box.contains(latitude: latitude, longitude: longitude) { return .box }
        return nil
    }
}
