import Fleet
import Foundation
import NMEA
import TestSupport
import Testing

/// Helpers for the fleet tests: fixes with known values, temporary directories, the built `nmea`, and brokers.
enum Support {
    /// A fix at `seconds` since 1970 with the given values.
    static func fix(
        seconds: Int64, latitude: Double, longitude: Double, altitude: Double? = 520,
        speed: Double? = 12.5, course: Double? = 45, hdop: Double? = 0.8
    ) -> Fix {
        let days = Int(seconds / 86_400)
        let second = Int(seconds % 86_400)
        var fix = Fix(
            date: UTCDate(daysSinceEpoch: days),
            time: UTCTime(
                hour: UInt8(second / 3600), minute: UInt8(second / 60 % 60),
                second: UInt8(second % 60)),
            latitude: latitude, longitude: longitude, altitudeMeters: altitude, speed: speed,
            courseDegrees: course, quality: .gps, mode: altitude == nil ? .twoD : .threeD)
        fix.hdop = hdop
        return fix
    }

    /// 2026-11-30T08:00:00Z.
    static let start: Int64 = 1_796_025_600

    /// The `n`th fix of a straight drive north-east from Munich, one per second, about 14 m apart.
    static func drive(_ n: Int) -> Fix {
        fix(seconds: start + Int64(n), latitude: 48.1374 + Double(n) * 0.0001, longitude: 11.5755 + Double(n) * 0.0001)
    }

    /// Times in a GPX file (`<time>…</time>` of its points), in file order.
    static func gpxTimes(_ path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var times: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<time>"),
            let close = rest.range(of: "</time>", range: open.upperBound..<rest.endIndex)
        {
            times.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return times
    }

    /// The ISO time of `drive(n)`.
    static func driveTime(_ n: Int) -> String {
        ISO8601.string((start + Int64(n)) * 1_000_000_000)
    }
}

/// The brokers of these tests: Mosquitto, on a free loopback port.
typealias Broker = MosquittoBroker

/// A CA and a server certificate for 127.0.0.1 signed by it, made with openssl.
typealias TLSFiles = MosquittoBroker.TLS

extension MosquittoBroker.TLS {
    static let openssl = Tools.which("openssl")

    /// Makes a fresh CA (and, unless `serverFor` is given, a server certificate signed by it) in a new directory.
    static func make(signedBy other: TLSFiles? = nil) throws -> TLSFiles {
        let directory = TemporaryDirectory("tls").path
        func run(_ arguments: [String]) throws {
            let tool = try ChildProcess.run([openssl!] + arguments, timeout: .seconds(30))
            guard tool.status == 0 else {
                throw BrokerError(message: "openssl \(arguments.joined(separator: " ")): \(tool.error)")
            }
        }
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + curve + [
                "-keyout", directory + "/ca.key", "-out", directory + "/ca.crt",
                "-days", "2", "-subj", "/CN=swift-nmea test CA",
            ])
        try run(
            ["req"] + curve + [
                "-keyout", directory + "/server.key", "-out", directory + "/server.csr",
                "-subj", "/CN=127.0.0.1",
            ])
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: directory + "/san.ext", atomically: true, encoding: .utf8)
        try run([
            "x509", "-req", "-in", directory + "/server.csr", "-CA", directory + "/ca.crt", "-CAkey",
            directory + "/ca.key", "-CAcreateserial", "-out", directory + "/server.crt", "-days", "2",
            "-extfile", directory + "/san.ext",
        ])
        return TLSFiles(
            caCertificate: directory + "/ca.crt", serverCertificate: directory + "/server.crt",
            serverKey: directory + "/server.key")
    }
}

struct BrokerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A `mosquitto_sub` printing `topic payload` lines, started and subscribed before it returns.
func subscriber(_ broker: Broker, topic: String, count: Int? = nil, extra: [String] = []) throws -> ChildProcess {
    let clientID = "sub-\(UInt32.random(in: 0...UInt32.max))"
    var arguments = ["-h", "127.0.0.1", "-p", String(broker.port), "-t", topic, "-q", "1", "-v", "-i", clientID]
    if let count { arguments += ["-C", String(count)] }
    let child = try ChildProcess([MosquittoBroker.mosquittoSub!] + arguments + extra)
    // Messages published before the subscription is in place never reach it: wait until the broker has it.
    guard broker.waitForSubscription(of: clientID, to: topic) else {
        throw MosquittoBroker.Failure(description: "mosquitto_sub did not subscribe to \(topic): \(child.error)")
    }
    return child
}

/// A publisher configuration for `broker` with every fix published and a fresh queue.
func publisherConfiguration(
    _ brokerURL: String, topic: String = "owntracks/acme/van7",
    queue: String = TemporaryDirectory("queue").path
) throws -> FleetPublisher.Configuration {
    var configuration = FleetPublisher.Configuration(broker: try BrokerURL(parsing: brokerURL), topic: topic)
    configuration.rateLimit = PublishRateLimiter(intervalSeconds: 0, minimumMoveMeters: 0, heartbeatSeconds: 0)
    configuration.queueDirectory = queue
    configuration.reconnectDelayMinimum = 0.2
    configuration.reconnectDelayMaximum = 1
    configuration.clientID = "test-\(UInt32.random(in: 0...UInt32.max))"
    return configuration
}

/// Waits until `nmea collect` (`collector`) has subscribed at the broker, as the broker logs it (with the client ID
/// and the filter the collector announced): messages published before that never reach a new collector; after it,
/// the broker keeps them for the collector's session. A collector started again with the same client ID subscribes
/// again: `times` is how many subscriptions of that ID to wait for in all.
func waitUntilSubscribed(_ collector: ChildProcess, at broker: Broker, times: Int = 1) -> Bool {
    guard let announced = waitFor(timeout: .seconds(15), { announcement(of: collector) }) else { return false }
    return waitUntil(timeout: .seconds(10)) {
        broker.subscriptions(of: announced.clientID, to: announced.filter) >= times
    }
}

/// The client ID and the topic filter `nmea collect` announces as it starts (`nmea collect: 'FILTER' from …
/// (client ID ID)`); `nil` until that line is complete.
func announcement(of collector: ChildProcess) -> (clientID: String, filter: String)? {
    let error = collector.error
    let complete = error[..<(error.lastIndex(of: "\n") ?? error.startIndex)]
    for line in complete.split(separator: "\n") where line.hasPrefix("nmea collect: '") && line.hasSuffix(")") {
        guard let filterEnd = line.range(of: "' from "), let idStart = line.range(of: " (client ID ") else { continue }
        let filter = line[line.index(line.startIndex, offsetBy: "nmea collect: '".count)..<filterEnd.lowerBound]
        return (String(line[idStart.upperBound...].dropLast()), String(filter))
    }
    return nil
}
