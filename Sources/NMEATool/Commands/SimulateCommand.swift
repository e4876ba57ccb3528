import NMEA
import Simulation

/// `nmea simulate`: a deterministic journey written as NMEA, for trying the tools without a receiver.
enum SimulateCommand: Command {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Write a simulated receiver's NMEA for a journey.",
        discussion: """
            The same options always give the same bytes. 'drive' is a town drive with turns, a traffic stop and a \
            parking stop; 'commute' is a day: parked at home, a drive to work, a working day parked, a drive home. \
            --faults damages the stream the way bad serial links do (bad checksums, cut lines, noise, binary frames). \
            --ais writes a harbour's AIS traffic instead (200 stations around --lat/--lon: position reports of \
            class A and B, static and voyage data in two parts, type 24, base stations, aids to navigation).
            """,
        options: [route, profile, duration, rate, start, latitude, longitude, seed, faults, ais, output],
        examples: [
            "nmea simulate --duration 60 | nmea parse",
            "nmea simulate --route commute --profile rmc-gga -o day.nmea",
            "nmea simulate --ais 100000 --lat 53.54 --lon 9.95 -o harbour.nmea",
        ])

    private static let route = Option<String>(
        long: "route", valueName: "route", help: "The journey.", default: "drive", choices: ["drive", "commute"])
    private static let profile = Option<EpochWriter.Profile>(
        long: "profile", valueName: "profile", help: "Which sentences the receiver sends.", default: .multiGNSS)
    private static let duration = Option<Double>(
        long: "duration", valueName: "seconds", help: "Length of a 'drive' route.", default: 600, in: 1...31_536_000)
    private static let rate = Option<Double>(
        long: "rate", valueName: "hz", help: "Epochs per second.", default: 1, in: 0.01...100)
    private static let start = Option<DateTime>(
        long: "start", valueName: "time", help: "UTC start, YYYY-MM-DDThh:mm:ssZ.",
        default: DateTime(nanosecondsSinceEpoch: ISO8601.parse("2026-11-30T08:00:00Z")!),
        defaultText: "2026-11-30T08:00:00Z"
    ) { text throws(ValueError) in
        guard let moment = ISO8601.parse(text) else { throw .invalid(text, because: "expected YYYY-MM-DDThh:mm:ssZ") }
        return DateTime(nanosecondsSinceEpoch: moment)
    }
    private static let latitude = Option<Double>(
        long: "lat", valueName: "degrees", help: "Starting latitude.", default: 48.137_40, defaultText: "48.13740",
        in: -85...85)
    private static let longitude = Option<Double>(
        long: "lon", valueName: "degrees", help: "Starting longitude.", default: 11.575_50, defaultText: "11.57550",
        in: -180...180)
    private static let seed = Option<Int>(
        long: "seed", valueName: "n", help: "Seed for jitter and signal strengths.", default: 1, in: 0...Int.max)
    private static let faults = Option<Int>(
        long: "faults", valueName: "n", help: "Damage about one line in n (0: none).", default: 0, in: 0...1_000_000)
    private static let ais = Option<Int?>(
        long: "ais", valueName: "messages", help: "Write this many AIS messages of a harbour's traffic instead.",
        in: 1...1_000_000_000)
    private static let output = Option<String>(
        long: "output", short: "o", valueName: "file", help: "Where to write, or '-'.", default: "-",
        completion: .file)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let duration = try arguments.value(Self.duration)
        let rate = try arguments.value(Self.rate)
        let latitude = try arguments.value(Self.latitude)
        let longitude = try arguments.value(Self.longitude)
        let seed = try arguments.value(Self.seed)
        let faults = try arguments.value(Self.faults)
        let profile = try arguments.value(Self.profile)
        let start = try arguments.value(Self.start)
        if let messages = try arguments.value(ais) {
            try writeTraffic(messages: messages, latitude: latitude, longitude: longitude, to: arguments.value(output))
            return ExitStatus.success
        }
        let legs: [Scenario.Leg] =
            try arguments.value(route) == "commute" ? Scenario.commuteLegs : drive(seconds: duration)
        let scenario = Scenario(
            latitude: latitude, longitude: longitude, start: start, rateHz: rate, legs: legs,
            seed: UInt64(seed))
        let writer = EpochWriter(profile: profile)
        // Streamed in chunks of about a megabyte: constant memory however long the journey.
        var builder = SentenceBuilder()
        var damaged: [UInt8] = []
        var injector = faults > 0 ? FaultInjector(interval: faults, seed: UInt64(seed)).stream() : nil
        try writeOutput(to: arguments.value(output)) { output in
            func write() {
                if injector != nil {
                    injector!.damage(builder.bytes, into: &damaged)
                    damaged.withUnsafeBytes { output.write($0) }
                    damaged.removeAll(keepingCapacity: true)
                } else {
                    builder.bytes.withUnsafeBytes { output.write($0) }
                }
                builder.removeAll()
            }
            for fix in scenario.fixes() {
                writer.write(fix, into: &builder)
                if builder.bytes.count >= 1 << 20 { write() }
            }
            write()
        }
        return ExitStatus.success
    }

    /// `--ais`: the traffic in chunks of 10,000 messages (constant memory however many).
    static func writeTraffic(messages: Int, latitude: Double, longitude: Double, to path: String) throws {
        var traffic = AISTraffic()
        traffic.latitude = latitude
        traffic.longitude = longitude
        try writeOutput(to: path) { output in
            var written = 0
            while written < messages {
                let count = min(10_000, messages - written)
                traffic.sentences(messages: count, from: written).withUnsafeBytes { output.write($0) }
                written += count
            }
        }
    }

    /// Drive, stop at lights, turn, drive, park, drive on — repeated until `seconds`.
    static func drive(seconds: Double) -> [Scenario.Leg] {
        let pattern: [Scenario.Leg] = [
            .drive(seconds: 90, speedKmh: 45), .drive(seconds: 15, speedKmh: 20, turnDegreesPerSecond: 6),
            .drive(seconds: 60, speedKmh: 50), .park(seconds: 30, jitterMeters: 1),
            .drive(seconds: 120, speedKmh: 70, turnDegreesPerSecond: -0.5), .park(seconds: 120),
            .drive(seconds: 20, speedKmh: 25, turnDegreesPerSecond: -4.5), .drive(seconds: 165, speedKmh: 55),
        ]
        var legs: [Scenario.Leg] = []
        var total = 0.0
        while total < seconds {
            for leg in pattern {
                guard case .drive(let length, let speed, let turn) = leg else {
                    if case .park(let length, let jitter) = leg {
                        let part = min(length, seconds - total)
                        if part > 0 { legs.append(.park(seconds: part, jitterMeters: jitter)) }
                        total += part
                    }
                    continue
                }
                let part = min(length, seconds - total)
                if part > 0 { legs.append(.drive(seconds: part, speedKmh: speed, turnDegreesPerSecond: turn)) }
                total += part
            }
        }
        return legs
    }
}
