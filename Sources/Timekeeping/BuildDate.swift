import CShims
import NMEA

/// The day this program was built (the C compiler's `__DATE__` in CShims): a receiver's date before it is wrong
/// (a week-number rollover not caught, a replayed old log), so no clock is ever set to it.
public enum BuildDate {
    /// The build day, or `nil` if `__DATE__` did not read (it always does with clang and gcc).
    public static let day: UTCDate? = parse(String(cString: nmea_build_date()))

    /// Midnight UTC of the build day, nanoseconds since 1970.
    public static var nanoseconds: Int64? {
        day.map(\.startNanoseconds)
    }

    /// Reads `__DATE__`'s `"Mmm dd yyyy"` (`"Dec  2 2026"`).
    static func parse(_ text: String) -> UTCDate? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(separator: " ")
        guard parts.count == 3, let index = months.firstIndex(of: String(parts[0])), let day = Int(parts[1]),
            let year = Int(parts[2])
        else { return nil }
        return UTCDate(year: Int16(year), month: UInt8(index + 1), day: UInt8(day))
    }
}
