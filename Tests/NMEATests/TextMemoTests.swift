import Testing

@testable import NMEA

/// A memo writes what its writer would, by copying when the key repeats, and by calling the writer otherwise: never
/// the text of another key, never a text cut by a flush.
@Suite struct TextMemoTests {
    /// Appends `keys` through one memo whose writer writes `<e>` and the key's digits `repeats` times, counting the
    /// writer's calls.
    private func write(_ keys: [UInt64], repeats: Int = 1, before: Int = 0) -> (text: String, calls: Int) {
        var out: [UInt8] = []
        var memo = TextMemo()
        var calls = 0
        TextBuffer.appending(to: &out) { buffer in
            for _ in 0..<before { buffer.append(UInt8(ascii: ".")) }
            for key in keys {
                buffer.append(memo: &memo, key: key) { buffer in
                    calls += 1
                    buffer.append("<e>")
                    for _ in 0..<repeats { DecimalFormatter.withText(Int(key)) { buffer.append($0) } }
                }
            }
        }
        return (String(decoding: out.dropFirst(before), as: UTF8.self), calls)
    }

    @Test func aRepeatedKeyIsCopiedAndANewOneWritten() {
        let (text, calls) = write([5, 5, 5, 70, 70, 5])
        #expect(text == "<e>5<e>5<e>5<e>70<e>70<e>5")
        #expect(calls == 3)  // 5, 70, 5: the memo keeps the last key only
    }

    /// Text longer than a memo holds is written every time, whole.
    @Test func longTextIsWrittenEachTime() {
        let (text, calls) = write([123_456_789, 123_456_789], repeats: 6)
        let one = "<e>" + String(repeating: "123456789", count: 6)
        #expect(one.utf8.count > TextMemo.capacity)
        #expect(text == one + one)
        #expect(calls == 2)
    }

    /// Text exactly a memo's capacity is kept.
    @Test func textOfTheWholeCapacityIsKept() {
        // "<e>" and 45 digits: 5 × 9.
        let (text, calls) = write([123_456_789, 123_456_789, 123_456_789], repeats: 5)
        #expect(text.utf8.count == 3 * TextMemo.capacity)
        #expect(calls == 1)
    }

    /// Near the end of the buffer, and across many flushes, every copy lands in order.
    @Test func copiesAcrossFlushesStayInOrder() {
        for before in [0, 1, TextBuffer.capacity - TextMemo.capacity - 1, TextBuffer.capacity - 3] {
            let keys = (0..<400).map { UInt64($0 / 3) }
            let (text, calls) = write(keys, repeats: 4, before: before)
            let expected = keys.map { "<e>" + String(repeating: String($0), count: 4) }.joined()
            #expect(text == expected, "before: \(before)")
            #expect(calls == 134)
        }
    }

    /// A writer that flushes part-way (text longer than the room left) is not kept: the next same key writes again.
    @Test func textCutByAFlushIsNotKept() {
        var out: [UInt8] = []
        var memo = TextMemo()
        var calls = 0
        TextBuffer.appending(to: &out) { buffer in
            for _ in 0..<2 {
                buffer.append(memo: &memo, key: 1) { buffer in
                    calls += 1
                    for _ in 0..<(TextBuffer.capacity / 8) { buffer.append("12345678") }
                    buffer.append("x")
                }
            }
        }
        #expect(out.count == 2 * (TextBuffer.capacity + 1))
        #expect(calls == 2)
    }
}
