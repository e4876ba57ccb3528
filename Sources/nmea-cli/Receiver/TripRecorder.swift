import Glibc
import JSON
import NMEA
import Pipeline
import Synchronization
import Trips

/// The trips consumer of `nmea record --trips FILE`: detects trips from the live fixes and appends one JSON line per
/// finished trip (the fields of `nmea trips --json`), with place names from the offline geocoder and its cache.
final class TripRecorder: @unchecked Sendable {
    let path: String
    private let fd: Int32
    let trips = Atomic<Int>(0)
    let error = Mutex<String?>(nil)

    init(path: String) throws(RuntimeError) {
        fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RuntimeError("cannot open '\(path)': \(systemErrorMessage(errno))") }
        self.path = path
    }

    func run(_ consumer: RingConsumer<PipelineRecord>) {
        // Geocoders are not Sendable: this thread makes and keeps its own.
        let places = TripsCommand.makeGeocoder(command: "nmea record")
        var detector = TripDetector()
        var json = JSONWriter(capacity: 1024)
        let emit: (TripDetector.Event) -> Void = { event in
            guard case .trip(let trip) = event else { return }
            json.reset()
            TripJSON.write(trip, places: places, into: &json)
            json.raw(Array("\n".utf8))
            self.append(json.bytes)
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
        close(fd)
    }

    private func append(_ bytes: [UInt8]) {
        guard error.withLock({ $0 == nil }) else { return }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written != bytes.count {
            let message = "cannot write '\(path)': \(systemErrorMessage(errno)); trips are no longer recorded"
            error.withLock { $0 = message }
            Console.error("nmea record: \(message)\n")
            return
        }
        trips.add(1, ordering: .relaxed)
    }
}
