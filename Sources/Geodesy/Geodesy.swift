import Glibc

/// Distances and directions on the Earth, taken as a sphere (the error against the WGS 84 ellipsoid is under 0.5 %,
/// far below what trip lengths and "3 km NE of" labels need).
public enum Geodesy {
    /// The mean Earth radius (IUGG), metres.
    public static let earthRadiusMeters = 6_371_008.8

    /// The great-circle distance between two positions in decimal degrees, metres (haversine formula, accurate at
    /// every distance from centimetres to antipodes).
    @inlinable
    public static func distanceMeters(
        _ latitude1: Double, _ longitude1: Double,
        _ latitude2: Double, _ longitude2: Double
    ) -> Double {
        let radians = Double.pi / 180
        let phi1 = latitude1 * radians
        let phi2 = latitude2 * radians
        let sinLatitude = sin((phi2 - phi1) / 2)
        let sinLongitude = sin((longitude2 - longitude1) * radians / 2)
        let a = sinLatitude * sinLatitude + cos(phi1) * cos(phi2) * sinLongitude * sinLongitude
        return 2 * earthRadiusMeters * asin(min(1, a.squareRoot()))
    }

    /// The initial bearing from the first position to the second, degrees clockwise from true north, 0..<360.
    public static func bearingDegrees(
        from latitude1: Double, _ longitude1: Double,
        to latitude2: Double, _ longitude2: Double
    ) -> Double {
        let radians = Double.pi / 180
        let phi1 = latitude1 * radians
        let phi2 = latitude2 * radians
        let deltaLongitude = (longitude2 - longitude1) * radians
        let y = sin(deltaLongitude) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(deltaLongitude)
        let degrees = atan2(y, x) / radians
        return degrees < 0 ? degrees + 360 : (degrees >= 360 ? degrees - 360 : degrees)
    }

    /// The 8-point compass direction of a bearing: `"N"`, `"NE"`, `"E"`, `"SE"`, `"S"`, `"SW"`, `"W"`, `"NW"`.
    /// Each covers 45°, centred on its direction (N is 337.5°..<22.5°).
    public static func compassPoint(_ bearingDegrees: Double, points: CompassPoints = .eight) -> String {
        let names = [
            "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
        ]
        let count = points.rawValue
        var normalized = bearingDegrees.truncatingRemainder(dividingBy: 360)
        if normalized < 0 { normalized += 360 }
        let index = Int((normalized / (360 / Double(count))).rounded(.toNearestOrAwayFromZero)) % count
        return names[index * (16 / count)]
    }

    /// How finely ``compassPoint(_:points:)`` names a direction.
    public enum CompassPoints: Int, Sendable {
        /// `N`, `NE`, `E` … (place labels: "3 km NE of").
        case eight = 8
        /// `N`, `NNE`, `NE` … (a course on the screen).
        case sixteen = 16
    }

    /// The position as a unit vector from the Earth's centre: the straight-line (chord) distance between two such
    /// vectors grows with the great-circle distance, so the nearest by one is the nearest by the other.
    @inlinable
    public static func unitVector(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double, z: Double) {
        let radians = Double.pi / 180
        let phi = latitude * radians
        let lambda = longitude * radians
        let cosPhi = cos(phi)
        return (cosPhi * cos(lambda), cosPhi * sin(lambda), sin(phi))
    }

    /// The great-circle distance, metres, for a squared chord length between unit vectors.
    @inlinable
    public static func meters(squaredChord: Double) -> Double {
        2 * earthRadiusMeters * asin(min(1, squaredChord.squareRoot() / 2))
    }
}
