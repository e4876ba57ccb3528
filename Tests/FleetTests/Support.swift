import Fleet
import Foundation
import NMEA
import Synchronization
import Testing

/// Helpers for the fleet tests: fixes with known values, temporary directories, the built `nmea`, and brokers.
enum Support {
    /// A fix at `seconds` since 1970 with the given values.
    static func fix(seconds: Int64, latitude: Double, longitude: Double, altitude: Double? = 520,
                    speed: Double? = 12.5, course: Double? = 45, hdop: Double? = 0.8) -> Fix {
        let days = Int(seconds / 86_400)
        let second = Int(seconds % 86_400)
        var fix = Fix(date: UTCDate(daysSinceEpoch: days),
                      time: UTCTime(hour: UInt8(second / 3600), minute: UInt8(second / 60 % 60),
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

    /// A new empty directory.
    /// Removed when the test process exits.
    static func temporaryDirectory(_ name: String = #function) -> String {
        let clean = name.filter { $0.isLetter || $0.isNumber }
        let path = FileManager.default.temporaryDirectory.path
            + "/fleet-\(clean)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        temporaryDirectories.withLock { directories in
            if directories.isEmpty { atexit { Support.removeTemporaryDirectories() } }
            directories.append(path)
        }
        return path
    }

    private static let temporaryDirectories = Mutex<[String]>([])

    private static func removeTemporaryDirectories() {
        for path in temporaryDirectories.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The built `nmea`, found beside the test runner.
    static let tool: String = {
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: runner).deletingLastPathComponent()
        while directory.path != "/" && !FileManager.default.isExecutableFile(atPath: directory.path + "/nmea") {
            directory.deleteLastPathComponent()
        }
        return directory.path + "/nmea"
    }()

    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in (path + ":/usr/sbin:/sbin").split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let mosquitto = which("mosquitto")
    static let mosquittoSub = which("mosquitto_sub")
    static let mosquittoPasswd = which("mosquitto_passwd")
    static let hasBroker = mosquitto != nil && mosquittoSub != nil && mosquittoPasswd != nil

    /// A TCP port on 127.0.0.1 that nothing listens on (bound and released by the kernel's choice).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                _ = bind(fd, raw, length)
                _ = getsockname(fd, raw, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `true` when something accepts TCP connections on 127.0.0.1:`port`.
    static func isListening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Waits until `condition` holds or `timeout` seconds pass; returns whether it held.
    @discardableResult
    static func waitFor(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Times in a GPX file (`<time>…</time>` of its points), in file order.
    static func gpxTimes(_ path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var times: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<time>"), let close = rest.range(of: "</time>", range: open.upperBound..<rest.endIndex) {
            times.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return times
    }

    /// The ISO time of `drive(n)`.
    static func driveTime(_ n: Int) -> String {
        ISOTime.string((start + Int64(n)) * 1_000_000_000)
    }
}

/// A child process started with `posix_spawn`, with an empty signal mask and default signal actions (the test
/// runner's threads block SIGINT and SIGTERM, and children would inherit that), its output in files.
final class Child {
    let pid: pid_t
    let outputPath: String
    let errorPath: String
    private(set) var status: Int32?

    init(_ executable: String, _ arguments: [String]) throws {
        let directory = Support.temporaryDirectory("child")
        outputPath = directory + "/out"
        errorPath = directory + "/err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw BrokerError(message: "cannot start \(executable): \(result)") }
        pid = child
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var error: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
    var lines: [String] { output.split(separator: "\n").map(String.init) }

    /// `true` while the process has not ended.
    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
            status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            return false
        }
        return true
    }

    /// The exit status (128 + signal for a signal), once it ended.
    var terminationStatus: Int32 { _ = isRunning; return status ?? -1 }

    /// Sends `signal` and waits; returns the exit status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        if isRunning {
            kill(pid, signal)
            if !Support.waitFor(15, { !isRunning }) {
                kill(pid, SIGKILL)
                Support.waitFor(5) { !isRunning }
            }
        }
        return status ?? -1
    }

    /// Waits up to `timeout` seconds for the process to end by itself.
    func wait(_ timeout: Double) -> Bool {
        Support.waitFor(timeout) { !isRunning }
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = Support.waitFor(5) { !isRunning }
        }
    }
}

/// A Mosquitto broker of the test's own on a free loopback port, stopped by its PID.
final class Broker {
    let port: Int
    let directory: String
    private var child: Child?
    let configuration: String

    /// Writes the configuration: a listener on 127.0.0.1:`port`, anonymous access unless `users` are given,
    /// persistence (saved every second) when asked.
    init(port: Int = Support.freePort(), users: [(String, String)] = [], persistence: Bool = false,
         tls: TLSFiles? = nil) throws {
        self.port = port
        directory = Support.temporaryDirectory("broker")
        var lines = ["listener \(port) 127.0.0.1", "max_queued_messages 0", "max_inflight_messages 0"]
        if let tls {
            lines += ["cafile \(tls.caCertificate)", "certfile \(tls.serverCertificate)", "keyfile \(tls.serverKey)"]
        }
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwords = directory + "/passwords"
            _ = FileManager.default.createFile(atPath: passwords, contents: nil)
            for (user, password) in users {
                let tool = try Child(Support.mosquittoPasswd!, ["-b", passwords, user, password])
                _ = tool.wait(10)
            }
            lines += ["allow_anonymous false", "password_file \(passwords)"]
        }
        if persistence {
            lines += ["persistence true", "persistence_location \(directory)/", "autosave_interval 1"]
        }
        // Started as root, mosquitto would switch to the user 'mosquitto', which may not read our directory.
        if getuid() == 0 { lines.append("user root") }
        configuration = directory + "/mosquitto.conf"
        try (lines.joined(separator: "\n") + "\n").write(toFile: configuration, atomically: true, encoding: .utf8)
    }

    /// Starts the broker and waits until it accepts connections.
    func start() throws {
        let child = try Child(Support.mosquitto!, ["-c", configuration])
        self.child = child
        guard Support.waitFor(10, { Support.isListening(port) }) else {
            throw BrokerError(message: "mosquitto did not start: " + child.error)
        }
    }

    /// Kills the broker by its PID with `signal` and waits for it to end.
    func kill(_ signal: Int32 = SIGKILL) {
        child?.stop(signal)
        child = nil
    }

    deinit {
        kill(SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }

    var url: String { "mqtt://127.0.0.1:\(port)" }
    var tlsURL: String { "mqtts://127.0.0.1:\(port)" }
}

/// A CA and a server certificate for 127.0.0.1 signed by it, made with openssl.
struct TLSFiles {
    var caCertificate: String
    var serverCertificate: String
    var serverKey: String

    static let openssl = Support.which("openssl")

    /// Makes a fresh CA (and, unless `serverFor` is given, a server certificate signed by it) in a new directory.
    static func make(signedBy other: TLSFiles? = nil) throws -> TLSFiles {
        let directory = Support.temporaryDirectory("tls")
        func run(_ arguments: [String]) throws {
            let tool = try Child(openssl!, arguments)
            guard tool.wait(30), tool.terminationStatus == 0 else {
                throw BrokerError(message: "openssl \(arguments.joined(separator: " ")): \(tool.error)")
            }
        }
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(["req", "-x509"] + curve + ["-keyout", directory + "/ca.key", "-out", directory + "/ca.crt",
                 "-days", "2", "-subj", "/CN=swift-nmea test CA"])
        try run(["req"] + curve + ["-keyout", directory + "/server.key", "-out", directory + "/server.csr",
                 "-subj", "/CN=127.0.0.1"])
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: directory + "/san.ext", atomically: true, encoding: .utf8)
        try run(["x509", "-req", "-in", directory + "/server.csr", "-CA", directory + "/ca.crt", "-CAkey",
                 directory + "/ca.key", "-CAcreateserial", "-out", directory + "/server.crt", "-days", "2",
                 "-extfile", directory + "/san.ext"])
        return TLSFiles(caCertificate: directory + "/ca.crt", serverCertificate: directory + "/server.crt",
                        serverKey: directory + "/server.key")
    }
}

struct BrokerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A `mosquitto_sub` printing `topic payload` lines, started and subscribed before it returns.
func subscriber(_ broker: Broker, topic: String, count: Int? = nil, extra: [String] = []) throws -> Child {
    var arguments = ["-h", "127.0.0.1", "-p", String(broker.port), "-t", topic, "-q", "1", "-v"] + extra
    if let count { arguments += ["-C", String(count)] }
    let child = try Child(Support.mosquittoSub!, arguments)
    usleep(300_000)  // let it subscribe
    return child
}

/// A publisher configuration for `broker` with every fix published and a fresh queue.
func publisherConfiguration(_ brokerURL: String, topic: String = "owntracks/acme/van7",
                            queue: String = Support.temporaryDirectory("queue")) throws -> FleetPublisher.Configuration {
    var configuration = FleetPublisher.Configuration(broker: try BrokerURL(parsing: brokerURL), topic: topic)
    configuration.rateLimit = PublishRateLimiter(intervalSeconds: 0, minimumMoveMeters: 0, heartbeatSeconds: 0)
    configuration.queueDirectory = queue
    configuration.reconnectDelayMinimum = 0.2
    configuration.reconnectDelayMaximum = 1
    configuration.clientID = "test-\(UInt32.random(in: 0...UInt32.max))"
    return configuration
}
