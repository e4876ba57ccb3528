import Fleet
import Foundation
import TestSupport
import Testing

@Suite struct DiskQueueTests {
    func payload(_ n: Int) -> [UInt8] {
        Array("{\"n\":\(n),\"pad\":\"\(String(repeating: "x", count: n % 50))\"}".utf8)
    }

    func fill(_ queue: DiskQueue, _ range: Range<Int>) throws {
        for n in range { try queue.append(topic: "t/\(n % 3)", payload: payload(n), retain: n % 2 == 0) }
    }

    func drain(_ queue: DiskQueue) -> [QueueEntry] {
        var all: [QueueEntry] = []
        while true {
            let batch = queue.next(limit: 7)
            if batch.isEmpty { return all }
            all += batch
        }
    }

    func segmentFiles(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".seg") }
            .sorted()
    }

    @Test func persistsAcrossReopenInOrder() throws {
        let directory = TemporaryDirectory().path
        do {
            let queue = try DiskQueue(directory: directory, options: .init(maximumBytes: 1 << 20, segmentBytes: 2048))
            try fill(queue, 0..<200)
            #expect(segmentFiles(directory).count > 3)
            queue.close()
        }
        let queue = try DiskQueue(directory: directory, options: .init(maximumBytes: 1 << 20, segmentBytes: 2048))
        #expect(queue.statistics.recovered == 200)
        let entries = drain(queue)
        #expect(entries.map(\.sequence) == Array(1...200))
        #expect(entries.map(\.payload) == (0..<200).map(payload))
        #expect(entries.map(\.topic) == (0..<200).map { "t/\($0 % 3)" })
        #expect(entries.map(\.retain) == (0..<200).map { $0 % 2 == 0 })
    }

    @Test func removesOnlyWhatIsAcknowledged() throws {
        let directory = TemporaryDirectory().path
        let options = DiskQueue.Options(maximumBytes: 1 << 20, segmentBytes: 1024)
        do {
            let queue = try DiskQueue(directory: directory, options: options)
            try fill(queue, 0..<100)
            let entries = drain(queue)
            // Acknowledgements may come out of order: 1…40 and 45, not 41…44.
            for entry in entries where entry.sequence <= 40 || entry.sequence == 45 {
                queue.acknowledge(entry.sequence)
            }
            #expect(queue.statistics.pending == 59)
            #expect(queue.head == 41)
            queue.close()
        }
        let queue = try DiskQueue(directory: directory, options: options)
        #expect(queue.statistics.recovered == 60)  // 41…100: 45's acknowledgement was not yet contiguous
        #expect(drain(queue).map(\.sequence) == Array(41...100))
        // New entries continue the numbering.
        #expect(try queue.append(topic: "t", payload: [1], retain: false) == 101)
    }

    @Test func anEmptiedQueueLeavesOnlyItsHead() throws {
        let directory = TemporaryDirectory().path
        do {
            let queue = try DiskQueue(directory: directory)
            try fill(queue, 0..<10)
            for entry in drain(queue) { queue.acknowledge(entry.sequence) }
            queue.close()
        }
        #expect(segmentFiles(directory).isEmpty)
        let queue = try DiskQueue(directory: directory)
        #expect(queue.statistics.pending == 0)
        #expect(try queue.append(topic: "t", payload: [1], retain: false) == 11)
    }

    @Test func staysWithinItsSizeDroppingTheOldestAndCountingThem() throws {
        let directory = TemporaryDirectory().path
        let options = DiskQueue.Options(maximumBytes: 16 * 1024)
        let queue = try DiskQueue(directory: directory, options: options)
        var largest = 0
        for n in 0..<2000 {
            try queue.append(topic: "owntracks/acme/van7", payload: payload(n), retain: true)
            largest = max(largest, queue.statistics.bytesOnDisk)
            let onDisk = segmentFiles(directory).reduce(0) { total, name in
                total
                    + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + name)[.size] as? Int) ?? 0)
            }
            #expect(onDisk == queue.statistics.bytesOnDisk)
        }
        #expect(largest <= options.maximumBytes)
        let statistics = queue.statistics
        #expect(statistics.dropped > 1000)
        #expect(statistics.dropped + statistics.pending == 2000)
        // What is left is the newest, without a gap.
        let left = drain(queue).map(\.sequence)
        #expect(left == Array(UInt64(2001 - statistics.pending)...2000))
    }

    @Test func dropsOnlyWhatWasNotAcknowledged() throws {
        let queue = try DiskQueue(
            directory: TemporaryDirectory().path,
            options: .init(maximumBytes: 8192, segmentBytes: 1024))
        try fill(queue, 0..<20)
        for entry in queue.next(limit: 10) { queue.acknowledge(entry.sequence) }
        try fill(queue, 20..<400)
        #expect(queue.statistics.dropped + queue.statistics.pending + queue.statistics.acknowledged == 400)
        #expect(queue.statistics.acknowledged == 10)
    }

    @Test func recoversFromAnAppendTornByAPowerCut() throws {
        let directory = TemporaryDirectory().path
        do {
            let queue = try DiskQueue(directory: directory)
            try fill(queue, 0..<10)
            queue.close()
        }
        // The first part of an eleventh record: a length, a CRC and a few body bytes, then nothing.
        let segment = directory + "/" + (try #require(segmentFiles(directory).last))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: segment))
        handle.seekToEndOfFile()
        handle.write(Data([60, 0, 0, 0, 1, 2, 3, 4, 11, 0, 0]))
        handle.closeFile()
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: segment)[.size] as! Int
        do {
            let queue = try DiskQueue(directory: directory)
            #expect(queue.statistics.truncatedBytes == 11)
            #expect(queue.statistics.recovered == 10)
            #expect(try queue.append(topic: "t", payload: [42], retain: false) == 11)
            queue.close()
        }
        #expect(try FileManager.default.attributesOfItem(atPath: segment)[.size] as! Int > sizeBefore - 11)
        let queue = try DiskQueue(directory: directory)
        #expect(queue.statistics.truncatedBytes == 0)
        let entries = drain(queue)
        #expect(entries.map(\.sequence) == Array(1...11))
        #expect(entries.last?.payload == [42])
    }

    @Test func aDamagedRecordInAnOlderSegmentLosesOnlyTheRestOfThatSegment() throws {
        let directory = TemporaryDirectory().path
        let options = DiskQueue.Options(maximumBytes: 1 << 20, segmentBytes: 1024)
        do {
            let queue = try DiskQueue(directory: directory, options: options)
            try fill(queue, 0..<60)
            queue.close()
        }
        let first = directory + "/" + (try #require(segmentFiles(directory).first))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: first)))
        bytes[bytes.count - 3] ^= 0xFF  // inside the segment's last record
        try Data(bytes).write(to: URL(fileURLWithPath: first))
        let queue = try DiskQueue(directory: directory, options: options)
        #expect(queue.statistics.corruptRecords == 1)
        let sequences = drain(queue).map(\.sequence)
        #expect(sequences.count == 59)
        #expect(sequences == sequences.sorted())
        #expect(sequences.last == 60)
    }

    @Test func aDamagedHeadSendsEverythingAgain() throws {
        let directory = TemporaryDirectory().path
        do {
            let queue = try DiskQueue(directory: directory)
            try fill(queue, 0..<10)
            for entry in queue.next(limit: 5) { queue.acknowledge(entry.sequence) }
            queue.close()
        }
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/head"))
        let queue = try DiskQueue(directory: directory)
        #expect(drain(queue).map(\.sequence) == Array(1...10))
    }

    @Test func oneProcessAtATime() throws {
        let directory = TemporaryDirectory().path
        let queue = try DiskQueue(directory: directory)
        #expect(throws: QueueError.self) { try DiskQueue(directory: directory) }
        queue.close()
        _ = try DiskQueue(directory: directory)
    }

    @Test func seekingBackHandsOutAgain() throws {
        let queue = try DiskQueue(directory: TemporaryDirectory().path, options: .init(segmentBytes: 512))
        try fill(queue, 0..<30)
        #expect(queue.next(limit: 20).count == 20)
        queue.seek(to: 5)
        #expect(queue.next(limit: 3).map(\.sequence) == [5, 6, 7])
        queue.rewind()
        #expect(drain(queue).map(\.sequence) == Array(1...30))
    }

    /// Found by the `diskqueue` fuzz target (Fuzz/artifacts/diskqueue crash 7eb2e510…): the files it wrote. The first
    /// segment's one record has a right CRC and sequence but announces a 256-byte topic in a 17-byte body. Recovery
    /// counted it as pending while reading refused it, so `next` stopped there for good: nothing appended after it
    /// was ever handed out. Such a record is damage, as a bad CRC is.
    @Test func aRecordWhoseTopicOverrunsItsBodyIsDamageNotAnEntry() throws {
        let directory = TemporaryDirectory().path
        let record: [UInt8] = [
            0x11, 0x00, 0x00, 0x00, 0x11, 0xC2, 0x5F, 0x68, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x8C,
            0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x78, 0x79, 0xED, 0xED,
        ]
        let magic = Array("NMEAQ01\n".utf8)
        try Data(magic + record).write(to: URL(fileURLWithPath: directory + "/00000000000000000001.seg"))
        try Data(magic).write(to: URL(fileURLWithPath: directory + "/00000000000000000002.seg"))
        try Data(repeating: 0, count: 16).write(to: URL(fileURLWithPath: directory + "/head"))
        let queue = try DiskQueue(directory: directory)
        #expect(queue.statistics.recovered == 0)
        #expect(queue.statistics.pending == 0)
        #expect(queue.statistics.corruptRecords == 1)
        // Sequence 1 was the lost record; the newest segment starts at 2.
        #expect(try queue.append(topic: "t", payload: [42], retain: false) == 2)
        let entries = drain(queue)
        #expect(entries == [QueueEntry(sequence: 2, topic: "t", payload: [42], retain: false)])
    }

    /// Found by the `diskqueue` fuzz target (Fuzz/artifacts/diskqueue-crash-247951c3…): the files it wrote. Sequence
    /// 1 is whole; sequence 2 announces a 75-byte topic in a 12-byte body (damage in an older segment), and the
    /// newest segment starts at 3. The queue hands out 1 and appends at 3: the lost entry is a gap, not a stop.
    /// (The target's invariant that entries run without gaps up to the next sequence was wrong, not the queue.)
    @Test func aDamagedRecordLeavesAGapAndTheQueueGoesOn() throws {
        let directory = TemporaryDirectory().path
        let records: [UInt8] = [
            0x11, 0x00, 0x00, 0x00, 0x9C, 0x80, 0x63, 0x0B, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x01, 0x00, 0x78, 0x79, 0x79, 0x79, 0x79, 0x79, 0x0C, 0x00, 0x00, 0x00, 0xE5, 0x24, 0xB2, 0xAA, 0x02,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC5, 0x4B, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ]
        let magic = Array("NMEAQ01\n".utf8)
        try Data(magic + records).write(to: URL(fileURLWithPath: directory + "/00000000000000000001.seg"))
        try Data(magic).write(to: URL(fileURLWithPath: directory + "/00000000000000000003.seg"))
        try Data(repeating: 0, count: 16).write(to: URL(fileURLWithPath: directory + "/head"))
        let queue = try DiskQueue(directory: directory)
        #expect(queue.statistics.recovered == 1)
        #expect(queue.statistics.corruptRecords == 1)
        #expect(try queue.append(topic: "t", payload: [42], retain: false) == 3)
        #expect(drain(queue).map(\.sequence) == [1, 3])
    }
}
