import Glibc

extension Geodesy {
    /// WGS 84's semi-major axis (metres) and flattening.
    public static let wgs84SemiMajorAxis = 6_378_137.0
    public static let wgs84Flattening = 1 / 298.257_223_563

    /// The WGS 84 latitude and longitude (degrees) and height above the ellipsoid (metres) of the Earth-centred,
    /// Earth-fixed position `x`, `y`, `z` (metres): Heikkinen's closed form, exact to well under a millimetre at
    /// any height a receiver reports (no iteration). At the poles the longitude is 0.
    public static func geodetic(x: Double, y: Double, z: Double) -> (
        latitude: Double, longitude: Double, height: Double
    ) {
        let a = wgs84SemiMajorAxis
        let f = wgs84Flattening
        let b = a * (1 - f)
        let e2 = f * (2 - f)
        let ep2 = e2 / (1 - e2)
        let p = (x * x + y * y).squareRoot()
        let longitude = p == 0 ? 0 : atan2(y, x) * 180 / .pi
        guard p > 1e-6 else { return (z >= 0 ? 90 : -90, longitude, abs(z) - b) }
        let bigF = 54 * b * b * z * z
        let g = p * p + (1 - e2) * z * z - e2 * (a * a - b * b)
        let c = e2 * e2 * bigF * p * p / (g * g * g)
        let s = cbrt(1 + c + (c * c + 2 * c).squareRoot())
        let k = s + 1 + 1 / s
        let bigP = bigF / (3 * k * k * g * g)
        let q = (1 + 2 * e2 * e2 * bigP).squareRoot()
        let r0 =
            -(bigP * e2 * p) / (1 + q)
            + (a * a / 2 * (1 + 1 / q) - bigP * (1 - e2) * z * z / (q * (1 + q)) - bigP * p * p / 2).squareRoot()
        let u = ((p - e2 * r0) * (p - e2 * r0) + z * z).squareRoot()
        let v = ((p - e2 * r0) * (p - e2 * r0) + (1 - e2) * z * z).squareRoot()
        let z0 = b * b * z / (a * v)
        let height = u * (1 - b * b / (a * v))
        let latitude = atan((z + ep2 * z0) / p) * 180 / .pi
        return (latitude, longitude, height)
    }

    /// The Earth-centred velocity `vx`, `vy`, `vz` (m/s) at `latitude`, `longitude` (degrees) as north, east and
    /// down components (m/s).
    public static func northEastDown(
        vx: Double, vy: Double, vz: Double, latitude: Double, longitude: Double
    ) -> (north: Double, east: Double, down: Double) {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        let north = -sin(phi) * cos(lambda) * vx - sin(phi) * sin(lambda) * vy + cos(phi) * vz
        let east = -sin(lambda) * vx + cos(lambda) * vy
        let down = -cos(phi) * cos(lambda) * vx - cos(phi) * sin(lambda) * vy - sin(phi) * vz
        return (north, east, down)
    }

    /// Speed over ground (m/s) and course (degrees true, 0..<360) of a north and east velocity.
    public static func groundTrack(north: Double, east: Double) -> (speed: Double, courseDegrees: Double) {
        let speed = (north * north + east * east).squareRoot()
        var course = atan2(east, north) * 180 / .pi
        if course < 0 { course += 360 }
        return (speed, course)
    }
}
