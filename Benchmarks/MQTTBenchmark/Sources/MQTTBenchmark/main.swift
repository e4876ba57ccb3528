import Fleet
import Glibc
import NMEA
import System
import TestSupport

// Usage: MQTTBenchmark [--runs N] [--messages N] [--vehicles N] [--seconds S]
// Starts its own mosquitto on a free loopback port for each measurement and prints medians.

var runs = 5
var messages = 20_000
var vehicles = 1_000
var seconds = 20
do {
    var arguments = CommandLine.arguments.dropFirst().makeIterator()
    while let argument = arguments.next() {
        guard let value = arguments.next().flatMap(Int.init), value > 0 else {
            complain("usage: MQTTBenchmark [--runs N] [--messages N] [--vehicles N] [--seconds S]\n")
            exit(64)
        }
        switch argument {
        case "--runs": runs = value
        case "--messages": messages = value
        case "--vehicles": vehicles = value
        case "--seconds": seconds = value
        default:
            complain("unknown option \(argument)\n")
            exit(64)
        }
    }
}

func complain(_ text: String) {
    var line = text
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func now() -> Double { MonotonicTime.now().seconds }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func temporaryDirectory(_ name: String) -> String { TemporaryDirectory("mqtt-bench-" + name).path }

func removeTree(_ path: String) { Directory.removeTree(path) }

/// A mosquitto of our own (TestSupport's): no limit on queued or in-flight messages, no persistence.
final class Broker {
    let broker: MosquittoBroker

    init() {
        guard MosquittoBroker.mosquitto != nil else {
            complain("mosquitto is not installed (apt-get install mosquitto)\n")
            exit(1)
        }
        do {
            broker = try MosquittoBroker()
            try broker.start()
        } catch {
            complain("\(error)\n")
            exit(1)
        }
    }

    var url: BrokerURL { BrokerURL(host: "127.0.0.1", port: broker.port) }

    /// CPU seconds the broker has used (user + system).
    var cpuSeconds: Double {
        guard let pid = broker.pid, let file = fopen("/proc/\(pid)/stat", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, 1024, file) != nil else { return 0 }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3; utime and stime are fields 14 and 15 (1-based over the whole line).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() { broker.kill() }
}

func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
}

let start: Int64 = 1_796_025_600

func fix(_ n: Int, vehicle: Int = 0) -> Fix {
    let seconds = start + Int64(n)
    let second = Int(seconds % 86_400)
    var fix = Fix(date: UTCDate(daysSinceEpoch: Int(seconds / 86_400)),
                  time: UTCTime(hour: UInt8(second / 3600), minute: UInt8(second / 60 % 60), second: UInt8(second % 60)),
                  latitude: 48.1374 + Double(n % 10_000) * 0.0001 + Double(vehicle) * 0.001,
                  longitude: 11.5755 + Double(n % 10_000) * 0.0001, altitudeMeters: 520, speed: 12.5,
                  courseDegrees: 45, quality: .gps, mode: .threeD)
    fix.hdop = 0.8
    return fix
}

func configuration(_ broker: Broker, queue: String) -> FleetPublisher.Configuration {
    var configuration = FleetPublisher.Configuration(broker: broker.url, topic: "owntracks/bench/van")
    configuration.rateLimit = PublishRateLimiter(intervalSeconds: 0, minimumMoveMeters: 0, heartbeatSeconds: 0)
    configuration.queueDirectory = queue
    configuration.clientID = "bench-\(getpid())-\(Int.random(in: 0..<1_000_000))"
    return configuration
}

func waitConnected(_ publisher: FleetPublisher) {
    let deadline = now() + 10
    while publisher.counters.state != .connected && now() < deadline { usleep(5_000) }
}

// MARK: 1. Publish throughput

@MainActor func publishThroughput() -> Double {
    let broker = Broker()
    defer { broker.stop() }
    let queue = temporaryDirectory("queue")
    defer { removeTree(queue) }
    let publisher = try! FleetPublisher(configuration(broker, queue: queue))
    waitConnected(publisher)
    let began = now()
    for n in 0..<messages { publisher.publish(fix(n)) }
    guard publisher.waitUntilDelivered(timeout: 300) else {
        complain("publish: not everything was acknowledged: \(publisher.counters.summary)\n")
        exit(1)
    }
    let elapsed = now() - began
    publisher.close()
    return Double(messages) / elapsed
}

// MARK: 2. Collector throughput

final class Flag: @unchecked Sendable {
    private var value = false
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(lock, nil) }
    var isSet: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return value
    }
    func set() {
        pthread_mutex_lock(lock)
        value = true
        pthread_mutex_unlock(lock)
    }
}

@MainActor func collectorThroughput(vehicleCount: Int) -> Double {
    let broker = Broker()
    defer { broker.stop() }
    let output = temporaryDirectory("collected")
    defer { removeTree(output) }
    var collectorConfiguration = FleetCollector.Configuration(broker: broker.url, outputDirectory: output)
    collectorConfiguration.clientID = "bench-collector-\(getpid())"
    // Register the collector's persistent session, then let the broker queue the messages for it.
    do {
        let collector = try! FleetCollector(collectorConfiguration)
        let began = now()
        try! collector.run { collector.connectionStatus.state == .connected && now() - began > 0.3 || now() - began > 10 }
    }
    let queue = temporaryDirectory("queue")
    defer { removeTree(queue) }
    let publisher = try! FleetPublisher(configuration(broker, queue: queue))
    for n in 0..<messages {
        let vehicle = n % vehicleCount
        let location = OwnTracksLocation(fix(n / vehicleCount, vehicle: vehicle), trackerID: "bv")!
        publisher.enqueue(topic: "owntracks/bench/v\(vehicle)", payload: location.json, retain: false)
    }
    guard publisher.waitUntilDelivered(timeout: 300) else {
        complain("collect: publishing did not finish: \(publisher.counters.summary)\n")
        exit(1)
    }
    publisher.close()
    // Now collect what the broker kept.
    let collector = try! FleetCollector(collectorConfiguration)
    let began = now()
    var finished = 0.0
    try! collector.run {
        if finished == 0 && collector.statistics.locations >= messages { finished = now() }
        return finished > 0 || now() - began > 300
    }
    guard finished > 0 else {
        complain("collect: only \(collector.statistics.locations) of \(messages) arrived\n")
        exit(1)
    }
    return Double(messages) / (finished - began)
}

// MARK: 3. CPU for many vehicles at 1 Hz

@MainActor func fleetCPU() -> (publisher: Double, broker: Double) {
    let broker = Broker()
    defer { broker.stop() }
    let queue = temporaryDirectory("queue")
    defer { removeTree(queue) }
    var settings = configuration(broker, queue: queue)
    settings.maximumInflight = 1000
    let publisher = try! FleetPublisher(settings)
    waitConnected(publisher)
    let topics = (0..<vehicles).map { "owntracks/fleet/v\($0)" }
    // One warm-up second, not measured.
    var second = 0
    func publishSecond() {
        for (vehicle, topic) in topics.enumerated() {
            let location = OwnTracksLocation(fix(second, vehicle: vehicle), trackerID: "fv")!
            publisher.enqueue(topic: topic, payload: location.json, retain: true)
        }
        second += 1
    }
    publishSecond()
    usleep(1_000_000)
    let cpuBefore = processCPUSeconds()
    let brokerBefore = broker.cpuSeconds
    let began = now()
    for tick in 0..<seconds {
        publishSecond()
        let due = began + Double(tick + 1)
        let wait = due - now()
        if wait > 0 { usleep(UInt32(wait * 1e6)) }
    }
    let wall = now() - began
    let cpu = (processCPUSeconds() - cpuBefore) / wall
    let brokerCPU = (broker.cpuSeconds - brokerBefore) / wall
    guard publisher.waitUntilDelivered(timeout: 60) else {
        complain("fleet: backlog not delivered: \(publisher.counters.summary)\n")
        exit(1)
    }
    publisher.close()
    return (cpu, brokerCPU)
}

/// `value` with `decimals` decimals.
func fixed(_ value: Double, _ decimals: Int = 0) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    guard decimals > 0 else { return String(scaled) }
    let digits = String(abs(scaled))
    let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
    return (scaled < 0 ? "-" : "") + padded.dropLast(decimals) + "." + padded.suffix(decimals)
}

print("MQTT figures: \(runs) runs each, medians; mosquitto on 127.0.0.1, \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores")
var publishRates: [Double] = []
for _ in 0..<runs { publishRates.append(publishThroughput()) }
print("publish throughput (interval 0, QoS 1, queue on disk): \(fixed(median(publishRates))) messages/s "
    + "(\(messages) messages; runs: \(publishRates.map { fixed($0) }.joined(separator: " ")))")

var collectRates: [Double] = []
for _ in 0..<runs { collectRates.append(collectorThroughput(vehicleCount: 100)) }
print("collector throughput (100 vehicles, GPX + GeoJSON): \(fixed(median(collectRates))) messages/s "
    + "(\(messages) messages; runs: \(collectRates.map { fixed($0) }.joined(separator: " ")))")

var publisherCPU: [Double] = []
var brokerCPU: [Double] = []
for _ in 0..<max(1, (runs + 1) / 2) {
    let (process, broker) = fleetCPU()
    publisherCPU.append(process)
    brokerCPU.append(broker)
}
print("\(vehicles) vehicles at 1 Hz from one process (\(seconds) s): publisher \(fixed(median(publisherCPU), 3)) CPU s "
    + "per wall s, broker \(fixed(median(brokerCPU), 3)) (runs: \(publisherCPU.map { fixed($0, 3) }.joined(separator: " "))"
    + " / \(brokerCPU.map { fixed($0, 3) }.joined(separator: " ")))")
