import JSON
import Testing

@testable import Publisher

/// Client commands: framing, arguments, and every kind of malformed input answered without trapping.
@Suite struct CommandScannerTests {
    func scan(_ text: String, limit: Int = 4096) -> CommandScanner.Scan {
        Array(text.utf8).withUnsafeBytes { CommandScanner.scan($0, maximumLength: limit) }
    }

    @Test func recognisesTheCommandsClientsSend() {
        let found = scan("?WATCH={\"enable\":true,\"json\":true};\r\n?POLL;?DEVICES;\n?VERSION;?DEVICE;?WATCH;")
        var watch = WatchRequest()
        watch.enable = true
        watch.json = true
        #expect(found.commands == [.watch(watch), .poll, .devices, .version, .device(changes: false), .watch(nil)])
        #expect(!found.overflow)
        #expect(
            found.consumed
                == Array("?WATCH={\"enable\":true,\"json\":true};\r\n?POLL;?DEVICES;\n?VERSION;?DEVICE;?WATCH;".utf8)
                .count)
    }

    @Test func waitsForTheRestOfACommand() {
        let partial = scan("?POLL;?WATCH={\"enable\":tr")
        #expect(partial.commands == [.poll])
        #expect(partial.consumed == 6)
        #expect(scan("?POL").commands.isEmpty)
        #expect(scan("?POL").consumed == 0)
        // The Python client's form: a newline and no semicolon.
        #expect(scan("?WATCH={\"enable\":true}\n").commands.count == 1)
        // libgps's form: a semicolon and no newline.
        #expect(scan("?WATCH={\"enable\":true};").commands.count == 1)
        // A semicolon or brace inside a string does not end the argument.
        let quoted = scan("?WATCH={\"device\":\"/dev/a;b}\",\"enable\":true};")
        guard case .watch(let request?)? = quoted.commands.first else {
            Issue.record("no WATCH in \(quoted)")
            return
        }
        #expect(request.device == "/dev/a;b}")
    }

    @Test func answersUnknownAndMalformedCommandsWithErrors() {
        func message(_ text: String) -> String? {
            guard case .invalid(let message)? = scan(text).commands.first else { return nil }
            return message
        }
        #expect(message("?FOO;") == "Unrecognized request '?FOO'")
        #expect(message("hello\n") == "Unrecognized request 'hello'")
        #expect(message("?WATCH={\"enable\":yes};")?.hasPrefix("Invalid WATCH") == true)
        #expect(message("?WATCH={\"enable\":\"true\"};") == "Invalid WATCH: 'enable' must be true or false")
        #expect(message("?WATCH={\"raw\":7};") == "Invalid WATCH: 'raw' must be 0, 1 or 2")
        #expect(message("?WATCH=[1,2];\n")?.hasPrefix("Invalid WATCH") == true)
        #expect(message("?WATCH={\"a\":\n")?.hasPrefix("Invalid WATCH") == true)
        #expect(message("?POLL=1;\n")?.hasPrefix("Unrecognized request") == true)
        #expect(message("?DEVICE={\"path\":\"/dev/x\",\"bps\":4800};") == nil)
        #expect(scan("?DEVICE={\"path\":\"/dev/x\",\"bps\":4800};").commands == [.device(changes: true)])
        #expect(message("?\n") == "Unrecognized request '?'")
        #expect(message("\u{1}\u{2}\u{7F}\n") == "Unrecognized request '???'")
        let deep = "?WATCH=" + String(repeating: "{\"a\":", count: 40) + "1" + String(repeating: "}", count: 40) + ";"
        #expect(message(deep) == "Invalid WATCH: JSON nested deeper than 16")
    }

    @Test func flagsCommandsLongerThanTheLimit() {
        let long = "?WATCH={\"device\":\"" + String(repeating: "x", count: 5000) + "\"};"
        #expect(scan(long).overflow)
        // Incomplete, but already too long.
        #expect(scan(String(repeating: "y", count: 4097)).overflow)
        #expect(!scan(String(repeating: "y", count: 4096)).overflow)
        // Commands before the long one are still found.
        let mixed = scan("?POLL;" + String(repeating: "z", count: 5000))
        #expect(mixed.commands == [.poll])
        #expect(mixed.overflow)
    }

    @Test func enablingWithoutSayingWhatMeansJSON() {
        var request = WatchRequest()
        request.enable = true
        #expect(request.applied(to: WatchPolicy()).json)
        request.nmea = true
        let nmeaOnly = request.applied(to: WatchPolicy())
        #expect(!nmeaOnly.json && nmeaOnly.nmea && nmeaOnly.wantsSentences && !nmeaOnly.wantsReports)
        var off = WatchRequest()
        off.enable = false
        #expect(!off.applied(to: request.applied(to: WatchPolicy())).wantsSentences)
    }

    /// Random bytes, random cuts of valid commands, random JSON-ish text: the scanner and parser never trap and
    /// always make progress or wait.
    @Test func survivesRandomInput() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("?{}[]\":,;=\\ \n\r\ttrue false null 0123456789.eE+-WATCHPOLLDEVICES".utf8)
        let valid = Array("?WATCH={\"enable\":true,\"json\":true,\"nmea\":false,\"device\":\"/dev/ttyACM0\"};".utf8)
        for round in 0..<3000 {
            var bytes: [UInt8]
            switch round % 3 {
            case 0:
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            case 1:
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }
            default:
                bytes = valid
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let position = Int.random(in: 0..<bytes.count, using: &generator)
                    bytes[position] = alphabet.randomElement(using: &generator)!
                }
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            }
            let found = bytes.withUnsafeBytes { CommandScanner.scan($0, maximumLength: 256) }
            #expect(found.consumed <= bytes.count)
            _ = try? JSONValue(parsing: bytes, maximumDepth: CommandScanner.maximumJSONDepth)
        }
    }

    @Test func jsonParserReadsWhatClientsSend() throws {
        let text =
            #"{"enable" : true, "n": -12.5e1, "s": "a\"\\\/\u00e9\ud83d\ude00", "a": [null, false, {}], "o": {}}"#
        let value = try JSONValue(parsing: Array(text.utf8), maximumDepth: CommandScanner.maximumJSONDepth)
        #expect(
            value
                == .object([
                    "enable": .bool(true), "n": .number(-125), "s": .string("a\"\\/é😀"),
                    "a": .array([.null, .bool(false), .object([:])]), "o": .object([:]),
                ]))
    }
}
