import NMEA
import Pipeline
import Publisher
import Recording
import System
import Trips

/// The text of `nmea record`'s status line: device and rate, fix, satellites, position and place, points, trips,
/// rejected lines, lost records, raw bytes, MQTT. Made on the status consumer's thread (its geocoder is its own).
final class RecordStatusText {
    private let pipeline: ReceiverPipeline
    private let recorder: Recorder
    private let console: StatusLine
    /// Made with the first line (geocoders are not `Sendable`): `.some(nil)` when there is no place file.
    private var places: CachedGeocoder??
    private var place: (label: String, at: MonotonicTime)?
    private let corrections: NTRIPOptions.Running?

    init(pipeline: ReceiverPipeline, recorder: Recorder, console: StatusLine, corrections: NTRIPOptions.Running?) {
        self.pipeline = pipeline
        self.recorder = recorder
        self.console = console
        self.corrections = corrections
    }

    /// The offline geocoder behind its cache, or `nil`; its warnings go to `console` once each.
    static func places(_ console: StatusLine) -> CachedGeocoder? {
        do {
            return try CachedGeocoder.standard { console.printOnce("warning: \($0)") }
        } catch {
            console.printOnce("warning: \(error)")
            return nil
        }
    }

    /// The line as it stands; the place name is looked up again every 5 s (from the cache mostly).
    func line() -> String {
        let statistics = pipeline.statistics
        var parts: [String] = []
        let status = statistics.status
        parts.append(status.state == .connected ? "\(status.device.string) \(status.baudRate) baud" : status.summary)
        if let fix = pipeline.latestFix?.fix {
            parts.append(PublisherStatus.FixKind(fix).description)
            parts.append("\(fix.satellitesUsed ?? fix.satellitesUsedInView)/\(fix.satellites.count) sats")
            if let latitude = fix.latitude, let longitude = fix.longitude {
                parts.append(
                    format(abs(latitude), 5) + (latitude < 0 ? " S " : " N ")
                        + format(abs(longitude), 5) + (longitude < 0 ? " W" : " E"))
                if let label = placeName(latitude, longitude), !label.isEmpty { parts.append(label) }
            }
        }
        if let corrections {
            let fix = pipeline.latestFix?.fix
            parts.append(corrections.statusText(latitude: fix?.latitude, longitude: fix?.longitude))
        }
        parts.append(counted(recorder.points, "point"))
        if let trips = recorder.trips { parts.append(counted(trips, "trip")) }
        parts.append("\(statistics.framer.rejected) rejected")
        let lost = pipeline.ring.consumerStatistics().reduce(0) { $0 + $1.lost }
        if lost > 0 { parts.append("\(lost) records lost (a writer is too slow)") }
        if let bytes = recorder.rawBytes { parts.append("\(bytes) raw bytes") }
        if let mqtt = recorder.mqttSummary { parts.append(mqtt) }
        return parts.joined(separator: " · ")
    }

    private func placeName(_ latitude: Double, _ longitude: Double) -> String? {
        if places == nil { places = .some(RecordStatusText.places(console)) }
        guard case .some(.some(let geocoder)) = places else { return nil }
        if place.map({ $0.at.elapsed > .seconds(5) }) ?? true {
            place = (geocoder.placeName(latitude: latitude, longitude: longitude)?.label ?? "", .now())
        }
        return place?.label
    }

    /// Saves the geocoder's cache (new places looked up this run).
    func save() {
        if case .some(.some(let geocoder)) = places { geocoder.save() }
    }
}
