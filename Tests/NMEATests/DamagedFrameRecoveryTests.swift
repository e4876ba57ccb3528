import Simulation
import Testing

@testable import NMEA

/// Issue 12, item 5, measured: faulty streams with and without damaged binary frames (a UBX header whose length
/// promises kilobytes that never come) give the same sentences and the same fixes. The damaged frames come from a
/// random stream of their own, so the two streams differ by those frames alone.
@Suite struct DamagedFrameRecoveryTests {
    struct Reading: Equatable {
        var sentences = 0
        var positions: [String] = []
        var damagedFrames = 0
    }

    static func read(_ bytes: [UInt8]) -> Reading {
        var reader = FixReader()
        var reading = Reading()
        let record = { (fix: Fix) in
            if fix.hasPosition { reading.positions.append("\(fix.iso8601 ?? "-") \(fix.latitude!),\(fix.longitude!)") }
        }
        reader.read(bytes, record)
        reader.finish(record)
        reading.sentences = reader.statistics.framer.sentences
        reading.damagedFrames = reader.statistics.framer.damagedBinaryFrames
        return reading
    }

    /// A simulated multi-GNSS drive (16 sentences per epoch) of `seconds`.
    static func drive(seconds: Double, seed: UInt64) -> [UInt8] {
        let scenario = Scenario(
            legs: [.drive(seconds: seconds / 2, speedKmh: 50), .drive(seconds: seconds / 2, speedKmh: 30)],
            seed: seed)
        let writer = EpochWriter(profile: .multiGNSS)
        var builder = SentenceBuilder()
        for fix in scenario.fixes() { writer.write(fix, into: &builder) }
        return builder.bytes
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func damagedFramesLoseNoSentenceAndNoEpoch(seed: UInt64) {
        let clean = Self.drive(seconds: 600, seed: seed)
        // The usual faults of a bad serial link (one line in 20), with and without a damaged frame every ~300 lines.
        let plain = FaultInjector(interval: 20, seed: seed).damage(clean)
        let damaged = FaultInjector(interval: 20, seed: seed, damagedFrameInterval: 300).damage(clean)
        #expect(plain.counts.damagedBinaryFrames == 0)
        #expect(damaged.counts.damagedBinaryFrames > 15)
        var sameFaults = damaged.counts
        sameFaults.damagedBinaryFrames = 0
        #expect(sameFaults == plain.counts)

        let expected = Self.read(plain.output)
        let found = Self.read(damaged.output)
        let lostSentences = expected.sentences - found.sentences
        let lostEpochs = expected.positions.count - found.positions.count
        print(
            "seed \(seed): \(damaged.counts.damagedBinaryFrames) damaged frames; sentences \(found.sentences) of "
                + "\(expected.sentences) (lost \(lostSentences)), epochs with a position \(found.positions.count) "
                + "of \(expected.positions.count) (lost \(lostEpochs))")
        #expect(found.sentences == expected.sentences)
        #expect(found.positions.count == expected.positions.count)
        #expect(Array(Set(expected.positions).subtracting(found.positions).sorted().prefix(3)) == [])
        #expect(found.damagedFrames == damaged.counts.damagedBinaryFrames)
    }
}
