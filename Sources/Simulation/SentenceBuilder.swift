import NMEA

/// Builds NMEA sentences byte by byte: `$`, the fields, `*hh` and `\r\n`.
///
///     var builder = SentenceBuilder()
///     builder.begin("GPGGA")
///     builder.field(time); builder.latitude(48.1173); …
///     builder.end()        // appends *hh\r\n
///     builder.bytes        // everything built so far
public struct SentenceBuilder {
    public private(set) var bytes: [UInt8] = []
    private var sentenceStart = 0

    public init() {}

    /// Starts a sentence with address `address` (`GPGGA`, `PUBX`).
    public mutating func begin(_ address: String, start: UInt8 = UInt8(ascii: "$")) {
        sentenceStart = bytes.count
        bytes.append(start)
        bytes.append(contentsOf: address.utf8)
    }

    /// Ends the sentence: `*hh` (the XOR of everything between the start character and `*`) and `\r\n`.
    /// - Parameter checksum: write this checksum instead of the right one (to build faulty input).
    public mutating func end(checksum: UInt8? = nil, lineEnding: String = "\r\n") {
        let value = checksum ?? NMEAChecksum.of(bytes[(sentenceStart + 1)...])
        NMEAChecksum.write(value) { bytes.append($0) }
        bytes.append(contentsOf: lineEnding.utf8)
    }

    /// Appends raw bytes outside any sentence (garbage, comments, binary frames).
    public mutating func raw(_ data: some Sequence<UInt8>) {
        bytes.append(contentsOf: data)
    }

    /// Removes everything built so far, keeping the capacity.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    // MARK: Fields

    /// An empty field.
    public mutating func empty() {
        bytes.append(UInt8(ascii: ","))
    }

    public mutating func field(_ text: String) {
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func field(_ value: Int?, digits: Int = 1) {
        bytes.append(UInt8(ascii: ","))
        guard let value else { return }
        DecimalFormatter.write(value, minimumDigits: digits) { bytes.append($0) }
    }

    /// A number with exactly `decimals` decimal places, zero-padded to `integerDigits` before the point.
    public mutating func field(_ value: Double?, decimals: Int, integerDigits: Int = 1) {
        bytes.append(UInt8(ascii: ","))
        guard let value else { return }
        appendFixed(value, decimals: decimals, integerDigits: integerDigits)
    }

    public mutating func field(_ time: UTCTime?) {
        bytes.append(UInt8(ascii: ","))
        guard let time else { return }
        for part in [time.hour, time.minute, time.second] {
            DecimalFormatter.write(Int(part), minimumDigits: 2) { bytes.append($0) }
        }
        if time.fractionDigits > 0 {
            bytes.append(UInt8(ascii: "."))
            var divisor: UInt32 = 100_000_000
            for _ in 0..<time.fractionDigits {
                bytes.append(UInt8(ascii: "0") + UInt8((time.nanoseconds / divisor) % 10))
                divisor /= 10
            }
        }
    }

    /// `ddmmyy`.
    public mutating func field(_ date: UTCDate?) {
        bytes.append(UInt8(ascii: ","))
        guard let date else { return }
        for part in [Int(date.day), Int(date.month), Int(date.year) % 100] {
            DecimalFormatter.write(part, minimumDigits: 2) { bytes.append($0) }
        }
    }

    /// `ddmm.mmmmm,N` from decimal degrees.
    public mutating func latitude(_ degrees: Double?, decimals: Int = 5) {
        coordinate(degrees, degreeDigits: 2, decimals: decimals, positive: "N", negative: "S")
    }

    /// `dddmm.mmmmm,E` from decimal degrees.
    public mutating func longitude(_ degrees: Double?, decimals: Int = 5) {
        coordinate(degrees, degreeDigits: 3, decimals: decimals, positive: "E", negative: "W")
    }

    private mutating func coordinate(
        _ degrees: Double?, degreeDigits: Int, decimals: Int, positive: String, negative: String
    ) {
        guard let degrees else {
            empty()
            empty()
            return
        }
        // Work in units of 10^-decimals minutes so rounding can carry into the degrees.
        let scale = pow10(decimals)
        let totalUnits = Int64((abs(degrees) * 60 * Double(scale)).rounded())
        let wholeDegrees = totalUnits / (60 * scale)
        let minuteUnits = totalUnits % (60 * scale)
        bytes.append(UInt8(ascii: ","))
        DecimalFormatter.write(Int(wholeDegrees), minimumDigits: degreeDigits) { bytes.append($0) }
        DecimalFormatter.write(
            FixedPoint(significand: minuteUnits, scale: UInt8(decimals)), minimumDigits: 2 + decimals
        ) {
            bytes.append($0)
        }
        field(degrees < 0 ? negative : positive)
    }

    private mutating func appendFixed(_ value: Double, decimals: Int, integerDigits: Int) {
        let scaled = Int64((value * Double(pow10(decimals))).rounded())
        DecimalFormatter.write(
            FixedPoint(significand: scaled, scale: UInt8(decimals)),
            minimumDigits: integerDigits + decimals
        ) { bytes.append($0) }
    }
}

private func pow10(_ exponent: Int) -> Int64 {
    var result: Int64 = 1
    for _ in 0..<exponent { result *= 10 }
    return result
}
