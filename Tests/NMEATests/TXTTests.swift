import Testing

@testable import NMEA

@Suite struct TXTTests {
    static let example = "$GPTXT,01,01,02,ANTSTATUS=OK*3B"

    @Test func antennaStatus() throws {
        let txt = try TXT(parsing: Self.example)
        #expect(txt == TXT(talker: .gps, totalMessages: 1, messageNumber: 1, identifier: 2, text: "ANTSTATUS=OK"))
        #expect(txt.text.string == "ANTSTATUS=OK")
        #expect(!txt.text.isTruncated)
    }

    /// The text is everything after the third field, commas included.
    @Test func textWithCommas() throws {
        let txt = try TXT(parsing: "$GNTXT,01,01,02,ROM CORE 3.01 (107888),PROTVER 18.00*58")
        #expect(
            txt
                == TXT(
                    talker: .gnss, totalMessages: 1, messageNumber: 1, identifier: 2,
                    text: "ROM CORE 3.01 (107888),PROTVER 18.00"))
    }

    @Test func multipartMessage() throws {
        let txt = try TXT(parsing: "$GNTXT,03,02,01,MOD=NEO-M9N-00B*16")
        #expect(txt.totalMessages == 3)
        #expect(txt.messageNumber == 2)
        #expect(txt.identifier == 1)
        #expect(txt.text == "MOD=NEO-M9N-00B")
    }

    @Test func escapesAreLeftAsSent() throws {
        let txt = try TXT(parsing: "$GPTXT,01,01,07,A^2CB^5EC*09")
        #expect(txt.text.string == "A^2CB^5EC")
    }

    @Test func emptyText() throws {
        let txt = try TXT(parsing: "$GPTXT,01,01,02,*4D")
        #expect(txt.text.isEmpty)
        #expect(txt.text == "")
    }

    @Test func emptyNumbersAreNil() throws {
        #expect(
            try TXT(parsing: "$GPTXT,,,,hello*2D")
                == TXT(
                    talker: .gps, totalMessages: nil, messageNumber: nil, identifier: nil, text: "hello"))
    }

    @Test func textLongerThan80BytesIsTruncated() throws {
        let long = String(repeating: "0123456789", count: 9)
        let txt = try TXT(parsing: withChecksum("$GPTXT,01,01,02," + long))
        #expect(txt.text.isTruncated)
        #expect(txt.text.count == 80)
        #expect(txt.text.string == String(long.prefix(80)))
    }

    @Test(arguments: [
        (1, "x1", NMEAError.badField(index: 1, reason: .notANumber)),
        (2, "1x", .badField(index: 2, reason: .notANumber)),
        (3, "0x2", .badField(index: 3, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try TXT(parsing: replacingField(index, of: Self.example, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(TXT.self, Self.example, keeping: 3)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try TXT(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .txt, found: .rmc)) { try TXT(parsing: RMCTests.textbook) }
    }
}
