import NMEA
import Tracks
import Trips

/// The placemarks `nmea convert` adds to a KML track: its start, its end and the stops between, found by the one
/// trip and stop rule (`TripLog`, as `nmea trips` finds them with the same --min-distance, --min-stop and --max-gap)
/// and named by the offline place file. Holds the first and last point and the log's trips and stops, never the
/// track.
struct KMLMarks {
    private var log: TripLog
    private var first: Fix?
    private var last: Fix?

    init(rule: TripDetector.Options) { log = TripLog(options: rule) }

    mutating func add(_ fix: Fix) {
        _ = log.add(fix)
        guard fix.hasPosition, !fix.isProvisional else { return }
        if first == nil { first = fix }
        last = fix
    }

    /// The placemarks, named `Start`, `Stop` and `End` with their places (a warning when there is no place file).
    mutating func placemarks() -> [KMLWriter.Placemark] {
        log.finish()
        guard let first, let last, let firstLatitude = first.latitude, let firstLongitude = first.longitude,
            let lastLatitude = last.latitude, let lastLongitude = last.longitude
        else { return [] }
        let places = PlaceOptions.geocoder(command: "nmea convert")
        defer { places?.save() }
        func mark(_ kind: String, _ latitude: Double, _ longitude: Double, _ timestamp: Int64?) -> KMLWriter.Placemark {
            let place = places?.placeName(latitude: latitude, longitude: longitude)?.label
            return KMLWriter.Placemark(
                name: place.map { "\(kind): \($0)" } ?? kind, latitude: latitude, longitude: longitude,
                timestamp: timestamp)
        }
        var marks = [mark("Start", firstLatitude, firstLongitude, first.timestamp)]
        for stop in log.stops where !stop.openStart && !stop.openEnd {
            var placemark = mark("Stop", stop.latitude, stop.longitude, stop.start.timestamp)
            placemark.description = "Stopped for \(TripText.duration(stop.durationSeconds))"
            marks.append(placemark)
        }
        marks.append(mark("End", lastLatitude, lastLongitude, last.timestamp))
        return marks
    }
}
