import Glibc

/// A Mosquitto broker of the test's (or benchmark's) own on a free loopback port, stopped by its PID.
///
///     let broker = try MosquittoBroker()
///     try broker.start()
///     … broker.url …                    // mqtt://127.0.0.1:PORT
///     broker.kill()                     // SIGKILL, as a crash would
public final class MosquittoBroker {
    /// The server side of TLS: the CA and the broker's certificate and key (PEM files).
    public struct TLS: Sendable {
        public var caCertificate: String
        public var serverCertificate: String
        public var serverKey: String

        public init(caCertificate: String, serverCertificate: String, serverKey: String) {
            self.caCertificate = caCertificate
            self.serverCertificate = serverCertificate
            self.serverKey = serverKey
        }
    }

    /// A broker cannot be set up or started.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public static let mosquitto = Tools.which("mosquitto")
    public static let mosquittoSub = Tools.which("mosquitto_sub")
    public static let mosquittoPasswd = Tools.which("mosquitto_passwd")
    /// `true` when the broker and its tools are installed.
    public static let isInstalled = mosquitto != nil && mosquittoSub != nil && mosquittoPasswd != nil

    public let port: Int
    public let directory: TemporaryDirectory
    /// The configuration file written by `init`.
    public let configuration: String
    private var child: ChildProcess?

    /// Writes the configuration: a listener on 127.0.0.1:`port`, no limit on queued or in-flight messages, no
    /// persistence unless asked (then saved every second), anonymous access unless `users` (name, password) are
    /// given.
    /// - Parameter logsPackets: log every packet too (mosquitto's `debug` log type), so that a test can count the
    ///   acknowledgements a subscriber sent (``acknowledgements(from:)``).
    public init(
        port: Int = Ports.freeTCP(), users: [(String, String)] = [], persistence: Bool = false, tls: TLS? = nil,
        logsPackets: Bool = false
    ) throws {
        self.port = port
        directory = TemporaryDirectory("broker")
        var lines = ["listener \(port) 127.0.0.1", "max_queued_messages 0", "max_inflight_messages 0"]
        // The default log types, and subscriptions, so that a test can wait until a subscriber is in place.
        lines += ["error", "warning", "notice", "information", "subscribe"].map { "log_type \($0)" }
        if logsPackets { lines.append("log_type debug") }
        if let tls {
            lines += ["cafile \(tls.caCertificate)", "certfile \(tls.serverCertificate)", "keyfile \(tls.serverKey)"]
        }
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            guard let mosquittoPasswd = Self.mosquittoPasswd else { throw Failure(description: "no mosquitto_passwd") }
            let passwords = directory.file("passwords")
            directory.write("", to: "passwords")
            for (user, password) in users {
                _ = try ChildProcess.run([mosquittoPasswd, "-b", passwords, user, password], timeout: .seconds(10))
            }
            lines += ["allow_anonymous false", "password_file \(passwords)"]
        }
        if persistence {
            lines += ["persistence true", "persistence_location \(directory.path)/", "autosave_interval 1"]
        }
        // Started as root, mosquitto would switch to the user 'mosquitto', which may not read our directory.
        if Tools.isRoot { lines.append("user root") }
        configuration = directory.file("mosquitto.conf")
        directory.write(lines.joined(separator: "\n") + "\n", to: "mosquitto.conf")
    }

    deinit {
        kill()
        directory.remove()
    }

    /// Starts the broker and waits (10 s at most) until it accepts connections.
    public func start() throws {
        guard let mosquitto = Self.mosquitto else { throw Failure(description: "mosquitto is not installed") }
        let child = try ChildProcess([mosquitto, "-c", configuration])
        self.child = child
        guard waitUntil(timeout: .seconds(10), { Ports.isListening(port) }) else {
            throw Failure(description: "mosquitto did not start: " + child.error)
        }
    }

    /// Sends `signal` to the broker (SIGKILL: as a crash would) and waits for it to end.
    public func kill(_ signal: Int32 = SIGKILL) {
        child?.stop(signal, timeout: .seconds(15))
        child = nil
    }

    /// What the broker has logged (on its standard error) since it started.
    public var log: String { child?.error ?? "" }

    /// Waits (10 s at most) until client `clientID` has subscribed to `topic` at `qos`, as the broker logs it;
    /// `false` if it did not.
    public func waitForSubscription(of clientID: String, to topic: String, qos: Int = 1) -> Bool {
        waitUntil(timeout: .seconds(10)) { subscriptions(of: clientID, to: topic, qos: qos) > 0 }
    }

    /// How many times client `clientID` has subscribed to `topic` at `qos` since the broker started (once per
    /// connection for a client that subscribes whenever it connects).
    public func subscriptions(of clientID: String, to topic: String, qos: Int = 1) -> Int {
        log.occurrences(of: ": \(clientID) \(qos) \(topic)\n")
    }

    /// The QoS 1 messages client `clientID` has acknowledged (PUBACK) since the broker started: for a subscriber that
    /// acknowledges only what it has stored (`nmea collect`), the messages it has dealt with. Needs `logsPackets`.
    public func acknowledgements(from clientID: String) -> Int {
        precondition(
            readTextFile(configuration).contains("log_type debug\n"), "counting acknowledgements needs logsPackets")
        return log.occurrences(of: ": Received PUBACK from \(clientID) (")
    }

    /// Waits (`timeout` at most) until the broker has saved its database (`persistence`) after everything it has
    /// logged so far, such as a subscription: a broker killed after that brings the session back. `false` if it did
    /// not.
    public func waitForSave(timeout: Duration = .seconds(10)) -> Bool {
        let saves = { self.log.occurrences(of: ": Saving in-memory database to ") }
        let before = saves()
        return waitUntil(timeout: timeout) { saves() > before }
    }

    /// The broker's process id while it runs.
    public var pid: pid_t? { child?.pid }

    /// `mqtt://127.0.0.1:PORT`.
    public var url: String { "mqtt://127.0.0.1:\(port)" }
    /// `mqtts://127.0.0.1:PORT`.
    public var tlsURL: String { "mqtts://127.0.0.1:\(port)" }
}

extension String {
    /// How many times `part` occurs in the text (without overlaps).
    fileprivate func occurrences(of part: String) -> Int {
        var count = 0
        var rest = self[...]
        while let range = rest.firstRange(of: part) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}
