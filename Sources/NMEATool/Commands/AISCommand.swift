import AIS
import JSON
import NMEA

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
        options: [json, SentenceInput.date] + SentenceInput.options,
        examples: ["nmea ais harbour.nmea", "nmea ais --json harbour.nmea | jq '.vessels[0]'"])

    private static let json = Flag(
        long: "json", help: "Print one JSON document {\"vessels\":[…]} instead of a table.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        var input = try SentenceInput(arguments, assemblesFixes: false)
        var collector = VesselCollector()
        try input.read(handler: &collector, isCancelled: ParseCommand.outputFailed) { _ in }
        let vessels = collector.vessels.values.sorted { $0.mmsi < $1.mmsi }
        if arguments.flag(json) {
            var writer = JSONWriter(capacity: 1 << 16)
            writer.beginObject()
            writer.key("vessels")
            writer.beginArray()
            for vessel in vessels { vessel.write(to: &writer) }
            writer.endArray()
            writer.endObject()
            writer.bytes.withUnsafeBytes { Console.standardOutput.write($0) }
            Console.standardOutput.write("\n")
        } else {
            Console.standardOutput.write(Vessel.table(vessels))
        }
        Console.standardOutput.flush()
        collector.ais.report(command: "nmea ais")
        input.printSummary(command: "nmea ais")
        return input.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}

/// What is known of one station, from all its messages so far.
struct Vessel {
    let mmsi: Int
    var name: String?
    var callSign: String?
    var shipType: Int?
    var dimensions: (length: Int, beam: Int)?
    var destination: String?
    var position: (latitude: Double, longitude: Double)?
    var course: Double?
    var speed: Double?
    var messages = 0

    mutating func update(_ message: AISMessage) {
        messages += 1
        name = message.shipName ?? name
        callSign = message.callSign ?? callSign
        shipType = message.shipType ?? shipType
        dimensions = message.dimensions ?? dimensions
        destination = message.destination ?? destination
        if message.type != 8, message.type != 6, let position = message.position {
            self.position = position
            course = message.courseDegrees
            speed = message.speedKnots
        }
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("mmsi", mmsi)
        json.field("name", name)
        json.field("callsign", callSign)
        json.field("shiptype", shipType)
        json.field("length_m", dimensions?.length)
        json.field("beam_m", dimensions?.beam)
        json.field("destination", destination)
        json.field("lat", position?.latitude, maximumDecimals: 6)
        json.field("lon", position?.longitude, maximumDecimals: 6)
        json.field("course", course, maximumDecimals: 1)
        json.field("speed_knots", speed, maximumDecimals: 1)
        json.field("messages", messages)
        json.endObject()
    }

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
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}

/// Feeds every AIS sentence of the input to one decoder and each message to its station's ``Vessel``.
struct VesselCollector: FixReader.Handler {
    var ais = AISPrinting()
    var vessels: [Int: Vessel] = [:]

    mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {}

    mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) {
        guard case .message(let message) = ais.take(sentence) else { return }
        vessels[message.mmsi, default: Vessel(mmsi: message.mmsi)].update(message)
    }

    mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {}
}
