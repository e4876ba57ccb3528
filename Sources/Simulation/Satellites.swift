import Glibc
import NMEA

/// A fixed sky of satellites that drift slowly with time: 12 GPS, 8 GLONASS, 4 Galileo and 4 BeiDou in view, the
/// counts that give the 7 GSV sentences of the benchmark epoch.
enum Satellites {
    struct Orbit {
        let system: GNSSSystem
        let prn: Int
        let elevation: Double
        let azimuth: Double
    }

    static let sky: [Orbit] = {
        var orbits: [Orbit] = []
        func add(_ system: GNSSSystem, _ prns: [Int]) {
            for (index, prn) in prns.enumerated() {
                let elevation = 10 + Double((prn * 37 + index * 11) % 75)
                let azimuth = Double((prn * 53 + index * 97) % 360)
                orbits.append(Orbit(system: system, prn: prn, elevation: elevation, azimuth: azimuth))
            }
        }
        add(.gps, [2, 5, 7, 9, 13, 15, 18, 20, 24, 26, 29, 30])
        add(.glonass, [65, 66, 72, 73, 79, 80, 81, 88])
        add(.galileo, [3, 8, 13, 26])
        add(.beidou, [6, 11, 23, 37])
        return orbits
    }()

    /// The satellites in view at `second`, with signal strengths drawn from `random`; the eight highest of each
    /// system are used in the fix.
    static func inView(atSecond second: Double, random: inout SplitMix64) -> [SimulatedSatellite] {
        var result: [SimulatedSatellite] = []
        result.reserveCapacity(sky.count)
        for orbit in sky {
            let drift = second / 240  // degrees: a satellite crosses the sky in hours
            let elevation = Int(max(1, min(89, orbit.elevation + 8 * sin(drift / 20 + Double(orbit.prn)))))
            let azimuth = Int((orbit.azimuth + drift).truncatingRemainder(dividingBy: 360))
            let snr = 20 + Int(Double(elevation) / 4) + Int(random.next() % 8)
            result.append(
                SimulatedSatellite(
                    system: orbit.system, prn: orbit.prn, elevation: elevation,
                    azimuth: azimuth, snr: snr, used: elevation > 15))
        }
        return result
    }
}
