import Testing

@testable import NMEA

/// `\text*hh\` with the right checksum (the XOR of `text`), or with `checksum` when given.
func tagBlock(_ text: String, checksum: UInt8? = nil) -> String {
    let xor = text.utf8.reduce(UInt8(0), ^)
    let digits = Array("0123456789ABCDEF")
    let value = checksum ?? xor
    return "\\" + text + "*" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0xF)]) + "\\"
}

/// Every sentence's receive time and the counters, for `text` fed whole, a byte at a time and split at every
/// offset: all three must agree, and the first is returned.
func receiveTimes(_ text: String) -> (times: [Int64?], statistics: FramerStatistics) {
    let bytes = Array(text.utf8)
    func run(_ chunks: [Int]) -> ([Int64?], FramerStatistics) {
        var framer = Framer()
        var times: [Int64?] = []
        var offset = 0
        for size in chunks {
            Array(bytes[offset..<offset + size]).withUnsafeBytes { buffer in
                framer.feed(buffer) { event in
                    if case .sentence(let sentence) = event { times.append(sentence.receivedMilliseconds) }
                }
            }
            offset += size
        }
        framer.finish { event in
            if case .sentence(let sentence) = event { times.append(sentence.receivedMilliseconds) }
        }
        return (times, framer.statistics)
    }
    let whole = run([bytes.count])
    let byByte = run(Array(repeating: 1, count: bytes.count))
    #expect(byByte.0 == whole.0 && byByte.1 == whole.1, "byte by byte")
    for split in 1..<max(bytes.count, 1) {
        let halves = run([split, bytes.count - split])
        #expect(halves.0 == whole.0 && halves.1 == whole.1, "split at \(split)")
    }
    return whole
}

@Suite struct TagBlockTests {
    let rmc = withChecksum("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
    let gga = withChecksum("$GPGGA,123520,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")

    @Test func millisecondsInC() {
        #expect(tagBlock("c:1700000000123") == "\\c:1700000000123*6F\\")
        let (times, statistics) = receiveTimes(tagBlock("c:1700000000123") + rmc + "\r\n" + gga + "\r\n")
        #expect(times == [1_700_000_000_123, nil])
        #expect(statistics.tagBlocks == 1 && statistics.sentencesWithReceiveTime == 1 && statistics.sentences == 2)
        #expect(statistics.garbageBytes == 0 && statistics.rejected == 0)
    }

    /// The standard's unit is the second; a fraction gives milliseconds.
    @Test func secondsInC() {
        let text = tagBlock("c:1700000000") + rmc + "\n" + tagBlock("c:1700000000.5") + gga + "\n"
        #expect(receiveTimes(text).times == [1_700_000_000_000, 1_700_000_000_500])
    }

    /// gpsd's AIVDM documentation's example block, with the checksum it prints (`*4A`): every parameter of it read.
    @Test func severalParameters() throws {
        let text = "\\g:1-2-73874,n:157036,s:r003669945,c:1241544035*4A\\"
        let block = try #require(text.utf8.withContiguousStorageIfAvailable { TagBlock.leading(.init($0)) } ?? nil)
        #expect(block.receivedMilliseconds == 1_241_544_035_000)
        #expect(block.lineCount == 157_036)
        #expect(block.source == ShortCode("r0036699"))
        #expect(block.group == TagGroup(number: 1, count: 2, id: 73_874))
        #expect(block.unknownParameters == 0)
        let aivdm = withChecksum("!AIVDM,1,1,,B,15M67FC000G?ufbE`FepT@3n00Sa,0")
        let (times, statistics) = receiveTimes(text + aivdm + "\r\n")
        #expect(times == [1_241_544_035_000] && statistics.tagBlocks == 1)
    }

    /// The group goes with the sentence after its block, and with that one only; a `g:` that is not three numbers,
    /// or whose sentence number is past its count, makes the block malformed.
    @Test func groups() {
        let aivdm = withChecksum("!AIVDM,1,1,,B,15M67FC000G?ufbE`FepT@3n00Sa,0")
        let text = tagBlock("g:2-3-4000000000,s:r1") + aivdm + "\r\n" + aivdm + "\r\n"
        var groups: [TagGroup?] = []
        var framer = Framer()
        for chunk in [Array(text.utf8).prefix(9), Array(text.utf8).dropFirst(9)] {
            Array(chunk).withUnsafeBytes { buffer in
                framer.feed(buffer) { event in
                    if case .sentence(let sentence) = event { groups.append(sentence.tagGroup) }
                }
            }
        }
        #expect(groups == [TagGroup(number: 2, count: 3, id: 4_000_000_000), nil])
        for bad in ["g:1-2", "g:1-x-3", "g:3-2-5", "g:1--5", "g:1-2-3-4"] {
            let (_, statistics) = receiveTimes(tagBlock(bad) + aivdm + "\r\n")
            #expect(statistics.malformedTagBlocks == 1 && statistics.tagBlocks == 0, "\(bad)")
        }
    }

    @Test func badChecksumIsCountedAndTheSentenceStillRead() {
        let text = tagBlock("c:1700000000123", checksum: 0x6E) + rmc + "\r\n" + gga + "\r\n"
        let (times, statistics) = receiveTimes(text)
        #expect(times == [nil, nil])
        #expect(statistics.tagBlockChecksumMismatches == 1 && statistics.tagBlocks == 0)
        #expect(statistics.sentences == 2 && statistics.sentencesWithReceiveTime == 0)
        #expect(statistics.garbageBytes == 20)  // the block's bytes, backslashes included
    }

    @Test func noStar() {
        let (times, statistics) = receiveTimes("\\c:1700000000123\\" + rmc + "\n")
        #expect(times == [nil])
        #expect(statistics.malformedTagBlocks == 1 && statistics.tagBlocks == 0 && statistics.sentences == 1)
    }

    /// A code the standard does not define is passed over (and counted); the block's other parameters stand.
    @Test func unknownParameter() {
        let (times, statistics) = receiveTimes(tagBlock("x:7,c:1700000000123,q:abc") + rmc + "\n")
        #expect(times == [1_700_000_000_123])
        #expect(statistics.tagBlocks == 1 && statistics.unknownTagParameters == 2)
    }

    @Test func overlong() {
        let long = tagBlock("t:" + String(repeating: "x", count: 120) + ",c:1700000000123")
        let (times, statistics) = receiveTimes(long + rmc + "\n" + tagBlock("c:1700000001000") + gga + "\n")
        #expect(times == [nil, 1_700_000_001_000])
        #expect(statistics.overlongTagBlocks == 1 && statistics.tagBlocks == 1 && statistics.sentences == 2)
        #expect(statistics.garbageBytes == long.utf8.count)
    }

    /// The longest block read is exactly ``TagBlock/maximumLength`` bytes between its backslashes.
    @Test func longestBlock() {
        let text = "t:" + String(repeating: "x", count: TagBlock.maximumLength - 2 - 3 - 16) + ",c:1700000000123"
        #expect(tagBlock(text).utf8.count == TagBlock.maximumLength + 2)
        #expect(receiveTimes(tagBlock(text) + rmc + "\n").times == [1_700_000_000_123])
        let oneMore = "t:y" + text.dropFirst(2)
        #expect(receiveTimes(tagBlock(oneMore) + rmc + "\n").statistics.overlongTagBlocks == 1)
    }

    /// A block cut off by a sentence start, a line ending, a bad value or bad checksum digits: malformed, and the
    /// sentence after it framed.
    @Test(arguments: [
        "\\c:17000", "\\c:17000*", "\\c:170x0000000*00\\", "\\c1700000000*00\\", "\\C:1700000000*00\\",
        "\\c:1700000000*G0\\", "\\c:1700000000*000\\", "\\n:1.5*00\\", "\\c:*00\\", "\\c:1700000000,\n",
    ])
    func malformed(_ block: String) {
        let (times, statistics) = receiveTimes(block + rmc + "\n")
        #expect(times == [nil])
        #expect(statistics.malformedTagBlocks == 1 && statistics.tagBlocks == 0 && statistics.sentences == 1)
        #expect(statistics.tagBlockChecksumMismatches == 0)
        // Its bytes up to the stop byte that ended it, or up to and with its closing backslash.
        let blockBytes = block.utf8.count - (block.hasSuffix("\n") ? 1 : 0)
        #expect(statistics.garbageBytes == blockBytes)
    }

    /// A block on a line of its own gives no time to the next line's sentence; one cut off by the end is counted.
    @Test func aTimeBelongsToItsLine() {
        let (times, statistics) = receiveTimes(tagBlock("c:1700000000123") + "\r\n" + rmc + "\n\\c:17")
        #expect(times == [nil])
        #expect(statistics.tagBlocks == 1 && statistics.malformedTagBlocks == 1)
    }

    /// A bad sentence after a block takes its time with it: the next one has none.
    @Test func aRejectedSentenceTakesTheTime() {
        let bad = corruptingChecksum(rmc).line
        let (times, statistics) = receiveTimes(tagBlock("c:1700000000123") + bad + gga + "\n")
        #expect(times == [nil])
        #expect(statistics.checksumMismatches == 1)
    }
}

@Suite struct LeadingTimestampTests {
    let rmc = withChecksum("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")

    @Test func secondsAndMilliseconds() {
        let text = "1700000000.123 \(rmc)\n1700000000456\t\(rmc)\r\n1700000001 \(rmc)\n"
        let (times, statistics) = receiveTimes(text)
        #expect(times == [1_700_000_000_123, 1_700_000_000_456, 1_700_000_001_000])
        #expect(statistics.leadingTimestamps == 3 && statistics.garbageBytes == 0)
        #expect(statistics.sentencesWithReceiveTime == 3)
    }

    /// Fewer than nine digits, no blank, or text after the blank: garbage, as before; the sentence is still read.
    @Test func notTimestamps() {
        let text = "12 \(rmc)\n1700000000\(rmc)\n1700000000 x\(rmc)\n12345\n"
        let (times, statistics) = receiveTimes(text)
        #expect(times == [nil, nil, nil])
        #expect(statistics.leadingTimestamps == 0)
        #expect(statistics.garbageBytes == 3 + 10 + 12 + 5)
    }

    @Test func receiveTimeInLine() {
        func time(_ line: String) -> Int64? {
            Array(line.utf8).withUnsafeBytes { ReceiveTime.inLine($0) }
        }
        #expect(time(tagBlock("c:1700000000123") + rmc + "\r\n") == 1_700_000_000_123)
        #expect(time(tagBlock("c:1700000000123", checksum: 0) + rmc) == nil)
        #expect(time("1700000000.25 " + rmc + "\n") == 1_700_000_000_250)
        #expect(time("NMEA," + rmc + ",1699400577561\n") == 1_699_400_577_561)
        #expect(time(rmc + "\n") == nil)
        #expect(time("") == nil)
    }
}

@Suite struct ReceiveTimeDateTests {
    /// A GGA-only log dated by its receive times: no date needed, and none held back.
    @Test func ggaOnlyLogTakesItsDates() {
        let ggaLate = withChecksum("$GPGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        let ggaEarly = withChecksum("$GPGGA,000000.00,4807.038,N,01131.001,E,1,08,0.9,545.4,M,46.9,M,,")
        // 2023-11-14 23:59:59.8 and 2023-11-15 00:00:00.2: the first fix, just before midnight, received after it.
        let text =
            tagBlock("c:1700006400200") + ggaLate + "\r\n" + tagBlock("c:1700006401200") + ggaEarly + "\r\n"
        var reader = FixReader()
        var fixes: [Fix] = []
        reader.read(Array(text.utf8)) { fixes.append($0) }
        reader.finish { fixes.append($0) }
        #expect(
            fixes.map(\.date) == [UTCDate(year: 2023, month: 11, day: 14), UTCDate(year: 2023, month: 11, day: 15)])
        #expect(reader.statistics.assembler.undatedFixes == 0)
    }

    @Test(arguments: [
        // (time of day, received, expected day)
        ("23:59:59", Int64(1_700_006_400_200), UTCDate(year: 2023, month: 11, day: 14)),
        ("00:00:01", Int64(1_700_006_399_900), UTCDate(year: 2023, month: 11, day: 15)),
        ("12:00:00", Int64(1_700_006_400_000), UTCDate(year: 2023, month: 11, day: 15)),
        ("11:59:59", Int64(1_700_006_400_000 + 43_200_000 + 1_000), UTCDate(year: 2023, month: 11, day: 15)),
        ("00:00:00", Int64(-1), UTCDate(year: 1970, month: 1, day: 1)),
    ])
    func nearestDay(_ time: String, _ received: Int64, _ day: UTCDate) {
        let parts = time.split(separator: ":").map { UInt8($0)! }
        let utc = UTCTime(hour: parts[0], minute: parts[1], second: parts[2])
        #expect(FixAssembler.date(of: utc, receivedAt: received) == day)
    }
}
