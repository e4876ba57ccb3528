/// Damages a clean NMEA stream the ways real serial links and receivers do, deterministically, and counts what it
/// did so a test can check that every fault was noticed.
public struct FaultInjector: Sendable {
    /// What was injected.
    public struct Counts: Sendable, Hashable {
        public var badChecksums = 0
        public var truncated = 0
        public var garbageLines = 0
        public var binaryFrames = 0
        public var overlongLines = 0
        public var missingChecksums = 0
        public var comments = 0
        public var doubledDollar = 0
        public var lowercaseChecksums = 0
        /// Damaged binary frames put between lines (see ``FaultInjector/damagedFrameInterval``).
        public var damagedBinaryFrames = 0
        public init() {}
    }

    /// One fault per this many lines, on average.
    public var interval: Int
    public var seed: UInt64
    /// One damaged binary frame per this many lines, on average, besides the faults above; 0 for none. A damaged
    /// frame is what a receiver that switches protocols, or a link that drops bytes, leaves: a UBX header (`B5 62`,
    /// class, id) whose length (92 to 4,096) promises far more than follows — a few bytes of its payload — before
    /// the NMEA goes on. Drawn from a random stream of their own, so the other faults are the same with or without
    /// them.
    public var damagedFrameInterval: Int

    public init(interval: Int = 20, seed: UInt64 = 7, damagedFrameInterval: Int = 0) {
        self.interval = interval
        self.seed = seed
        self.damagedFrameInterval = damagedFrameInterval
    }

    /// `input` (whole lines ending in `\n`) with faults added between and inside its lines.
    public func damage(_ input: [UInt8]) -> (output: [UInt8], counts: Counts) {
        var stream = stream()
        var output: [UInt8] = []
        stream.damage(input, into: &output)
        return (output, stream.counts)
    }

    /// The same faults, added chunk by chunk (each chunk whole lines) in constant memory: the chunks' outputs joined
    /// are ``damage(_:)`` of the chunks joined.
    public func stream() -> Stream {
        Stream(
            interval: interval, damagedFrameInterval: damagedFrameInterval, random: SplitMix64(seed: seed),
            frameRandom: SplitMix64(seed: seed ^ 0xB562_B562_B562_B562))
    }

    /// Faults added to a stream, chunk by chunk: ``FaultInjector/stream()``.
    public struct Stream: Sendable {
        let interval: Int
        let damagedFrameInterval: Int
        var random: SplitMix64
        var frameRandom: SplitMix64
        public private(set) var counts = Counts()

        /// Appends `input` with its faults to `output`.
        public mutating func damage(_ input: [UInt8], into output: inout [UInt8]) {
            output.reserveCapacity(output.count + input.count + input.count / 8)
            var lineStart = 0
            for index in input.indices where input[index] == UInt8(ascii: "\n") {
                var line = Array(input[lineStart...index])
                lineStart = index + 1
                if damagedFrameInterval > 0 && frameRandom.next() % UInt64(damagedFrameInterval) == 0 {
                    output += FaultInjector.damagedFrame(&frameRandom)
                    counts.damagedBinaryFrames += 1
                }
                guard Int(random.next() % UInt64(interval)) == 0, line.first == UInt8(ascii: "$") else {
                    output += line
                    continue
                }
                fault(&line, into: &output)
                output += line
            }
            output += input[lineStart...]
        }

        /// One of the faults, drawn at random: `line` damaged, or something put in `output` before it.
        private mutating func fault(_ line: inout [UInt8], into output: inout [UInt8]) {
            switch random.next() % 9 {
            case 0:
                // Flip a bit in a data byte (the checksum no longer matches).
                let position = 7 + Int(random.next() % UInt64(max(1, line.count - 12)))
                line[position] ^= 0x01
                counts.badChecksums += 1
            case 1:
                // The line is cut off and the next one starts right after.
                line = Array(line.prefix(line.count / 2))
                counts.truncated += 1
            case 2:
                output += Array("~~ line noise ~~\r\n".utf8)
                counts.garbageLines += 1
            case 3:
                // A u-blox UBX NAV-PVT-sized frame whose payload contains '$' and newlines.
                var frame: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 92, 0]
                for byte in 0..<92 { frame.append(byte % 10 == 0 ? UInt8(ascii: "$") : UInt8(byte & 0xFF) ^ 0x0A) }
                frame += FaultInjector.fletcher(frame[2...])
                output += frame
                counts.binaryFrames += 1
            case 4:
                output += Array(("$GPXXX," + String(repeating: "9", count: 1200) + "*00\r\n").utf8)
                counts.overlongLines += 1
            case 5:
                // Drop the checksum.
                if let star = line.lastIndex(of: UInt8(ascii: "*")) {
                    line = Array(line[..<star]) + Array("\r\n".utf8)
                    counts.missingChecksums += 1
                }
            case 6:
                output += Array("# comment: receiver restarted\r\n".utf8)
                counts.comments += 1
            case 7:
                line.insert(UInt8(ascii: "$"), at: 0)
                counts.doubledDollar += 1
            default:
                if let star = line.lastIndex(of: UInt8(ascii: "*")) {
                    for offset in 1...2 where line[star + offset] >= UInt8(ascii: "A") {
                        line[star + offset] |= 0x20
                    }
                    counts.lowercaseChecksums += 1
                }
            }
        }
    }

    /// A UBX header with a length between 92 and 4,096, then up to 15 random bytes of payload (binary ones, 0x80 and
    /// above, so that they cannot themselves look like text: a `#` after a line ending would hide the next line).
    static func damagedFrame(_ random: inout SplitMix64) -> [UInt8] {
        let length = 92 + Int(random.next() % (4096 - 92 + 1))
        var frame: [UInt8] = [0xB5, 0x62, 0x01, 0x07, UInt8(length & 0xFF), UInt8(length >> 8)]
        for _ in 0..<(random.next() % 16) { frame.append(0x80 | UInt8(truncatingIfNeeded: random.next())) }
        return frame
    }

    /// UBX's Fletcher-8 checksum (ck_a, ck_b) over class, id, length and payload.
    static func fletcher(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in bytes {
            a &+= byte
            b &+= a
        }
        return [a, b]
    }
}
