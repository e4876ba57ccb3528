import Glibc

/// The Web-Mercator projection (EPSG:3857) in world units: the whole world is the square 0…1, x growing east from
/// the antimeridian, y growing south from the top edge at 85.0511° N — the same square web map tiles divide.
public enum WebMercator {
    /// The latitude where the square ends, ±85.0511287798°: atan(sinh(π)).
    public static let maximumLatitude = 85.051_128_779_806_59
    /// The WGS 84 equatorial circumference, metres: one world unit at the equator.
    public static let equatorMeters = 40_075_016.685_578_49

    /// `x` (0…1, east) for a longitude in degrees. Longitudes outside ±180 continue past the edges, so a track that
    /// crosses the antimeridian can stay continuous.
    @inlinable
    public static func x(longitude: Double) -> Double { (longitude + 180) / 360 }

    /// `y` (0…1, south) for a latitude in degrees, clamped to ±``maximumLatitude``.
    @inlinable
    public static func y(latitude: Double) -> Double {
        let clamped = min(max(latitude, -maximumLatitude), maximumLatitude)
        let phi = clamped * .pi / 180
        return (1 - log(tan(.pi / 4 + phi / 2)) / .pi) / 2
    }

    /// The latitude in degrees at world `y`.
    @inlinable
    public static func latitude(y: Double) -> Double {
        atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
    }

    /// Ground metres per world unit at `latitude`: the projection stretches by 1 / cos(latitude).
    @inlinable
    public static func metersPerUnit(atLatitude latitude: Double) -> Double {
        equatorMeters * cos(latitude * .pi / 180)
    }
}
