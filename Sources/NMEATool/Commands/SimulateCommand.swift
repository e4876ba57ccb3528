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
            --faults damages the stream the way bad serial links do (bad checksums, cut lines, noise, binary frames).
            """,
        options: [
            OptionSpec(
                long: "route", valueName: "route", help: "The journey.", defaultValue: "drive",
                choices: ["drive", "commute"]),
            OptionSpec(
                long: "profile", valueName: "profile", help: "Which sentences the receiver sends.",
                defaultValue: "multi-gnss", choices: EpochWriter.Profile.allCases.map(\.rawValue)),
            OptionSpec(
                long: "duration", valueName: "seconds", help: "Length of a 'drive' route.",
                defaultValue: "600"),
            OptionSpec(long: "rate", valueName: "hz", help: "Epochs per second.", defaultValue: "1"),
            OptionSpec(
                long: "start", valueName: "time", help: "UTC start, YYYY-MM-DDThh:mm:ssZ.",
                defaultValue: "2026-11-30T08:00:00Z"),
            OptionSpec(long: "lat", valueName: "degrees", help: "Starting latitude.", defaultValue: "48.13740"),
            OptionSpec(long: "lon", valueName: "degrees", help: "Starting longitude.", defaultValue: "11.57550"),
            OptionSpec(long: "seed", valueName: "n", help: "Seed for jitter and signal strengths.", defaultValue: "1"),
            OptionSpec(
                long: "faults", valueName: "n", help: "Damage about one line in n (0: none).",
                defaultValue: "0"),
            OptionSpec(
                long: "output", short: "o", valueName: "file", help: "Where to write, or '-'.",
                defaultValue: "-", completion: .file),
        ],
        examples: [
            "nmea simulate --duration 60 | nmea parse",
            "nmea simulate --route commute --profile rmc-gga -o day.nmea",
        ])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let duration = try arguments.number("duration", default: 600, in: 1...31_536_000)
        let rate = try arguments.number("rate", default: 1, in: 0.01...100)
        let latitude = try arguments.number("lat", default: 48.137_40, in: -85...85)
        let longitude = try arguments.number("lon", default: 11.575_50, in: -180...180)
        let seed = try arguments.integer("seed", default: 1, in: 0...Int.max)
        let faults = try arguments.integer("faults", default: 0, in: 0...1_000_000)
        let profileName = arguments.value("profile") ?? "multi-gnss"
        let profile = EpochWriter.Profile(rawValue: profileName)!
        let startText = arguments.value("start") ?? "2026-11-30T08:00:00Z"
        guard let moment = ISO8601.parse(startText) else {
            throw arguments.invalid(startText, for: "start", because: "expected YYYY-MM-DDThh:mm:ssZ")
        }
        let start = DateTime(nanosecondsSinceEpoch: moment)
        let legs: [Scenario.Leg] =
            arguments.value("route") == "commute" ? Scenario.commuteLegs : drive(seconds: duration)
        let scenario = Scenario(
            latitude: latitude, longitude: longitude, start: start, rateHz: rate, legs: legs,
            seed: UInt64(seed))
        let writer = EpochWriter(profile: profile)
        // Streamed in chunks of about a megabyte: constant memory however long the journey.
        var builder = SentenceBuilder()
        var damaged: [UInt8] = []
        var injector = faults > 0 ? FaultInjector(interval: faults, seed: UInt64(seed)).stream() : nil
        try writeOutput(to: arguments.value("output") ?? "-") { output in
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
