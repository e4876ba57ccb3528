import NMEA
import NTRIP
import Pipeline
import SerialPort
import System

/// `--ntrip URL`, `--ntrip-password-file FILE`, `--ntrip-gga SECONDS`, `--ntrip-version 1|2` (`record`, `serve`): RTCM
/// 3 corrections from an NTRIP caster written to the receiver's own port, beside its reading.
struct NTRIPOptions {
    static let passwordVariable = "NMEA_NTRIP_PASSWORD"

    private static let url = Option<NTRIPAddress?>(
        long: "ntrip", valueName: "url",
        help: "Feed the receiver RTCM 3 corrections from an NTRIP caster: ntrip://[USER@]CASTER[:2101]/MOUNT "
            + "(the password from --ntrip-password-file or $\(passwordVariable))."
    ) { text throws(ValueError) in
        do throws(NTRIPError) {
            return try NTRIPAddress(parsing: text)
        } catch {
            throw .invalid(text.contains("@") ? "ntrip://…" : text, because: error.description)
        }
    }
    static let passwordFileOption = Option<String?>(
        long: "ntrip-password-file", valueName: "file",
        help: "Read the caster login's password from this file (its first line).", completion: .file)
    private static let gga = Option<Double>(
        long: "ntrip-gga", valueName: "seconds",
        help: "Send the receiver's position (GGA) to the caster this often; casters ban clients that send it "
            + "more often than every 5 s.",
        default: 10, in: 5...3600)
    private static let version = Option<String>(
        long: "ntrip-version", valueName: "version",
        help: "2: an NTRIP 2 request, which NTRIP 1 casters answer too; 1: an NTRIP 1 request, for casters that "
            + "refuse the other.",
        default: "2", choices: ["1", "2"])

    static let options: [any OptionDeclaration] = [url, passwordFileOption, gga, version]

    /// The client's options; `nil` without `--ntrip`.
    let client: NTRIPClient.Options?

    /// - Throws: ``UsageError`` for the other options without `--ntrip`, or a user without a password;
    ///   ``RuntimeError`` for a password file that cannot be read.
    init(_ arguments: ParsedArguments) throws {
        guard let address = try arguments.value(Self.url) else {
            for option in [Self.passwordFileOption, Self.version, Self.gga] as [any OptionDeclaration]
            where arguments.isGiven(option) {
                throw arguments.usageError("--\(option.spec.long) goes with --ntrip URL")
            }
            client = nil
            return
        }
        guard address.mount != nil else {
            throw arguments.usageError(
                "--ntrip needs a mount point: ntrip://\(address.host):\(address.port)/MOUNT ('nmea ntrip sources "
                    + "ntrip://\(address.host):\(address.port)' lists them)")
        }
        var options = NTRIPClient.Options(address: address)
        let seconds = try arguments.value(Self.gga)
        options.ggaInterval = Duration.milliseconds(Int64(seconds * 1000))
        options.version = try arguments.value(Self.version) == "1" ? 1 : 2
        options.userAgent = "NTRIP swift-nmea/\(toolVersion)"
        options.password = try Self.password(for: address, arguments)
        client = options
    }

    /// The login's password: from the file, else the environment; a user without either is a usage error.
    static func password(for address: NTRIPAddress, _ arguments: ParsedArguments) throws -> String? {
        if let path = try arguments.value(passwordFileOption) {
            guard address.user != nil else {
                throw arguments.usageError("A password needs a user in the URL: ntrip://USER@\(address.host)/…")
            }
            return try PasswordFile.read(path)
        }
        guard address.user != nil else { return nil }
        guard let password = PasswordFile.environment(passwordVariable) else {
            throw arguments.usageError(
                "The login \(address.user ?? "") needs a password: give it with --ntrip-password-file FILE or "
                    + "$\(passwordVariable)")
        }
        return password
    }

    /// The client and the port's writer, running; `nil` without `--ntrip`.
    func start(on pipeline: ReceiverPipeline, console: StatusLine) -> Running? {
        guard let client else { return nil }
        let writer = PortWriter()
        writer.start()
        let ntrip = NTRIPClient(
            client,
            position: { pipeline.latestFix.flatMap { PositionReport.gga($0.fix) } },
            report: { console.print("ntrip: \($0)") },
            deliver: { frame in writer.offer(frame) })
        ntrip.start()
        pipeline.setCorrections { ntrip.status.summary }
        return Running(client: ntrip, writer: writer)
    }

    /// A caster's corrections on their way to the receiver.
    struct Running {
        let client: NTRIPClient
        let writer: PortWriter

        func stop() {
            client.stop()
            writer.stop()
        }

        /// For the status line: `corrections 1.2 s old, 1.0/s, base 2003 at 1.4 km` (or what the connection says).
        func statusText(latitude: Double?, longitude: Double?) -> String {
            CorrectionText.status(client.status, latitude: latitude, longitude: longitude)
        }

        /// The run's account, for standard error at the end.
        var summary: [String] {
            let status = client.status
            let port = writer.statistics
            var line =
                "ntrip: \(status.source): \(counted(status.frames, "RTCM frame")) (\(status.bytes) bytes) in "
                + "\(counted(status.connections, "connection")), \(status.ggaSent) GGA sent; to the receiver: "
                + "\(port.framesWritten) written"
            let dropped = port.droppedFull + port.droppedDisconnected
            if dropped > 0 {
                line +=
                    ", \(dropped) dropped (\(port.droppedFull) queue full, \(port.droppedDisconnected) "
                    + "while the receiver was not connected)"
            }
            if port.failedWrites > 0 { line += ", \(port.failedWrites) cut short" }
            var lines = [line]
            if let failure = client.failure { lines.append("ntrip: \(failure)") }
            return lines
        }
    }
}

/// How corrections are shown to people: the status line, `nmea ntrip sources`.
enum CorrectionText {
    static func status(_ status: CorrectionStatus, latitude: Double?, longitude: Double?) -> String {
        guard status.isConnected, let age = status.ageSeconds else { return "corrections: \(status.message)" }
        var text =
            "corrections \(DecimalFormatter.string(age, decimals: 1)) s old, "
            + "\(DecimalFormatter.string(status.messagesPerSecond, decimals: 1))/s"
        if let station = status.stationID { text += ", base \(station)" }
        if let latitude, let longitude,
            let distance = status.baseDistanceMeters(latitude: latitude, longitude: longitude)
        {
            text += " at \(kilometres(distance))"
        }
        return text
    }

    /// `850 m`, `12.4 km`, `310 km`.
    static func kilometres(_ meters: Double) -> String {
        if meters < 1000 { return "\(Int(meters.rounded())) m" }
        if meters < 100_000 { return DecimalFormatter.string(meters / 1000, decimals: 1) + " km" }
        return "\(Int((meters / 1000).rounded())) km"
    }
}
