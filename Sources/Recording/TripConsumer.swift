import Fleet
import JSON
import NMEA
import Pipeline
import Synchronization
import Threading
import Tracks
import Trips

/// The trips of a recording: detects trips in the live fixes (``Trips/TripDetector``, the rule `nmea trips` uses)
/// and, for each finished trip, appends one JSON line (the fields of `nmea trips --json`) to the trips file and
/// hands it to the MQTT publisher, with place names from the offline geocoder and its cache.
///
/// With ``Rotation/daily`` a trip goes to the file of the UTC day it started on, opened when its first trip ends.
final class TripConsumer: RecordConsumer {
    private let file: AppendFile?
    private let publisher: FleetPublisher?
    private let makePlaces: @Sendable () -> CachedGeocoder?
    /// Made on the consumer's thread, with its first records (geocoders are not `Sendable`).
    private var places: CachedGeocoder??
    private var detector = TripDetector()
    private var cleaner: TrackCleaner?
    private var json = JSONWriter(capacity: 1024)
    /// Trips finished so far (readable from any thread).
    let trips = Atomic<Int>(0)
    private let failed = Atomic<Bool>(false)
    private let openedPaths = Locked<[String]>([])

    /// Opens the trips file now unless it rotates.
    init(
        _ name: OutputName?, publisher: FleetPublisher?, cleaner: TrackCleaner? = nil,
        places: @escaping @Sendable () -> CachedGeocoder?, report: @escaping @Sendable (String) -> Void
    ) throws(RecordingError) {
        self.cleaner = cleaner
        file = name.map { AppendFile($0, label: "trips", report: report) }
        self.publisher = publisher
        makePlaces = places
        if let file, file.name.rotation == .none {
            try file.open(for: nil)
            openedPaths.withLock { $0 = file.opened }
        }
    }

    /// `true` once writing the trips failed (the message was reported).
    var hasFailed: Bool { failed.load(ordering: .relaxed) }

    /// The files written, in order.
    var opened: [String] { openedPaths.withLock { $0 } }

    func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
        if places == nil { places = .some(makePlaces()) }
        for record in records {
            guard case .fix(let fix) = record.content, !fix.isProvisional else { continue }
            guard cleaner != nil else {
                detector.add(fix) { emit($0) }
                continue
            }
            cleaner!.add(fix) { detector.add($0) { emit($0) } }
        }
    }

    func finish() {
        cleaner?.finish { detector.add($0) { emit($0) } }
        detector.finish { emit($0) }
        if case .some(.some(let places)) = places { places.save() }
        file?.close()
    }

    private func emit(_ event: TripDetector.Event) {
        guard case .trip(let trip) = event else { return }
        let geocoder = places ?? nil
        let startPlace = geocoder?.placeName(latitude: trip.start.latitude, longitude: trip.start.longitude)
        let endPlace = geocoder?.placeName(latitude: trip.end.latitude, longitude: trip.end.longitude)
        if let file { append(trip, startPlace: startPlace, endPlace: endPlace, to: file) }
        publisher?.publish(TripSummary(trip: trip, startPlace: startPlace?.label, endPlace: endPlace?.label))
        trips.add(1, ordering: .relaxed)
        geocoder?.save()
    }

    private func append(_ trip: Trip, startPlace: PlaceName?, endPlace: PlaceName?, to file: AppendFile) {
        guard file.failure == nil else { return }
        if file.name.rotation == .daily {
            let day = UTCDate(containing: trip.start.timestamp)
            do {
                try file.open(for: day)
            } catch {
                failed.store(true, ordering: .relaxed)
                file.report(error.message + "; trips are no longer recorded")
                return
            }
            openedPaths.withLock { $0 = file.opened }
        }
        json.reset()
        TripJSON.write(trip, startPlace: startPlace, endPlace: endPlace, into: &json)
        var line = json.bytes
        line.append(UInt8(ascii: "\n"))
        if !line.withUnsafeBytes({ file.append($0) }) { failed.store(true, ordering: .relaxed) }
    }
}
