import NMEA
import SerialPort
import Simulation
import Synchronization
import System
import Threading

// Fixtures for the tests of the gpsd server and of the `nmea serve` and `record --serve` commands: simulated
// receivers with the exact values gpsd's reports must carry, a little JSON reading, a pty fed at a fixed rate.

// MARK: NMEA with known values

/// A simulated drive and the exact bytes a receiver would send for each epoch.
public struct Journey: Sendable {
    public let fixes: [SimulatedFix]
    public let writer: EpochWriter

    public init(seconds: Double = 30, rateHz: Double = 10, profile: EpochWriter.Profile = .multiGNSS, seed: UInt64 = 1)
    {
        let scenario = Scenario(
            rateHz: rateHz, legs: [.drive(seconds: seconds, speedKmh: 40, turnDegreesPerSecond: 3)],
            seed: seed)
        fixes = Array(scenario.fixes())
        writer = EpochWriter(profile: profile)
    }

    /// The sentences of epoch `index`, CR LF after each.
    public func epoch(_ index: Int) -> [UInt8] {
        var builder = SentenceBuilder()
        writer.write(fixes[index], into: &builder)
        return builder.bytes
    }

    /// The epoch's sentences, one string each (without line endings).
    public func sentences(_ index: Int) -> [String] {
        String(decoding: epoch(index), as: UTF8.self).split(separator: "\r\n").map(String.init)
    }

    /// The epoch's time as gpsd writes it: `2026-11-30T08:00:00.100Z`.
    public func isoTime(_ index: Int) -> String {
        let dateTime = fixes[index].dateTime
        let date = dateTime.date
        let time = dateTime.time
        func two(_ value: UInt8) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = Int(time.nanoseconds / 1_000_000)
        let fraction =
            milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(date.year)-\(two(date.month))-\(two(date.day))T\(two(time.hour)):\(two(time.minute)):"
            + "\(two(time.second)).\(fraction)Z"
    }

    /// Latitude and longitude of epoch `index` exactly as its RMC sent them, in degrees to 9 decimals (gpsd's
    /// format), computed with integers from the sentence's text.
    public func expectedCoordinates(_ index: Int) -> (latitude: String, longitude: String) {
        let rmc = sentences(index).first { $0.dropFirst(3).hasPrefix("RMC") }!
        let fields = rmc.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return (
            Journey.degrees(fields[3], fields[4], degreeDigits: 2),
            Journey.degrees(fields[5], fields[6], degreeDigits: 3)
        )
    }

    /// Latitude and longitude of epoch `index` to `decimals` places (cgps shows 8).
    public func expectedCoordinates(_ index: Int, decimals: Int) -> (latitude: String, longitude: String) {
        let rmc = sentences(index).first { $0.dropFirst(3).hasPrefix("RMC") }!
        let fields = rmc.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return (
            Journey.degrees(fields[3], "N", degreeDigits: 2, decimals: decimals),
            Journey.degrees(fields[5], "E", degreeDigits: 3, decimals: decimals)
        )
    }

    /// `ddmm.mmmmm` with a hemisphere as degrees to `decimals` places (9: gpsd's format), rounded half up, using
    /// integer arithmetic only.
    public static func degrees(_ text: String, _ hemisphere: String, degreeDigits: Int, decimals places: Int = 9)
        -> String
    {
        let degrees = Int(text.prefix(degreeDigits))!
        let minutesText = text.dropFirst(degreeDigits)
        let parts = minutesText.split(separator: ".")
        let decimals = parts.count > 1 ? parts[1].count : 0
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let minutesScaled = Int(parts[0])! * scale + (decimals > 0 ? Int(parts[1])! : 0)
        // degrees × 10^places + minutesScaled × 10^places / (60 × scale), rounded half up.
        var unit = 1
        for _ in 0..<places { unit *= 10 }
        let numerator = minutesScaled * unit
        let denominator = 60 * scale
        let units = degrees * unit + (2 * numerator + denominator) / (2 * denominator)
        let sign = hemisphere == "S" || hemisphere == "W" ? "-" : ""
        let fraction = String(units % unit)
        return "\(sign)\(units / unit)." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    /// The satellites of epoch `index` as gpsd numbers them, with what the GSV sentences said.
    public func expectedSatellites(_ index: Int) -> Set<ExpectedSatellite> {
        Set(
            fixes[index].satellites.map { satellite in
                let prn: Int
                switch satellite.system {
                case .glonass: prn = satellite.prn < 65 ? satellite.prn + 64 : satellite.prn
                case .galileo: prn = satellite.prn + 300
                case .beidou: prn = satellite.prn + 400
                default: prn = satellite.prn
                }
                return ExpectedSatellite(
                    prn: prn, elevation: satellite.elevation, azimuth: satellite.azimuth,
                    snr: satellite.snr ?? -1, used: satellite.used)
            })
    }
}

public struct ExpectedSatellite: Hashable, Sendable, CustomStringConvertible {
    public var prn: Int
    public var elevation: Int
    public var azimuth: Int
    public var snr: Int
    public var used: Bool

    public init(prn: Int, elevation: Int, azimuth: Int, snr: Int, used: Bool) {
        self.prn = prn
        self.elevation = elevation
        self.azimuth = azimuth
        self.snr = snr
        self.used = used
    }

    public var description: String { "PRN \(prn) el \(elevation) az \(azimuth) ss \(snr) \(used ? "used" : "unused")" }
}

// MARK: A little JSON reading for assertions

/// The value of `"key":` in a one-line JSON object, as text (strings without quotes); first occurrence.
public func jsonField(_ line: String, _ key: String) -> String? {
    guard let range = line.firstRange(of: "\"\(key)\":") else { return nil }
    var rest = line[range.upperBound...]
    if rest.hasPrefix("\"") {
        rest = rest.dropFirst()
        return String(rest.prefix { $0 != "\"" })
    }
    return String(rest.prefix { $0 != "," && $0 != "}" && $0 != "]" })
}

/// The satellites of a SKY line.
public func skySatellites(_ line: String) -> Set<ExpectedSatellite> {
    guard let start = line.firstRange(of: "\"satellites\":[") else { return [] }
    let body = line[start.upperBound...]
    var result = Set<ExpectedSatellite>()
    for piece in body.split(separator: "}") where piece.contains("\"PRN\"") {
        let object = String(piece)
        func number(_ key: String) -> Int { Int(Double(jsonField(object, key) ?? "-1") ?? -1) }
        result.insert(
            ExpectedSatellite(
                prn: number("PRN"), elevation: number("el"), azimuth: number("az"),
                snr: number("ss"), used: jsonField(object, "used") == "true"))
    }
    return result
}

// MARK: Feeding a pty

/// Writes epochs into a pty at a fixed interval on a thread of its own.
public final class PtyFeeder: @unchecked Sendable {
    public let pty: PseudoTerminal
    public let journey: Journey
    public let interval: Duration
    private let running = Atomic<Bool>(true)
    /// Epochs written so far.
    public let written = Atomic<Int>(0)
    private var thread: NativeThread?

    /// - Parameter afterEach: called on the feeder's thread after each epoch is written, with its index (a test
    ///   can hold the feed there until a reader has caught up, so that "keeps up" holds on a loaded machine).
    public init(
        pty: PseudoTerminal, journey: Journey, interval: Duration, count: Int? = nil, startAt: Int = 0,
        afterEach: (@Sendable (Int) -> Void)? = nil
    ) {
        self.pty = pty
        self.journey = journey
        self.interval = interval
        let total = min(count ?? journey.fixes.count, journey.fixes.count - startAt)
        thread = NativeThread { [self] in
            var next = MonotonicTime.now()
            for index in startAt..<(startAt + total) where running.load(ordering: .relaxed) {
                try? pty.write(journey.epoch(index))
                written.add(1, ordering: .relaxed)
                afterEach?(index)
                next = next + interval
                let wait = next - MonotonicTime.now()
                if wait > .zero { sleep(for: wait) }  // pacing under test: a receiver at its rate
            }
        }
    }

    /// Waits for the last epoch to be written.
    public func join() { thread?.join() }

    public func stop() {
        running.store(false, ordering: .relaxed)
        thread?.join()
    }
}
