/// What the framer has seen: one counter for every way a byte can end up.
public struct FramerStatistics: Hashable, Sendable {
    /// Sentences handed out (checksum valid, or without checksum where the policy allows it).
    public var sentences = 0
    /// Of ``sentences``, those that carried no checksum (accepted under ``Framer/ChecksumPolicy/optional``).
    public var sentencesWithoutChecksum = 0
    /// Of ``sentences``, those that carried their receive time: in a TAG block's `c:`, a leading Unix timestamp,
    /// or after the checksum (Android GnssLogger lines).
    public var sentencesWithReceiveTime = 0
    /// NMEA 4.10 TAG blocks (`\c:…*hh\`) read, their checksum verified.
    public var tagBlocks = 0
    /// TAG blocks whose checksum did not match (their parameters are dropped; the sentence after them is read).
    public var tagBlockChecksumMismatches = 0
    /// TAG blocks that did not have the form `\code:value,…*hh\` (no `*`, a bad parameter, cut off by a line
    /// ending or a `$`); the sentence after them is read.
    public var malformedTagBlocks = 0
    /// TAG blocks longer than ``TagBlock/maximumLength``.
    public var overlongTagBlocks = 0
    /// Parameters of read TAG blocks whose code the standard does not define (passed over).
    public var unknownTagParameters = 0
    /// Leading Unix timestamps (`1700000000.123 $GPRMC,…`) read as receive times.
    public var leadingTimestamps = 0
    /// Sentences whose checksum did not match.
    public var checksumMismatches = 0
    /// Sentences rejected because they had no checksum.
    public var missingChecksums = 0
    /// Sentences whose `*` was not followed by two hexadecimal digits.
    public var malformedChecksums = 0
    /// Lines that grew past the length limit.
    public var overlong = 0
    /// Sentences cut off by another `$`/`!` or by binary data before their line ended.
    public var truncated = 0
    /// Sentences with an empty address field.
    public var badAddresses = 0
    /// Bytes outside any sentence that were not line endings, comments or recognised binary frames.
    public var garbageBytes = 0
    /// Bytes of binary frames (u-blox UBX, RTCM 3) skipped whole, their checksums verified.
    public var binaryFrameBytes = 0
    /// u-blox UBX frames handed out (their Fletcher checksums verified).
    public var ubxFrames = 0
    /// RTCM 3 frames handed out (their CRC-24Q verified).
    public var rtcm3Frames = 0
    /// RTCM 2 messages whose every word's parity checked.
    public var rtcm2Frames = 0
    /// Binary frame starts that proved no frame: `B5 62` with an implausible length or a failed Fletcher checksum,
    /// `D3` and a length whose CRC-24Q failed, or either cut off by the end of the input. Only their sync bytes were
    /// skipped (counted in ``garbageBytes``); the bytes after them were framed as any others.
    public var damagedBinaryFrames = 0
    /// `#` comment lines skipped.
    public var commentLines = 0
    /// Every byte fed in.
    public var bytes = 0

    /// All counts zero.
    public init() {}

    /// Every sentence-shaped thing that was rejected.
    public var rejected: Int {
        checksumMismatches + missingChecksums + malformedChecksums + overlong + truncated + badAddresses
    }

    /// Adds `error` to its counter.
    mutating func count(_ error: NMEAError) {
        switch error {
        case .checksumMismatch: checksumMismatches += 1
        case .missingChecksum: missingChecksums += 1
        case .malformedChecksum: malformedChecksums += 1
        case .overlong: overlong += 1
        case .truncated: truncated += 1
        case .badAddress: badAddresses += 1
        case .wrongType, .tooFewFields, .badField: break
        }
    }

    /// The counters since `earlier`, a copy of these taken before (for one input of several).
    public func since(_ earlier: FramerStatistics) -> FramerStatistics {
        var difference = self
        difference.sentences -= earlier.sentences
        difference.sentencesWithoutChecksum -= earlier.sentencesWithoutChecksum
        difference.sentencesWithReceiveTime -= earlier.sentencesWithReceiveTime
        difference.tagBlocks -= earlier.tagBlocks
        difference.tagBlockChecksumMismatches -= earlier.tagBlockChecksumMismatches
        difference.malformedTagBlocks -= earlier.malformedTagBlocks
        difference.overlongTagBlocks -= earlier.overlongTagBlocks
        difference.unknownTagParameters -= earlier.unknownTagParameters
        difference.leadingTimestamps -= earlier.leadingTimestamps
        difference.checksumMismatches -= earlier.checksumMismatches
        difference.missingChecksums -= earlier.missingChecksums
        difference.malformedChecksums -= earlier.malformedChecksums
        difference.overlong -= earlier.overlong
        difference.truncated -= earlier.truncated
        difference.badAddresses -= earlier.badAddresses
        difference.garbageBytes -= earlier.garbageBytes
        difference.binaryFrameBytes -= earlier.binaryFrameBytes
        difference.ubxFrames -= earlier.ubxFrames
        difference.rtcm3Frames -= earlier.rtcm3Frames
        difference.rtcm2Frames -= earlier.rtcm2Frames
        difference.damagedBinaryFrames -= earlier.damagedBinaryFrames
        difference.commentLines -= earlier.commentLines
        difference.bytes -= earlier.bytes
        return difference
    }

    /// The sum of two sets of counters.
    public static func + (lhs: FramerStatistics, rhs: FramerStatistics) -> FramerStatistics {
        var sum = lhs
        sum.sentences += rhs.sentences
        sum.sentencesWithoutChecksum += rhs.sentencesWithoutChecksum
        sum.sentencesWithReceiveTime += rhs.sentencesWithReceiveTime
        sum.tagBlocks += rhs.tagBlocks
        sum.tagBlockChecksumMismatches += rhs.tagBlockChecksumMismatches
        sum.malformedTagBlocks += rhs.malformedTagBlocks
        sum.overlongTagBlocks += rhs.overlongTagBlocks
        sum.unknownTagParameters += rhs.unknownTagParameters
        sum.leadingTimestamps += rhs.leadingTimestamps
        sum.checksumMismatches += rhs.checksumMismatches
        sum.missingChecksums += rhs.missingChecksums
        sum.malformedChecksums += rhs.malformedChecksums
        sum.overlong += rhs.overlong
        sum.truncated += rhs.truncated
        sum.badAddresses += rhs.badAddresses
        sum.garbageBytes += rhs.garbageBytes
        sum.binaryFrameBytes += rhs.binaryFrameBytes
        sum.ubxFrames += rhs.ubxFrames
        sum.rtcm3Frames += rhs.rtcm3Frames
        sum.rtcm2Frames += rhs.rtcm2Frames
        sum.damagedBinaryFrames += rhs.damagedBinaryFrames
        sum.commentLines += rhs.commentLines
        sum.bytes += rhs.bytes
        return sum
    }
}
