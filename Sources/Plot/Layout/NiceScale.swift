import Glibc
import NMEA

/// Round numbers for axes, legends and the scale bar: 1, 2 or 5 times a power of ten.
public enum NiceScale {
    /// The largest 1, 2 or 5 × 10ⁿ that is at most `value` (`value` > 0).
    public static func roundDown(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        let fraction = value / power
        let nice: Double = fraction >= 5 ? 5 : fraction >= 2 ? 2 : 1
        return nice * power
    }

    /// The smallest 1, 2 or 5 × 10ⁿ that is at least `value` (`value` > 0).
    public static func roundUp(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        let fraction = value / power
        let nice: Double = fraction <= 1 + 1e-9 ? 1 : fraction <= 2 + 1e-9 ? 2 : fraction <= 5 + 1e-9 ? 5 : 10
        return nice * power
    }

    /// Ticks covering `low…high` with a round step, about `count` of them; the first tick is at or below `low`,
    /// the last at or above `high`.
    public static func ticks(from low: Double, to high: Double, count: Int = 5) -> (step: Double, values: [Double]) {
        var low = low
        var high = high
        if !(high > low) { high = low + 1 }
        if !low.isFinite || !high.isFinite {
            low = 0
            high = 1
        }
        let step = roundUp((high - low) / Double(max(1, count)))
        let first = floor(low / step + 1e-9) * step
        let last = ceil(high / step - 1e-9) * step
        var values: [Double] = []
        var value = first
        while value <= last + step * 1e-6 && values.count < 1000 {
            values.append(abs(value) < step * 1e-9 ? 0 : value)
            value += step
        }
        return (step, values)
    }

    /// Steps for a time axis, seconds: seconds, minutes and hours people count in.
    static let timeSteps: [Double] = [
        1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800,
        604_800,
    ]

    /// The time step (seconds) giving at most `maximumTicks` ticks over `span` seconds.
    public static func timeStep(span: Double, maximumTicks: Int) -> Double {
        for step in timeSteps where span / step <= Double(max(1, maximumTicks)) { return step }
        return roundUp(span / Double(max(1, maximumTicks)) / 86_400) * 86_400
    }

    /// A scale-bar length: the longest round distance (metres) not longer than `meters`.
    public static func scaleBarMeters(atMost meters: Double) -> Double { roundDown(meters) }

    /// `500 m`, `2 km`, `1.5 km` — a distance as a scale bar or summary shows it.
    public static func distanceLabel(_ meters: Double) -> String {
        if meters >= 1000 { return SVGWriter.number(meters / 1000, maximumDecimals: meters >= 10_000 ? 0 : 1) + " km" }
        return SVGWriter.number(meters, maximumDecimals: meters >= 10 ? 0 : 1) + " m"
    }

    /// `45 s`, `12 min`, `1 h 05 min`, `2 d 3 h` — a duration as a person says it.
    public static func durationLabel(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total) s" }
        if total < 3600 {
            let minutes = total / 60
            let rest = total % 60
            return rest == 0 || minutes >= 10 ? "\(Int((seconds / 60).rounded())) min" : "\(minutes) min \(rest) s"
        }
        let minutesTotal = Int((seconds / 60).rounded())
        if minutesTotal < 48 * 60 {
            let minutes = minutesTotal % 60
            return "\(minutesTotal / 60) h " + DecimalFormatter.string(minutes, minimumDigits: 2) + " min"
        }
        let hours = Int((seconds / 3600).rounded())
        return "\(hours / 24) d \(hours % 24) h"
    }
}
