extension Sentence {
    /// The UTC time of day the sentence carries, for the types that stamp an epoch with one: field 1 of RMC, GGA,
    /// GNS, ZDA, GST, GBS and GRS, field 5 of GLL, from any talker (read as their decoders read it, with
    /// ``FieldReader/time()``). `nil` for other types, and when the field is empty or not a valid time.
    ///
    /// For pacing a replay by the times in a log without decoding every sentence.
    public var time: UTCTime? {
        let field: Int
        switch type {
        case .rmc, .gga, .gns, .zda, .gst, .gbs, .grs: field = 1
        case .gll: field = 5
        default: return nil
        }
        guard talker != .proprietary else { return nil }
        var reader = fieldReader
        reader.skip(field - 1)
        return reader.time()
    }

    /// The time (``time``) of one line of a log: a sentence from `$` or `!`, with or without its `*hh` checksum and
    /// line ending. The checksum is not checked (the framer does that when the line is read for its content).
    public static func time(inLine line: UnsafeRawBufferPointer) -> UTCTime? {
        var count = line.count
        while count > 0 && (line[count - 1] == UInt8(ascii: "\n") || line[count - 1] == UInt8(ascii: "\r")) {
            count -= 1
        }
        if let star = line[..<count].firstIndex(of: UInt8(ascii: "*")) { count = star }
        guard count >= 2, line[0] == UInt8(ascii: "$") || line[0] == UInt8(ascii: "!"),
            let sentence = try? Sentence(unchecked: UnsafeRawBufferPointer(rebasing: line[..<count]), checksum: nil)
        else { return nil }
        return sentence.time
    }
}
