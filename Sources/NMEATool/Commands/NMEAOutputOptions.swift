import Pipeline
import Publisher
import System

/// `--nmea-tcp [ADDR:]PORT` and `--nmea-udp HOST:PORT`: the sentences as received, sent on raw (`serve`, `record`).
struct NMEAOutputOptions {
    private static let tcpOption = Option<ListenAddress?>(
        long: "nmea-tcp", valueName: "[addr:]port",
        help: "Also serve the raw sentences on TCP, no handshake (127.0.0.1 unless an address is given)."
    ) { text throws(ValueError) in
        guard let address = ListenAddress(parsing: text) else { throw .invalid(text, because: "expected [ADDR:]PORT") }
        return address
    }
    private static let udpOption = Option<(host: String, port: UInt16)?>(
        long: "nmea-udp", valueName: "host:port",
        help: "Also send each sentence as a UDP datagram to this host (a broadcast address works)."
    ) { text throws(ValueError) in
        guard let parsed = HostAndPort(parsing: text), let host = parsed.host, let port = parsed.port, port != 0 else {
            throw .invalid(text, because: "expected HOST:PORT")
        }
        return (host, port)
    }

    /// The two options, declared once.
    static let options: [any OptionDeclaration] = [tcpOption, udpOption]

    var tcp: ListenAddress?
    var udp: (host: String, port: UInt16)?

    /// `true` when either output is asked for: the pipeline must publish sentences.
    var isEmpty: Bool { tcp == nil && udp == nil }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        tcp = try arguments.value(Self.tcpOption)
        udp = try arguments.value(Self.udpOption)
    }

    /// The outputs, running: made before the pipeline starts, so they miss nothing.
    struct Running {
        var server: GPSDServer?
        var forwarder: UDPSentenceForwarder?

        /// Stops both at once (the receiver never started).
        func stop() {
            server?.stop()
            forwarder?.stop()
        }

        /// Once the pipeline has ended (its ring closed): the forwarder sends what the ring still holds, the server
        /// closes its clients.
        func finish() {
            forwarder?.finish()
            server?.stop()
        }

        /// What each output did, a line each, for the command's summary (after ``finish()``).
        var summary: [String] {
            var lines: [String] = []
            if let server {
                let statistics = server.statistics
                lines.append(
                    "raw NMEA: \(counted(statistics.accepted, "client")) served, \(statistics.refused) refused, "
                        + "\(statistics.disconnectedSlow) dropped for not reading")
            }
            if let forwarder {
                let statistics = forwarder.statistics
                var line = "udp \(forwarder.destination): \(statistics.sent) sentences sent"
                if statistics.failed > 0 {
                    line += ", \(statistics.failed) not sent (refused by the host, unreachable, or the buffer full)"
                }
                if statistics.lostRecords > 0 { line += ", \(statistics.lostRecords) records lost falling behind" }
                lines.append(line)
            }
            return lines
        }
    }

    /// Starts the outputs on `pipeline`, saying where on `console`.
    /// - Throws: ``RuntimeError`` when the port cannot be listened on or the host does not resolve.
    func start(on pipeline: ReceiverPipeline, console: StatusLine) throws(RuntimeError) -> Running {
        var running = Running()
        do {
            if let tcp {
                let server = try GPSDServer.startedRawNMEA(pipeline: pipeline, listen: tcp)
                running.server = server
                console.print("serving raw NMEA on \(server.boundAddress ?? tcp)")
            }
            if let udp {
                let forwarder = try UDPSentenceForwarder.started(pipeline: pipeline, host: udp.host, port: udp.port)
                running.forwarder = forwarder
                console.print("sending each sentence to udp \(forwarder.destination)")
            }
        } catch let error as ListenError {
            running.stop()
            throw RuntimeError(error.description)
        } catch let error as UDPSentenceForwarder.SetupError {
            running.stop()
            throw RuntimeError(error.description)
        } catch {
            running.stop()
            throw RuntimeError("\(error)")
        }
        return running
    }
}
