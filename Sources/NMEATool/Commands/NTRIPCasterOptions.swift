import Fleet
import NTRIP
import Pipeline
import System
import Threading

/// `serve --ntrip-caster [ADDR:]PORT/MOUNT` and `--ntrip-caster-users FILE`: the RTCM 3 the source sends, served to
/// NTRIP clients.
struct NTRIPCasterOptions {
    private static let caster = Option<(listen: ListenAddress, mount: String)?>(
        long: "ntrip-caster", valueName: "[addr:]port/mount",
        help: "Also serve the source's RTCM 3 frames to NTRIP 1 and 2 clients on this mount point (127.0.0.1 "
            + "unless an address is given)."
    ) { text throws(ValueError) in
        guard let slash = text.lastIndex(of: "/"), let listen = ListenAddress(parsing: String(text[..<slash])) else {
            throw .invalid(text, because: "expected [ADDR:]PORT/MOUNT, such as 0.0.0.0:2101/BASE1")
        }
        let mount = String(text[text.index(after: slash)...])
        guard !mount.isEmpty, mount.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else { throw .invalid(text, because: "a mount point is letters, digits, '-', '_' and '.'") }
        return (listen, mount)
    }
    private static let users = Option<String?>(
        long: "ntrip-caster-users", valueName: "file",
        help: "Ask clients for a login from this file of user:hash lines, as 'htpasswd -B' writes them.",
        completion: .file)

    static let options: [any OptionDeclaration] = [caster, users]

    let configuration: NTRIPCaster.Configuration?

    init(_ arguments: ParsedArguments) throws {
        guard let (listen, mount) = try arguments.value(Self.caster) else {
            if arguments.isGiven(Self.users) {
                throw arguments.usageError("--ntrip-caster-users goes with --ntrip-caster [ADDR:]PORT/MOUNT")
            }
            configuration = nil
            return
        }
        var configuration = NTRIPCaster.Configuration(listen: listen, mount: mount)
        configuration.server = "swift-nmea/\(toolVersion)"
        if let path = try arguments.value(Self.users) {
            let list: UserList
            do {
                list = try UserList.load(path)
            } catch {
                throw RuntimeError(error.description)
            }
            configuration.authorize = Self.checker(list)
        }
        self.configuration = configuration
    }

    /// Checks a login against `list`; a login that passed is remembered (bcrypt takes tens of milliseconds, on
    /// the caster's one socket thread), so a client that reconnects costs nothing.
    private static func checker(_ list: UserList) -> @Sendable (String, [UInt8]) -> Bool {
        let passed = Locked<Set<[UInt8]>>([])
        return { user, password in
            let key = Array(user.utf8) + [0] + password
            if passed.withLock({ $0.contains(key) }) { return true }
            guard let hash = list.hashes[user], hash.verifies(password) else { return false }
            passed.withLock { if $0.count < 1024 { $0.insert(key) } }
            return true
        }
    }

    /// The caster on `pipeline` (made before the pipeline starts), listening.
    func start(on pipeline: ReceiverPipeline, console: StatusLine) throws -> NTRIPCaster? {
        guard let configuration else { return nil }
        let caster = NTRIPCaster(pipeline: pipeline, configuration: configuration)
        do {
            try caster.start()
        } catch {
            throw RuntimeError("--ntrip-caster: \(error)")
        }
        console.print(
            "NTRIP caster on \(caster.boundAddress ?? configuration.listen), mount point \(configuration.mount)")
        return caster
    }

    static func summary(_ caster: NTRIPCaster) -> String {
        let statistics = caster.statistics
        return "NTRIP caster: \(counted(statistics.frames, "RTCM frame")) (\(statistics.bytes) bytes) from the "
            + "source; \(counted(statistics.streamed, "client")) streamed, \(statistics.sourcetables) sourcetables, "
            + "\(statistics.unauthorized) logins refused, \(statistics.refused) over the limit, "
            + "\(statistics.disconnectedSlow) dropped for not reading"
    }
}
