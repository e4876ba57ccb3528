import JSON
import NMEA

/// A request from a gpsd client, as `gpsd_json(5)` spells them: `?WATCH={"enable":true,"json":true};`,
/// `?POLL;`, `?DEVICES;`, `?VERSION;`, `?DEVICE;`.
enum ClientCommand: Equatable {
    /// `?WATCH;` (report the policy) or `?WATCH={…}` (change it).
    case watch(WatchRequest?)
    case poll
    case devices
    case version
    /// `?DEVICE;` (report the device); `?DEVICE={…}` (change its settings) is refused.
    case device(changes: Bool)
    /// Anything else: answered with an ERROR carrying `message`.
    case invalid(message: String)
}

/// The fields of a `?WATCH={…}` argument; `nil` when not given.
struct WatchRequest: Equatable {
    var enable: Bool?
    var json: Bool?
    var nmea: Bool?
    var raw: Int?
    var scaled: Bool?
    var timing: Bool?
    var split24: Bool?
    var pps: Bool?
    var device: String?

    /// The fields of `object`; an error message when one has the wrong type.
    init(_ object: [String: JSONValue]) throws(CommandError) {
        func flag(_ name: String) throws(CommandError) -> Bool? {
            switch object[name] {
            case nil: return nil
            case .bool(let value)?: return value
            case .number(let value)?: return value != 0
            default: throw CommandError("Invalid WATCH: '\(name)' must be true or false")
            }
        }
        enable = try flag("enable")
        json = try flag("json")
        nmea = try flag("nmea")
        scaled = try flag("scaled")
        timing = try flag("timing")
        split24 = try flag("split24")
        pps = try flag("pps")
        switch object["raw"] {
        case nil: raw = nil
        case .number(let value)? where value >= 0 && value <= 2 && value == value.rounded(): raw = Int(value)
        case .bool(let value)?: raw = value ? 1 : 0
        default: throw CommandError("Invalid WATCH: 'raw' must be 0, 1 or 2")
        }
        switch object["device"] {
        case nil: device = nil
        case .string(let path)?: device = path
        default: throw CommandError("Invalid WATCH: 'device' must be a string")
        }
    }

    init() {}

    /// `policy` with these fields applied. Enabling without saying what to send means JSON reports, as every
    /// client that enables at all wants them.
    func applied(to policy: WatchPolicy) -> WatchPolicy {
        var result = policy
        if let enable { result.enable = enable }
        if let json { result.json = json }
        if let nmea { result.nmea = nmea }
        if let raw { result.raw = raw }
        if let scaled { result.scaled = scaled }
        if let timing { result.timing = timing }
        if let split24 { result.split24 = split24 }
        if let pps { result.pps = pps }
        if let device { result.device = device }
        if enable == true && json == nil && nmea == nil && raw == nil && !result.nmea && result.raw == 0 {
            result.json = true
        }
        return result
    }
}

struct CommandError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Finds the commands in the bytes a client has sent so far.
///
/// Commands may share a line (`?WATCH={…};?POLL;`), may end in `;`, a newline, or nothing (libgps sends
/// `?WATCH={…};` with no newline), and a JSON argument may contain `;` inside strings. A command is complete once
/// its terminator or the closing brace of its argument has arrived; otherwise the scanner waits for more bytes. Text
/// that is not a command is answered up to the end of its line. Nothing here traps on any input: a lone `?`, binary
/// noise, unbalanced braces, deep nesting and invalid UTF-8 all become ERROR replies.
enum CommandScanner {
    /// The deepest JSON nesting accepted in a command's argument (clients send flat objects).
    static let maximumJSONDepth = 16

    /// What one scan found.
    struct Scan: Equatable {
        var commands: [ClientCommand] = []
        /// Bytes consumed from the start of the input (complete commands and the separators between them).
        var consumed = 0
        /// A command longer than the limit, complete or not: the client is to be told and disconnected.
        var overflow = false
    }

    /// Scans `input` for complete commands, each at most `maximumLength` bytes.
    /// - Complexity: O(*n*) in the bytes scanned.
    static func scan(_ input: UnsafeRawBufferPointer, maximumLength: Int) -> Scan {
        var scan = Scan()
        var index = 0
        let count = input.count
        while index < count {
            let byte = input[index]
            if byte == UInt8(ascii: ";") || isSpace(byte) {
                index += 1
                scan.consumed = index
                continue
            }
            let start = index
            guard let end = commandEnd(input, from: start) else {
                // Incomplete: wait for more, unless it is already too long.
                if count - start > maximumLength { scan.overflow = true }
                return scan
            }
            if end.next - start > maximumLength + 1 {
                scan.overflow = true
                return scan
            }
            scan.commands.append(command(UnsafeRawBufferPointer(rebasing: input[start..<end.text])))
            index = end.next
            scan.consumed = index
        }
        return scan
    }

    /// Where the command starting at `start` ends: `text` is its end (exclusive, terminator not included), `next`
    /// where scanning resumes. `nil` while incomplete.
    private static func commandEnd(_ input: UnsafeRawBufferPointer, from start: Int) -> (text: Int, next: Int)? {
        let count = input.count
        guard input[start] == UInt8(ascii: "?") else { return lineEnd(input, from: start) }
        var index = start + 1
        while index < count, isNameByte(input[index]) { index += 1 }
        guard index < count else { return nil }
        switch input[index] {
        case UInt8(ascii: ";"): return (index, index + 1)
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return (index, index + 1)
        case UInt8(ascii: "="):
            index += 1
            guard index < count else { return nil }
            guard input[index] == UInt8(ascii: "{") else { return lineEnd(input, from: start) }
            // The end of the object: braces balanced outside strings. A newline outside a string before then ends
            // the (malformed) command.
            var depth = 0
            var inString = false
            var escaped = false
            while index < count {
                let byte = input[index]
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    } else if byte == UInt8(ascii: "\n") {
                        return (index, index + 1)
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            let end = index + 1
                            return (end, end < count && input[end] == UInt8(ascii: ";") ? end + 1 : end)
                        }
                    case UInt8(ascii: "\n"): return (index, index + 1)
                    default: break
                    }
                }
                index += 1
            }
            return nil
        default:
            return lineEnd(input, from: start)
        }
    }

    /// The end of the line starting at `start`, or `nil` when its newline has not arrived.
    private static func lineEnd(_ input: UnsafeRawBufferPointer, from start: Int) -> (text: Int, next: Int)? {
        var index = start
        while index < input.count {
            if input[index] == UInt8(ascii: "\n") { return (index, index + 1) }
            index += 1
        }
        return nil
    }

    /// The command `text` (from its `?`, without its terminator) stands for.
    static func command(_ text: UnsafeRawBufferPointer) -> ClientCommand {
        var end = text.count
        while end > 0, isSpace(text[end - 1]) || text[end - 1] == UInt8(ascii: ";") { end -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: text[..<end])
        guard text.first == UInt8(ascii: "?") else { return .invalid(message: "Unrecognized request '\(quote(text))'") }
        var nameEnd = 1
        while nameEnd < text.count, isNameByte(text[nameEnd]) { nameEnd += 1 }
        let name = String(decoding: text[1..<nameEnd], as: UTF8.self)
        let hasArgument = nameEnd < text.count && text[nameEnd] == UInt8(ascii: "=")
        if nameEnd < text.count && !hasArgument {
            return .invalid(message: "Unrecognized request '\(quote(text))'")
        }
        let argument = hasArgument ? UnsafeRawBufferPointer(rebasing: text[(nameEnd + 1)...]) : nil
        switch name {
        case "WATCH":
            guard let argument else { return .watch(nil) }
            do throws(CommandError) {
                let value: JSONValue
                do {
                    value = try JSONValue(parsing: argument, maximumDepth: Self.maximumJSONDepth)
                } catch {
                    throw CommandError("JSON \(error.reason)")
                }
                guard case .object(let object) = value else {
                    throw CommandError("Invalid WATCH: the argument must be a JSON object")
                }
                return .watch(try WatchRequest(object))
            } catch {
                return .invalid(
                    message: error.message.hasPrefix("Invalid WATCH")
                        ? error.message
                        : "Invalid WATCH: \(error.message)")
            }
        case "POLL" where argument == nil: return .poll
        case "DEVICES" where argument == nil: return .devices
        case "VERSION" where argument == nil: return .version
        case "DEVICE": return .device(changes: argument != nil)
        default: return .invalid(message: "Unrecognized request '\(quote(text))'")
        }
    }

    /// At most 32 characters of `text`, printable ASCII only (for ERROR messages).
    static func quote(_ text: UnsafeRawBufferPointer) -> String { TextEscaping.printableASCII(text, limit: 32) }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n")
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}

/// The command scanner as the fuzz target in `Fuzz/` drives it (`@_spi(Fuzzing) import Publisher`); not API.
@_spi(Fuzzing)
public enum CommandScannerProbe {
    /// What ``CommandScanner/scan(_:maximumLength:)`` finds in `input`: each command described (a `?WATCH={…}`
    /// with its policy applied to the default one and written as the server reports it), the bytes consumed, and
    /// whether a command was too long.
    public static func scan(
        _ input: UnsafeRawBufferPointer, maximumLength: Int
    ) -> (commands: [String], consumed: Int, overflow: Bool) {
        let scan = CommandScanner.scan(input, maximumLength: maximumLength)
        let commands = scan.commands.map { command in
            guard case .watch(let request?) = command else { return String(describing: command) }
            var json = JSONWriter()
            GPSDReports.writeWatch(request.applied(to: WatchPolicy()), into: &json)
            return json.string
        }
        return (commands, scan.consumed, scan.overflow)
    }
}
