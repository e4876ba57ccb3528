import Testing

@testable import NMEA

@Suite struct FixedListTests {
    @Test func startsEmpty() {
        let list = FixedList<4, Int>()
        #expect(list.isEmpty)
        #expect(list.count == 0)
        #expect(!list.isFull)
        #expect(Array(list) == [])
        #expect(list.startIndex == 0 && list.endIndex == 0)
    }

    @Test func appendUntilFull() {
        var list = FixedList<3, UInt16>()
        let appended = [list.append(120), list.append(201)]
        #expect(appended == [true, true])
        #expect(!list.isFull)
        let third = list.append(7)
        #expect(third)
        #expect(list.isFull)
        let fourth = list.append(8)
        #expect(!fourth)
        #expect(list.count == 3)
        #expect(Array(list) == [120, 201, 7])
        #expect(list[0] == 120 && list[2] == 7)
        #expect(list.last == 7)
        #expect(list.reversed() == [7, 201, 120])
    }

    @Test func arrayLiteralDropsWhatDoesNotFit() {
        let list: FixedList<2, Int> = [1, 2, 3, 4]
        #expect(Array(list) == [1, 2])
        #expect(list.isFull)
    }

    @Test func equalityAndHashingFollowTheElements() {
        let a: FixedList<4, Int> = [1, 2]
        var b = FixedList<4, Int>()
        b.append(1)
        b.append(2)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != [1, 2, 3])
        #expect(a != [2, 1])
        #expect(FixedList<4, Int>() == [])
        #expect(Set([a, b, [3]]).count == 2)
    }

    /// Optional elements (GRS residual slots) keep their `nil`s.
    @Test func optionalElements() {
        var list = FixedList<3, FixedPoint?>()
        list.append(fp(-8, 1))
        list.append(nil)
        list.append(fp(6, 1))
        #expect(list.count == 3)
        #expect(list[0] == fp(-8, 1))
        #expect(list[1] == nil)
        #expect(list[2] == fp(6, 1))
        #expect(list == [fp(-8, 1), nil, fp(6, 1)])
    }

    @Test func description() {
        let list: FixedList<4, Int> = [1, 2]
        #expect(list.description == "[1, 2]")
        #expect(FixedList<4, Int>().description == "[]")
    }

    @Test func collectionAlgorithms() {
        let list: FixedList<8, Int> = [5, 3, 9, 1]
        #expect(list.sorted() == [1, 3, 5, 9])
        #expect(list.contains(9))
        #expect(list.firstIndex(of: 9) == 2)
        #expect(list.map { $0 * 2 } == [10, 6, 18, 2])
        #expect(list.indices == 0..<4)
        #expect(list.distance(from: 0, to: 4) == 4)
    }
}
