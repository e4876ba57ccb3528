import AIS
import JSON
import NMEA
import Trips

/// `nmea ais`: the vessels in AIS logs, one row each.
enum AISCommand: Command {
    static let spec = CommandSpec(
        name: "ais",
        abstract: "List the vessels in AIS logs: name, call sign, type, size, last position, messages.",
        discussion: """
            Reads !AIVDM and !AIVDO sentences (any talker; multi-part messages assembled, type 24's parts paired) \
            and prints one row per station (MMSI), sorted by MMSI: its name and call sign (types 5, 19, 21, 24), \
            ship type, length and beam, destination, its last reported position, course and speed, and how many \
            messages it sent. Other sentences are skipped. Memory grows with the number of stations, not with \
            the length of the log.
            """,
        arguments: [SentenceInput.files],
        options: [json, SentenceInput.date, SentenceInput.jobs] + SentenceInput.options,
        examples: ["nmea ais harbour.nmea", "nmea ais --json harbour.nmea | jq '.vessels[0]'"])

    private static let json = Flag(
        long: "json", help: "Print one JSON document {\"vessels\":[…]} instead of a table.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        var input = try SentenceInput(arguments, assemblesFixes: false)
        input.jobs = try SentenceInput.jobs(arguments)
        var collector = VesselCollector()
        try input.read(handler: &collector, isCancelled: ParseCommand.outputFailed) { _ in }
        let vessels = collector.vessels.values.sorted { $0.mmsi < $1.mmsi }
        if arguments.flag(json) {
            var writer = JSONWriter(capacity: 1 << 16)
            writer.beginObject()
            writer.key("vessels")
            writer.beginArray()
            for vessel in vessels { writer.writeVessel(vessel) }
            writer.endArray()
            writer.endObject()
            writer.bytes.withUnsafeBytes { Console.standardOutput.write($0) }
            Console.standardOutput.write("\n")
        } else {
            Console.standardOutput.write(Vessel.table(vessels))
        }
        Console.standardOutput.flush()
        collector.reading.ais.report(command: "nmea ais")
        input.printSummary(command: "nmea ais")
        return input.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}

extension Vessel {
    /// The vessels as a table with a header row, columns padded to their widest cell.
    static func table(_ vessels: [Vessel]) -> String {
        func decimal(_ value: Double?, _ places: Int) -> String {
            guard let value else { return "" }
            var json = JSONWriter()
            json.number(value, decimals: places)
            return json.string
        }
        var rows = [["MMSI", "NAME", "CALL SIGN", "TYPE", "SIZE", "DESTINATION", "LAT", "LON", "COG", "SOG", "MSGS"]]
        for vessel in vessels {
            rows.append([
                String(vessel.mmsi), vessel.name ?? "", vessel.callSign ?? "", vessel.shipType.map(String.init) ?? "",
                vessel.dimensions.map { "\($0.length)x\($0.beam)" } ?? "", vessel.destination ?? "",
                decimal(vessel.position?.latitude, 5), decimal(vessel.position?.longitude, 5),
                decimal(vessel.course, 1), decimal(vessel.speed, 1), String(vessel.messages),
            ])
        }
        return TripText.layout(rows, rightAligned: [])
    }
}

/// Each AIS message of the input to its station's ``Vessel``: on every core, each message read into what it says
/// of its station (``Vessel/Report``) where it was assembled.
struct VesselCollector: AISMessageTaker {
    var reading = AISReading<Vessel.Report>()
    var vessels: [Int: Vessel] = [:]

    func makePieceHandler() -> Self { Self(reading: .worker) }

    static func read(_ message: borrowing AISMessage, receivedMilliseconds: Int64?) -> Vessel.Report {
        Vessel.Report(message)
    }

    mutating func take(_ report: consuming Vessel.Report) {
        let mmsi = report.mmsi
        vessels[mmsi, default: Vessel(mmsi: mmsi)].update(report)
    }
}
