import Glibc
import NMEA
import Pipeline
import System

// Publish and consume rates of BroadcastRing, for the pipeline's records (a fix: 1,235 bytes) and small ones (56).
//
// 1. Uncontended, on one thread: publish a ring's worth, then each of 1 or 3 consumers reads it all (batches of 256);
//    the time of each side gives its rate. This is the cost per record, caches warm, nobody racing.
// 2. Saturated, one thread each: the producer publishes as fast as it can for half a second while 1 or 3 consumer
//    threads read with blocking reads (batches of 256; an idle consumer sleeps in futex). The producer never waits,
//    so consumers that cannot keep up lose records — counted and shown. Every slot a consumer reads was written
//    microseconds before by the other core, so this measures cache-line traffic more than copying. On a 2-core
//    machine 3 consumers share cores with the producer.
// 3. Wake-up latency: the producer publishes a timestamp every millisecond; consumers blocked in `read` note how long
//    after the publish they had it (futex wake-up and scheduling). p50 and p99 over 2,000 records.
//
// Each configuration runs RUNS times; medians are printed last.
//
//   RingBenchmark [RUNS] [RECORDS]      (defaults: 7 runs, 1,000,000 records per uncontended run)

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let runs = arguments.first ?? 7
let recordCount = arguments.dropFirst().first ?? 1_000_000
let capacity = 4096
/// How long the producer publishes in a saturated run.
let saturatedDuration = Duration.milliseconds(500)

/// A small record: 56 bytes, one cache line per slot with its stamp.
struct Small: BitwiseCopyable {
    var index: UInt64
    var payload: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
}

struct Measurement {
    var publishRate: Double
    /// Records per second each consumer delivered (over the time from the first publish to its last read).
    var consumeRates: [Double]
    var lostFraction: Double
}

final class Thread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { context in
            Unmanaged<Thread>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
    }

    func join() { pthread_join(thread, nil) }
}

final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

func measure<Record: BitwiseCopyable>(_ make: (UInt64) -> Record, consumers consumerCount: Int) -> Measurement {
    let ring = BroadcastRing<Record>(capacity: capacity)
    let start = Box(MonotonicTime(nanoseconds: 0))
    let results = (0..<consumerCount).map { _ in Box((delivered: UInt64(0), lost: UInt64(0), end: MonotonicTime.now())) }
    let threads = results.map { result in
        let consumer = ring.makeConsumer(name: "bench")
        return Thread {
            let buffer = UnsafeMutableBufferPointer<Record>.allocate(capacity: 256)
            defer { buffer.deallocate() }
            var delivered: UInt64 = 0
            var lost: UInt64 = 0
            while true {
                let read = consumer.read(into: buffer, timeout: .seconds(2))
                delivered += UInt64(read.count)
                lost += UInt64(read.lost)
                if read.isFinished { break }
            }
            result.value = (delivered, lost, MonotonicTime.now())
        }
    }
    // Let the consumers reach their first wait.
    var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
    nanosleep(&pause, nil)
    let records = (0..<1024).map { make(UInt64($0)) }
    start.value = MonotonicTime.now()
    // Publish for a fixed time (not a fixed count), so consumers are measured in a steady state even when the
    // producer is far faster than they are.
    let deadline = start.value + saturatedDuration
    var count = 0
    while true {
        for index in count..<(count + 1024) { ring.publish(records[index & 1023]) }
        count += 1024
        if MonotonicTime.now() >= deadline { break }
    }
    let published = MonotonicTime.now()
    ring.close()
    for thread in threads { thread.join() }
    let seconds = Double((published - start.value).components.attoseconds) / 1e18
        + Double((published - start.value).components.seconds)
    func rate(_ result: Box<(delivered: UInt64, lost: UInt64, end: MonotonicTime)>) -> Double {
        let elapsed = result.value.end - start.value
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(result.value.delivered) / seconds
    }
    let lost = results.reduce(0) { $0 + $1.value.lost }
    let lostFraction = consumerCount == 0 ? 0 : Double(lost) / Double(count * consumerCount)
    return Measurement(publishRate: Double(count) / seconds, consumeRates: results.map(rate),
                       lostFraction: lostFraction)
}

/// Single-threaded: rounds of publishing `capacity` records, then draining them with each consumer.
func measureUncontended<Record: BitwiseCopyable>(_ make: (UInt64) -> Record, consumers consumerCount: Int)
    -> Measurement
{
    let ring = BroadcastRing<Record>(capacity: capacity)
    let consumers = (0..<consumerCount).map { _ in ring.makeConsumer() }
    let buffer = UnsafeMutableBufferPointer<Record>.allocate(capacity: 256)
    defer { buffer.deallocate() }
    let records = (0..<1024).map { make(UInt64($0)) }
    var publishing = Duration.zero
    var consuming = Array(repeating: Duration.zero, count: consumerCount)
    var lost = 0
    var published = 0
    while published < recordCount {
        let start = MonotonicTime.now()
        for index in published..<(published + capacity) { ring.publish(records[index & 1023]) }
        publishing += start.elapsed
        published += capacity
        for (position, consumer) in consumers.enumerated() {
            let start = MonotonicTime.now()
            while true {
                let read = consumer.poll(into: buffer)
                lost += read.lost
                if read.count == 0 { break }
            }
            consuming[position] += start.elapsed
        }
    }
    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
    return Measurement(publishRate: Double(published) / seconds(publishing),
                       consumeRates: consuming.map { Double(published) / seconds($0) },
                       lostFraction: Double(lost) / Double(max(published * consumerCount, 1)))
}

/// Microseconds from publish to a blocked consumer holding the record, for every record and consumer.
func measureLatency(consumers consumerCount: Int, records: Int = 2000) -> [Double] {
    let ring = BroadcastRing<MonotonicTime>(capacity: 64)
    let results = (0..<consumerCount).map { _ in Box([Double]()) }
    let threads = results.map { result in
        let consumer = ring.makeConsumer(name: "latency")
        return Thread {
            let buffer = UnsafeMutableBufferPointer<MonotonicTime>.allocate(capacity: 16)
            defer { buffer.deallocate() }
            var latencies: [Double] = []
            latencies.reserveCapacity(records)
            while true {
                let read = consumer.read(into: buffer, timeout: .seconds(2))
                let now = MonotonicTime.now()
                for time in buffer.prefix(read.count) {
                    latencies.append(Double(now.nanoseconds - time.nanoseconds) / 1000)
                }
                if read.isFinished { break }
            }
            result.value = latencies
        }
    }
    var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
    nanosleep(&pause, nil)
    for _ in 0..<records {
        var interval = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        nanosleep(&interval, nil)
        ring.publish(MonotonicTime.now())
    }
    ring.close()
    for thread in threads { thread.join() }
    return results.flatMap(\.value)
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func formatted(_ rate: Double) -> String {
    let millions = rate / 1e6
    var text = String(Int((millions * 100).rounded()))
    while text.count < 3 { text = "0" + text }
    text.insert(".", at: text.index(text.endIndex, offsetBy: -2))
    return text + " M/s"
}

func percent(_ fraction: Double) -> String { "\(Int((fraction * 100).rounded()))%" }

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

var fix = Fix(date: UTCDate(year: 2026, month: 11, day: 30), latitude: 48.1374, longitude: 11.5755, altitudeMeters: 520,
              quality: .gps, mode: .threeD)
for prn in 1...24 { fix.satellites.append(SatelliteInView(system: .gps, prn: UInt16(prn), snr: 40, isUsed: prn < 12)) }
let now = MonotonicTime.now()

print("BroadcastRing benchmark: \(recordCount) records per run, \(runs) runs, ring of \(capacity) slots, "
    + "consumers read 256 at a time")
var summary: [String] = []
let kinds: [(String, Int, Int)] = [
    ("PipelineRecord (fix)", MemoryLayout<PipelineRecord>.size, BroadcastRing<PipelineRecord>(capacity: 2).slotSize),
    ("small record", MemoryLayout<Small>.size, BroadcastRing<Small>(capacity: 2).slotSize),
]
for mode in ["uncontended", "saturated"] {
    for (label, size, slot) in kinds {
        for consumers in mode == "uncontended" ? [1, 3] : [0, 1, 3] {
            var publishRates: [Double] = []
            var consumeRates: [Double] = []
            var lostFractions: [Double] = []
            for run in 1...runs {
                let small = { (index: UInt64) in
                    Small(index: index, payload: (index, index, index, index, index, index))
                }
                let pipeline = { (_: UInt64) in PipelineRecord(time: now, .fix(fix)) }
                let measurement = switch (mode, label.hasPrefix("small")) {
                case ("uncontended", true): measureUncontended(small, consumers: consumers)
                case ("uncontended", false): measureUncontended(pipeline, consumers: consumers)
                case (_, true): measure(small, consumers: consumers)
                default: measure(pipeline, consumers: consumers)
                }
                publishRates.append(measurement.publishRate)
                consumeRates.append(contentsOf: measurement.consumeRates)
                lostFractions.append(measurement.lostFraction)
                let each = measurement.consumeRates.map(formatted).joined(separator: ", ")
                print("\(mode), \(label), \(consumers) consumer(s), run \(run): publish "
                    + formatted(measurement.publishRate)
                    + (consumers > 0 ? "; consume \(each); lost \(percent(measurement.lostFraction))" : ""))
            }
            summary.append(padded(mode, 13) + padded(label + " (\(size) B, slot \(slot) B)", 45)
                + padded("\(consumers)", 11) + padded(formatted(median(publishRates)), 13)
                + padded(consumers > 0 ? formatted(median(consumeRates)) : "-", 16)
                + (consumers > 0 ? percent(median(lostFractions)) : "-"))
        }
    }
}
var latencySummary: [String] = []
for consumers in [1, 3] {
    var p50s: [Double] = []
    var p99s: [Double] = []
    for run in 1...runs {
        let latencies = measureLatency(consumers: consumers)
        p50s.append(percentile(latencies, 0.5))
        p99s.append(percentile(latencies, 0.99))
        print("wake-up latency, \(consumers) consumer(s), run \(run): p50 \(Int(p50s.last!.rounded())) µs, "
            + "p99 \(Int(p99s.last!.rounded())) µs (\(latencies.count) samples)")
    }
    latencySummary.append("wake-up latency, \(consumers) consumer(s): p50 \(Int(median(p50s).rounded())) µs, "
        + "p99 \(Int(median(p99s).rounded())) µs")
}
print()
print("medians (M/s = million records per second; consume is per consumer)")
print(padded("mode", 13) + padded("record", 45) + padded("consumers", 11) + padded("publish", 13)
    + padded("consume (each)", 16) + "lost")
for line in summary { print(line) }
for line in latencySummary { print(line) }
