/// One epoch's merged result: everything the receiver said about one moment, from all its sentences.
///
/// Made by ``FixAssembler``. Values the receiver did not send are `nil` (never 0). A fix without a valid position
/// (``mode`` ``FixMode/none``) still reports time and satellites, so a user interface can show "searching".
public struct Fix: Sendable, Hashable {
    /// The UTC date, when known (from RMC or ZDA, carried over midnight for date-less sentences, or given).
    public var date: UTCDate?
    /// The UTC time of day, with the fraction the receiver sent.
    public var time: UTCTime?
    /// Decimal degrees, negative south. Present together with ``longitude`` when the fix is valid.
    public var latitude: Double?
    /// Decimal degrees, negative west.
    public var longitude: Double?
    /// Metres above mean sea level.
    public var altitudeMeters: Double?
    /// Metres from the WGS 84 ellipsoid up to the geoid (add to ``altitudeMeters`` for height above the ellipsoid).
    public var geoidSeparationMeters: Double?
    /// Speed over ground, metres per second (see ``speedDecimals`` for writing it).
    public var speed: Double?
    /// Course over ground, degrees from true north.
    public var courseDegrees: Double?
    /// Magnetic variation, degrees, negative west.
    public var magneticVariationDegrees: Double?
    /// True heading, degrees, from a dual-antenna receiver, a compass or an inertial system (HDT/THS, and the
    /// attitude sentences `$PASHR`, `$PTNL,AVR`'s yaw, `$PRDID`, `$PFEC,GPatt`).
    public var headingDegrees: Double?
    /// Magnetic heading (HDG corrected for deviation, or HDM), degrees. When the epoch has no true heading and HDG
    /// sent the variation, ``headingDegrees`` is this corrected for it.
    public var magneticHeadingDegrees: Double?
    /// Water depth below the transducer, metres, from the epoch's last DPT or DBT (as gpsd takes it: DPT's offset
    /// is not applied).
    public var depthMeters: Double?
    /// Rate of turn (ROT, when valid), degrees per minute, negative to port.
    public var rateOfTurnDegreesPerMinute: Double?
    /// Pitch, degrees, from the epoch's last attitude sentence that had one (`$PASHR`, `$PTNL,AVR`'s tilt,
    /// `$PRDID`, `$PFEC,GPatt`), with that sensor's sign convention.
    public var pitchDegrees: Double?
    /// Roll, degrees, likewise.
    public var rollDegrees: Double?
    /// Vertical speed, metres per second, positive up.
    public var climb: Double?
    /// The receiver's fix quality (GGA's indicator): GPS, DGPS, RTK…
    public var quality: FixQuality
    /// No fix, 2D or 3D.
    public var mode: FixMode
    /// Horizontal dilution of precision.
    public var hdop: Double?
    /// Vertical dilution of precision.
    public var vdop: Double?
    /// Position (3D) dilution of precision.
    public var pdop: Double?
    /// How many satellites the solution used (GGA/GNS count, or the GSA list when no count was sent).
    public var satellitesUsed: Int?
    /// The satellites in view, from the most recent complete set of GSV sentences.
    public var satellites: FixedList<64, SatelliteInView>
    /// Standard deviation of latitude error, metres (GST).
    public var latitudeErrorMeters: Double?
    /// Standard deviation of longitude error, metres (GST).
    public var longitudeErrorMeters: Double?
    /// Estimated horizontal position error, metres (from GST, or u-blox/Garmin accuracy estimates).
    public var horizontalErrorMeters: Double?
    /// Estimated vertical position error, metres.
    public var verticalErrorMeters: Double?
    /// Estimated speed error, metres per second (u-blox sAcc).
    public var speedErrorMetersPerSecond: Double?
    /// Estimated time error, seconds (u-blox tAcc).
    public var timeErrorSeconds: Double?
    /// Age of differential corrections, seconds.
    public var differentialAgeSeconds: Double?
    /// The differential reference station, when corrections are used.
    public var differentialStationID: Int?
    /// `true` for a position published before its epoch was complete (see
    /// ``FixAssembler/Options/provisionalPositions``); the complete fix for the same epoch follows.
    public var isProvisional: Bool
    /// `true` when the date was corrected for a GPS week-number rollover.
    public var dateWasCorrected: Bool
    /// When the epoch's first byte arrived, in nanoseconds since 1970-01-01 UTC on the system clock
    /// (`CLOCK_REALTIME` read at the `read` that delivered it, before framing); `nil` unless the reader was told
    /// its read times (``FixReader/noteRead(atNanoseconds:)``), as reference-clock feeds are.
    public var receivedNanoseconds: Int64? = nil
    /// `true` when the date came from the epoch's own sentences (an RMC's or ZDA's date, after the week-rollover
    /// checks), `false` when it was carried over from an earlier epoch, taken from a receive time or from the
    /// system clock (``FixAssembler/Options/fallbackDate``): only a date of the receiver's own may set a clock.
    public var dateIsFromEpoch = false
    /// `true` when the source did not say the fix's mode and quality (a GPX or GeoJSON point without `<fix>`, a CSV
    /// row without a `fix` column): the point counts as a GPS position (``mode`` 2D, or 3D with an elevation) so that
    /// it is tracked, but the writers leave mode and quality out rather than state what the source did not.
    public var modeIsAssumed = false

    /// A fix with the given values; the others absent.
    public init(
        date: UTCDate? = nil, time: UTCTime? = nil, latitude: Double? = nil, longitude: Double? = nil,
        altitudeMeters: Double? = nil, geoidSeparationMeters: Double? = nil, speed: Double? = nil,
        courseDegrees: Double? = nil, quality: FixQuality = .none, mode: FixMode = .none,
        satellites: FixedList<64, SatelliteInView> = FixedList()
    ) {
        self.date = date
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeters = altitudeMeters
        self.geoidSeparationMeters = geoidSeparationMeters
        self.speed = speed
        self.courseDegrees = courseDegrees
        self.quality = quality
        self.mode = mode
        self.satellites = satellites
        isProvisional = false
        dateWasCorrected = false
    }

    /// `true` when the fix has a position.
    public var hasPosition: Bool { latitude != nil && longitude != nil && mode != .none }

    /// Nanoseconds since 1970-01-01 UTC, when both date and time are known.
    public var timestamp: Int64? {
        guard let date, let time else { return nil }
        return date.startNanoseconds + time.nanosecondsSinceMidnight
    }

    /// Seconds since 1970-01-01 UTC, when both date and time are known.
    public var secondsSinceEpoch: Double? {
        guard let timestamp else { return nil }
        return Double(timestamp) / 1e9
    }

    /// Height above the WGS 84 ellipsoid, when both altitude and geoid separation are known.
    public var ellipsoidalHeightMeters: Double? {
        guard let altitudeMeters, let geoidSeparationMeters else { return nil }
        return altitudeMeters + geoidSeparationMeters
    }

    /// Satellites in view that the solution used.
    public var satellitesUsedInView: Int { satellites.reduce(0) { $0 + ($1.isUsed ? 1 : 0) } }

    /// The decimals of metres per second that speeds (``speed``, ``climb``) are written with: millimetres per
    /// second. Receivers send knots to two or three decimals (0.01 kn is 5 mm/s) and measure speed to a few
    /// centimetres per second at best; the digits beyond are the noise of converting knots (`0.17` kn is
    /// `0.08745555555555556` m/s, written `0.087`).
    public static let speedDecimals = 3

    /// Writes the time as ISO 8601 (`2026-11-30T08:00:00.25Z`), with the fraction the receiver sent.
    /// Does nothing when the date or time is unknown.
    public func writeISO8601(to output: (UInt8) -> Void) {
        guard let date, let time else { return }
        ISO8601.write(date, time, fraction: .asSent, to: output)
    }

    /// Appends what ``writeISO8601(to:)`` writes to `bytes`, in one copy.
    public func appendISO8601(to bytes: inout [UInt8]) {
        guard let date, let time else { return }
        ISO8601.append(date, time, fraction: .asSent, to: &bytes)
    }

    /// The time as ISO 8601, or `nil` when the date or time is unknown.
    public var iso8601: String? {
        guard date != nil, time != nil else { return nil }
        return String(writing: writeISO8601)
    }
}

/// How the position was obtained.
public enum FixQuality: UInt8, Sendable, Hashable, CaseIterable {
    /// No position.
    case none
    /// An autonomous GNSS fix.
    case gps
    /// Corrected by DGPS or SBAS.
    case differential
    /// Precise (PPS/P-code) fix.
    case precise
    /// RTK with fixed integer ambiguities (centimetres).
    case rtkFixed
    /// RTK float (decimetres).
    case rtkFloat
    /// Dead reckoning: estimated without satellites.
    case deadReckoning
    /// Entered by hand.
    case manual
    /// From a simulator.
    case simulator

    /// The quality a GGA quality number stands for.
    public init(_ gga: GGAQuality) {
        switch gga.rawValue {
        case 1: self = .gps
        case 2: self = .differential
        case 3: self = .precise
        case 4: self = .rtkFixed
        case 5: self = .rtkFloat
        case 6: self = .deadReckoning
        case 7: self = .manual
        case 8: self = .simulator
        default: self = .none
        }
    }

    /// The quality an FAA mode letter stands for.
    public init(_ mode: FAAMode) {
        switch mode {
        case .autonomous: self = .gps
        case .differential: self = .differential
        case .precise: self = .precise
        case .rtkFixed: self = .rtkFixed
        case .rtkFloat: self = .rtkFloat
        case .estimated: self = .deadReckoning
        case .manual: self = .manual
        case .simulator: self = .simulator
        default: self = .none
        }
    }

    /// A short name: `"none"`, `"gps"`, `"dgps"`, `"rtk"`, `"float"`, `"dr"`, `"manual"`, `"sim"`, `"pps"`.
    public var name: String {
        switch self {
        case .none: "none"
        case .gps: "gps"
        case .differential: "dgps"
        case .precise: "pps"
        case .rtkFixed: "rtk"
        case .rtkFloat: "float"
        case .deadReckoning: "dr"
        case .manual: "manual"
        case .simulator: "sim"
        }
    }
}

/// The dimension of the fix.
public enum FixMode: UInt8, Sendable, Hashable, Comparable {
    /// No position.
    case none = 1
    /// Latitude and longitude only.
    case twoD = 2
    /// Latitude, longitude and altitude.
    case threeD = 3

    /// Ordered by dimension: none, 2D, 3D.
    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"none"`, `"2d"`, `"3d"`.
    public var name: String {
        switch self {
        case .none: "none"
        case .twoD: "2d"
        case .threeD: "3d"
        }
    }
}

/// One satellite in view, as the GSV sentences of an epoch described it.
///
/// The stored properties are declared in the order that packs them into 14 bytes (the two 3-byte optionals each
/// followed by a one-byte field), so the 64 of a ``Fix`` take 896 bytes.
public struct SatelliteInView: Sendable, Hashable, FixedListElement {
    /// The satellite's number as the receiver sent it (NMEA numbering).
    public var prn: UInt16
    /// Degrees from true north, 0…359.
    public var azimuthDegrees: UInt16?
    /// The satellite system, from the talker or the PRN's numbering range; `nil` when neither tells.
    public var system: GNSSSystem?
    /// Signal to noise, dB-Hz, with the decimals the receiver sent; `nil` when not tracked.
    public var snr: SignalToNoise?
    /// `true` when a GSA sentence listed it as used in the solution.
    public var isUsed: Bool
    /// Degrees above the horizon, −90…90.
    public var elevationDegrees: Int8?
    /// The NMEA 4.10 signal ID, when sent.
    public var signalID: UInt8?

    /// A satellite with the given values.
    public init(
        system: GNSSSystem?, prn: UInt16, elevationDegrees: Int8? = nil, azimuthDegrees: UInt16? = nil,
        snr: SignalToNoise? = nil, signalID: UInt8? = nil, isUsed: Bool = false
    ) {
        self.system = system
        self.prn = prn
        self.elevationDegrees = elevationDegrees
        self.azimuthDegrees = azimuthDegrees
        self.snr = snr
        self.signalID = signalID
        self.isUsed = isUsed
    }

    /// An empty slot of a fixed list: zeros, not `nil`s (`.gps` is the system's first case), so all its bits are 0
    /// and an empty list is made by clearing its bytes.
    public static var placeholder: SatelliteInView {
        SatelliteInView(
            system: .gps, prn: 0, elevationDegrees: 0, azimuthDegrees: 0, snr: SignalToNoise(hundredths: 0),
            signalID: 0)
    }
}

extension GNSSSystem {
    /// The system an NMEA PRN number belongs to when the talker does not say (`GN` talkers before NMEA 4.10):
    /// 1–32 GPS, 33–64 SBAS (reported as GPS), 65–96 GLONASS, 193–202 QZSS, 201–235 BeiDou (some receivers),
    /// 301–336 Galileo (some receivers).
    public init?(prn: Int) {
        switch prn {
        case 1...64, 120...158: self = .gps
        case 65...99: self = .glonass
        case 193...200: self = .qzss
        case 201...263, 401...437: self = .beidou
        case 301...336: self = .galileo
        default: return nil
        }
    }
}

// A fix is plain data — no references — so it can be copied byte for byte between threads (the pipeline's ring
// buffer relies on that).
extension Fix: BitwiseCopyable {}
extension SatelliteInView: BitwiseCopyable {}
extension FixQuality: BitwiseCopyable {}
extension FixMode: BitwiseCopyable {}
