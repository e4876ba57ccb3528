import JSON
import Testing

/// The one JSON reader (OwnTracks messages, gpsd reports, gpsd client commands): values, escapes, errors, depth.
@Suite struct JSONValueTests {
    /// Found by the fuzzer: our writer writes a tiny `Double` in plain decimal (`5e-72` is `0.` and 71 zeros, then
    /// `5`), and the reader refused numbers over 64 characters. Every `Double` we write reads back, the extremes too.
    @Test func everyDoubleWeWriteReadsBack() throws {
        let values = [
            5e-72, 2.2250738585072014e-308, -2.2250738585072014e-308, 4.9e-324, 1.7976931348623157e308, -1e300,
        ]
        for value in values {
            var writer = JSONWriter()
            writer.number(value)
            #expect(writer.bytes.count > 64, "\(value)")
            #expect(try JSONValue(parsing: writer.bytes).number == value, "\(writer.string)")
        }
        // Still bounded: a number of 401 characters is refused, with the reason.
        let long = "1" + String(repeating: "0", count: 400)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(long.utf8) + [0x20]) }
    }

    @Test func values() throws {
        let text = #" {"a":[1,-2.5e3,true,false,null],"s":"x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","o":{}} "#
        let value = try JSONValue(parsing: Array(text.utf8))
        #expect(value["a"] == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]))
        #expect(value["s"]?.string == "x\"\\/\u{8}\u{C}\n\r\té😀")
        #expect(value["o"] == .object([:]))
        #expect(value["missing"] == nil)
        #expect(value["a"]?.array?.count == 5)
        #expect(value["a"]?.array?[2].bool == true)
        #expect(value.object?.count == 3)
        #expect(try JSONValue(parsing: Array("[]".utf8)) == .array([]))
        #expect(try JSONValue(parsing: Array("12".utf8)).integer == 12)
        #expect(try JSONValue(parsing: Array("-7.25".utf8)).number == -7.25)
        #expect(try JSONValue(parsing: Array("1.5".utf8)).integer == nil)
        #expect(try JSONValue(parsing: Array(#""Zürich""#.utf8)).string == "Zürich")
    }

    /// Short decimals take a fast path; every number must still be the double `strtod` gives.
    @Test func numbersAreTheCorrectlyRoundedDoubles() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "0.1", "0.3", "48.1374023", "-151.20929", "1796025600", "9007199254740993",
            "123456789012345.6", "0.000000000000000000000001", "1.7976931348623157e308", "5e-324", "2.5E-3",
        ]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            for position in 0..<digits {
                text += String(Int.random(in: 0...9, using: &generator))
                if position == Int.random(in: 0..<digits, using: &generator) && !text.contains(".") { text += "." }
            }
            if text.hasSuffix(".") { text += "5" }
            // RFC 8259 has no leading zeros (`007`, `-00.5`): the integer part loses them, keeping one before a point.
            let sign = text.hasPrefix("-") ? "-" : ""
            var unsigned = Substring(text.dropFirst(sign.count))
            while unsigned.hasPrefix("0") && unsigned.count > 1 && !unsigned.hasPrefix("0.") {
                unsigned = unsigned.dropFirst()
            }
            texts.append(sign + unsigned)
        }
        for text in texts {
            #expect(try JSONValue(parsing: Array(text.utf8)).number == Double(text), "\(text)")
        }
    }

    @Test func membersOneByOneWithoutTheObject() throws {
        var keys: [String] = []
        var values: [JSONValue] = []
        let text = #" {"b":1,"a":"x","n":{"c":[true]},"b":2} "#
        #expect(
            try JSONValue.forEachMember(ofObject: Array(text.utf8)) {
                keys.append($0)
                values.append($1)
            })
        #expect(keys == ["b", "a", "n", "b"])
        #expect(values == [.number(1), .string("x"), .object(["c": .array([.bool(true)])]), .number(2)])
        #expect(try JSONValue.forEachMember(ofObject: Array("[1]".utf8)) { _, _ in Issue.record("called") } == false)
        #expect(throws: JSONParseError(offset: 8, reason: "more after the root value")) {
            try JSONValue.forEachMember(ofObject: Array(#"{"a":1} x"#.utf8)) { _, _ in }
        }
    }

    @Test func unpairedSurrogatesBecomeReplacementCharactersAndLoseNothingElse() throws {
        #expect(try JSONValue(parsing: Array(#""\ud800\u0041""#.utf8)).string == "\u{FFFD}A")
        #expect(try JSONValue(parsing: Array(#""\udc00x""#.utf8)).string == "\u{FFFD}x")
        #expect(try JSONValue(parsing: Array(#""\ud800x""#.utf8)).string == "\u{FFFD}x")
    }

    @Test func errorsSayWhere() {
        for text in [
            "", "{", #"{"a"}"#, #"{"a":}"#, "[1,]", #""abc"#, #"{"a":1} x"#, "tru", "-", "1.", "01x", #"{"a" 1}"#,
            "\"a\u{1}\"", #""\x""#, String(repeating: "[", count: 100),
        ] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONValue(parsing: Array(text.utf8)) }
        }
        #expect(throws: JSONParseError(offset: 8, reason: "more after the root value")) {
            try JSONValue(parsing: Array(#"{"a":1} x"#.utf8))
        }
    }

    @Test func nestingIsBounded() throws {
        let deep = { (levels: Int) in String(repeating: "[", count: levels) + String(repeating: "]", count: levels) }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(deep(100).utf8)) }
        _ = try JSONValue(parsing: Array(deep(64).utf8))
        _ = try JSONValue(parsing: Array(deep(16).utf8), maximumDepth: 16)
        #expect(throws: JSONParseError(offset: 16, reason: "nested deeper than 16")) {
            try JSONValue(parsing: Array(deep(17).utf8), maximumDepth: 16)
        }
    }
}
