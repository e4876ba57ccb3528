import Fleet
import JSON
import NMEA
import Pipeline
import Synchronization
import System
import Trips

/// The trips consumer of `nmea record`: detects trips from the live fixes and, for each finished trip, appends one
/// JSON line (the fields of `nmea trips --json`) to `--trips FILE` and hands it to the MQTT publisher, with place
/// names from the offline geocoder and its cache.
final class TripRecorder: @unchecked Sendable {
    let path: String?
    private let fd: FileDescriptor?
    private let publisher: FleetPublisher?
    let trips = Atomic<Int>(0)
    let error = Mutex<String?>(nil)

    init(path: String?, publisher: FleetPublisher?) throws(RuntimeError) {
        if let path {
            do {
                fd = try FileDescriptor.open(path, .writeOnly, options: [.create, .append, .closeOnExec])
            } catch {
                throw RuntimeError("cannot open '\(path)': \(error)")
            }
        } else {
            fd = nil
        }
        self.path = path
        self.publisher = publisher
    }

    func run(_ consumer: RingConsumer<PipelineRecord>) {
        // Geocoders are not Sendable: this thread makes and keeps its own.
        let places = TripsCommand.makeGeocoder(command: "nmea record")
        var detector = TripDetector()
        var json = JSONWriter(capacity: 1024)
        let emit: (TripDetector.Event) -> Void = { event in
            guard case .trip(let trip) = event else { return }
            let startPlace = places?.placeName(latitude: trip.start.latitude, longitude: trip.start.longitude)
            let endPlace = places?.placeName(latitude: trip.end.latitude, longitude: trip.end.longitude)
            if self.fd != nil {
                json.reset()
                TripJSON.write(trip, startPlace: startPlace, endPlace: endPlace, into: &json)
                var line = json.bytes
                line.append(UInt8(ascii: "\n"))
                self.append(line)
            }
            self.publisher?.publish(TripSummary(trip, startPlace: startPlace?.label, endPlace: endPlace?.label))
            self.trips.add(1, ordering: .relaxed)
            places?.save()
        }
        var record = PipelineRecord(time: MonotonicTime(nanoseconds: 0), .status(.ended()))
        while true {
            let read = withUnsafeMutablePointer(to: &record) { pointer in
                consumer.read(into: UnsafeMutableBufferPointer(start: pointer, count: 1), timeout: .milliseconds(500))
            }
            if read.count == 1, case .fix(let fix) = record.content, !fix.isProvisional {
                detector.add(fix, emit)
            } else if read.count == 0 && read.isFinished {
                break
            }
        }
        detector.finish(emit)
        places?.save()
        try? fd?.close()
    }

    private func append(_ bytes: [UInt8]) {
        guard error.withLock({ $0 == nil }), let fd else { return }
        do {
            try fd.writeAll(bytes)
        } catch {
            let message = "cannot write '\(path ?? "")': \(error); trips are no longer recorded"
            self.error.withLock { $0 = message }
            Console.error("nmea record: \(message)\n")
        }
    }
}

extension TripSummary {
    /// The MQTT trip payload for a detected trip.
    init(_ trip: Trip, startPlace: String?, endPlace: String?) {
        self.init(
            start: Endpoint(timestamp: trip.start.timestamp, latitude: trip.start.latitude,
                            longitude: trip.start.longitude, place: startPlace),
            end: Endpoint(timestamp: trip.end.timestamp, latitude: trip.end.latitude, longitude: trip.end.longitude,
                          place: endPlace),
            distanceMeters: trip.distanceMeters, durationSeconds: trip.durationSeconds,
            averageSpeedKmh: trip.averageSpeedKmh, maximumSpeedKmh: trip.maximumSpeedKmh)
    }
}

/// The MQTT consumer of `nmea record --mqtt`: hands every fix to the publisher (which rate-limits, queues on disk
/// and sends from its own thread: this never waits for the network).
final class MQTTRecorder: @unchecked Sendable {
    let publisher: FleetPublisher

    init(publisher: FleetPublisher) { self.publisher = publisher }

    func run(_ consumer: RingConsumer<PipelineRecord>) {
        var record = PipelineRecord(time: MonotonicTime(nanoseconds: 0), .status(.ended()))
        while true {
            let read = withUnsafeMutablePointer(to: &record) { pointer in
                consumer.read(into: UnsafeMutableBufferPointer(start: pointer, count: 1), timeout: .milliseconds(500))
            }
            if read.count == 1, case .fix(let fix) = record.content, !fix.isProvisional {
                publisher.publish(fix)
            } else if read.count == 0 && read.isFinished {
                break
            }
        }
    }
}
