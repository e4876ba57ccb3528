import JSON
import NMEA
import NTRIP
import Trips

/// `nmea ntrip sources`.
enum NTRIPCommand: Command {
    static let spec = CommandSpec(
        name: "ntrip",
        abstract: "Ask an NTRIP caster what it serves.",
        discussion: """
            'nmea ntrip sources CASTER' lists a caster's mount points. Corrections themselves are fed to a \
            receiver by 'nmea record --ntrip' and 'nmea serve --ntrip'; 'nmea serve --ntrip-caster' is a caster of \
            its own.
            """,
        subcommands: subcommands.map { $0.spec })

    static var subcommands: [any Command.Type] { [NTRIPSourcesCommand.self] }
}

/// `nmea ntrip sources CASTER [--near LAT,LON] [--json]`.
enum NTRIPSourcesCommand: Command {
    static let spec = CommandSpec(
        name: "sources",
        abstract: "List a caster's mount points: format, messages, systems, and how far each base is.",
        discussion: """
            Reads the caster's sourcetable (its STR lines) and prints one mount a line: its name, format, \
            messages with their rates, navigation systems, whether it needs the receiver's position (a network's \
            virtual base), its login (B: basic) and fee, and the distance to its base from --near, nearest first. \
            A caster that wants a login for its table takes the user in the URL and the password from \
            --ntrip-password-file or $\(NTRIPOptions.passwordVariable).
            """,
        arguments: [caster],
        options: [near, NTRIPOptions.passwordFileOption, json],
        examples: [
            "nmea ntrip sources ntrip://rtk2go.com --near 48.137,11.575",
            "nmea ntrip sources ntrip://me@caster.example.com:2101 --json",
        ])

    private static let caster = Argument<String>(
        required: "caster", help: "The caster: ntrip://[USER@]HOST[:2101].", completion: .none)
    private static let near = Option<(latitude: Double, longitude: Double)?>(
        long: "near", valueName: "lat,lon", help: "Sort by the distance from this position, and show it."
    ) { text throws(ValueError) in
        let parts = text.split(separator: ",").compactMap { Double(String($0.filter { $0 != " " })) }
        guard parts.count == 2, abs(parts[0]) <= 90, abs(parts[1]) <= 180 else {
            throw .invalid(text, because: "expected LAT,LON in degrees, such as 48.137,11.575")
        }
        return (parts[0], parts[1])
    }
    private static let json = Flag(long: "json", help: "Print one JSON object a mount instead of a table.")

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let text = arguments.value(caster)
        let address: NTRIPAddress
        do throws(NTRIPError) {
            address = try NTRIPAddress(parsing: text)
        } catch {
            throw arguments.usageError(error.description.prefix(1).uppercased() + error.description.dropFirst())
        }
        var options = NTRIPClient.Options(address: address)
        options.password = try NTRIPOptions.password(for: address, arguments)
        options.userAgent = "NTRIP swift-nmea/\(toolVersion)"
        let table: Sourcetable
        do throws(NTRIPError) {
            table = try NTRIPClient.sourcetable(options)
        } catch {
            throw RuntimeError("\(error)")
        }
        let position = try arguments.value(near)
        var streams = table.streams.map { stream in
            (stream, position.flatMap { stream.distanceMeters(fromLatitude: $0.latitude, longitude: $0.longitude) })
        }
        if position != nil {
            streams.sort { ($0.1 ?? .infinity, $0.0.mount) < ($1.1 ?? .infinity, $1.0.mount) }
        }
        if arguments.flag(json) {
            for (stream, distance) in streams { Console.standardOutput.write(jsonLine(stream, distance)) }
        } else {
            Console.standardOutput.write(tableText(streams.map { $0 }, withDistance: position != nil))
        }
        if !table.isComplete {
            Console.error("nmea ntrip sources: warning: the table ended without ENDSOURCETABLE; it may be cut short\n")
        }
        return ExitStatus.success
    }

    private static func tableText(_ streams: [(Sourcetable.Stream, Double?)], withDistance: Bool) -> String {
        var rows = [["MOUNT", "FORMAT", "MESSAGES", "SYSTEMS", "GGA", "LOGIN"] + (withDistance ? ["DISTANCE"] : [])]
        for (stream, distance) in streams {
            rows.append(
                [
                    stream.mount, stream.format, String(stream.formatDetails.prefix(40)), stream.navigationSystems,
                    stream.needsPosition ? "yes" : "no",
                    (stream.authentication.isEmpty ? "N" : stream.authentication) + (stream.fee ? ", fee" : ""),
                ] + (withDistance ? [distance.map(CorrectionText.kilometres) ?? "?"] : []))
        }
        // What a caster sends is shown with its control characters as `?`: no escape sequence reaches the terminal.
        return TripText.layout(rows.map { $0.map(TripText.printable) }, rightAligned: [])
    }

    private static func jsonLine(_ stream: Sourcetable.Stream, _ distance: Double?) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("mount", stream.mount)
        writer.field("identifier", stream.identifier)
        writer.field("format", stream.format)
        writer.field("format_details", stream.formatDetails)
        writer.field("systems", stream.navigationSystems)
        writer.field("country", stream.country)
        writer.field("lat", stream.latitude)
        writer.field("lon", stream.longitude)
        writer.field("nmea", stream.needsPosition)
        writer.field("network", stream.isNetwork)
        writer.field("authentication", stream.authentication)
        writer.field("fee", stream.fee)
        if let bitRate = stream.bitRate { writer.field("bitrate", bitRate) }
        if let distance { writer.field("distance_m", distance.rounded()) }
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self) + "\n"
    }
}
