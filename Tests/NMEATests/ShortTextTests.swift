import Testing

@testable import NMEA

@Suite struct ShortTextTests {
    @Test func fromString() {
        let text = ShortText("WGS 84")
        #expect(text.string == "WGS 84")
        #expect(text.description == "WGS 84")
        #expect(text.count == 6)
        #expect(!text.isEmpty)
        #expect(!text.isTruncated)
        #expect(text.withBytes { Array($0) } == Array("WGS 84".utf8))
    }

    @Test func fromBytes() {
        let bytes = Array("ANTSTATUS=OK".utf8)
        let text = bytes.withUnsafeBytes { ShortText($0) }
        #expect(text == "ANTSTATUS=OK")
        #expect(text.count == 12)
    }

    @Test func empty() {
        let text = ShortText("")
        #expect(text.isEmpty)
        #expect(text.count == 0)
        #expect(text.string == "")
        #expect(text == "")
        let fromNothing = ShortText(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(fromNothing == text)
    }

    @Test func exactlyTheCapacityIsKept() {
        let full = String(repeating: "x", count: ShortText.capacity)
        let text = ShortText(full)
        #expect(text.count == 80)
        #expect(!text.isTruncated)
        #expect(text.string == full)
    }

    @Test func longerTextIsTruncated() {
        let long = String(repeating: "0123456789", count: 10)
        let text = ShortText(long)
        #expect(text.count == 80)
        #expect(text.isTruncated)
        #expect(text.string == String(long.prefix(80)))
    }

    @Test func equalityAndHashing() {
        #expect(ShortText("W84") == "W84")
        #expect(ShortText("W84") != "W72")
        #expect(ShortText("W8") != "W84")
        #expect(ShortText("W84").hashValue == ShortText("W84").hashValue)
        #expect(Set<ShortText>(["W84", "W84", "P90"]).count == 2)
    }

    @Test func invalidUTF8IsRepairedInStringButKeptInBytes() {
        let bytes: [UInt8] = [0x41, 0xFF, 0x42]
        let text = bytes.withUnsafeBytes { ShortText($0) }
        #expect(text.string == "A\u{FFFD}B")
        #expect(text.withBytes { Array($0) } == bytes)
    }

    @Test func multibyteCharacters() {
        let text = ShortText("Zürich")
        #expect(text.count == 7)
        #expect(text.string == "Zürich")
    }
}
