import NMEA
import Trips

/// Place names for the view: the offline geocoder behind its cache (as `nmea trips` finds them), with warnings kept
/// instead of printed, since standard error may be the very terminal the view is drawn on.
final class WatchPlaces {
    private final class Log {
        var lines: [String] = []
    }

    private let geocoder: CachedGeocoder?
    private let log = Log()
    /// Why there are no names, for the Place line: `off`, `no place file`, `unavailable`.
    let note: String?
    private var last: (latitude: Double, longitude: Double, label: String?)?

    init(enabled: Bool) {
        guard enabled else {
            geocoder = nil
            note = "off"
            return
        }
        let log = log
        do {
            geocoder = try CachedGeocoder.standard(warning: { log.lines.append($0) })
            note = nil
        } catch {
            geocoder = nil
            if case .noPlaceFile = error { note = "no place file" } else { note = "unavailable" }
            log.lines.append(error.description)
        }
    }

    /// The name of the fix's place; `nil` without a position or a geocoder.
    func name(for fix: Fix?) -> String? {
        guard let geocoder, let fix, fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude
        else { return nil }
        if let last, last.latitude == latitude, last.longitude == longitude { return last.label }
        let label = geocoder.placeName(latitude: latitude, longitude: longitude)?.label
        last = (latitude, longitude, label)
        return label
    }

    /// Warnings since the last call.
    func takeWarnings() -> [String] {
        defer { log.lines.removeAll() }
        return log.lines
    }

    /// Writes the cache (new places looked up this run).
    func save() { geocoder?.save() }
}
