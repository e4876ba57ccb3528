/// Hexadecimal digits, read and written: the one place for NMEA's `*hh` checksums, TAG blocks, JSON's `\u00XX`
/// escapes, colours and identifiers.
public enum Hex {
    /// The ASCII digit of `nibble` (0–15): `0`–`9`, then `A`–`F` (`a`–`f` when not `uppercase`).
    @inlinable @inline(__always)
    public static func digit(_ nibble: UInt8, uppercase: Bool = true) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) &+ nibble &- 10
    }

    /// The value of one hexadecimal digit (either case), or `nil`.
    @inlinable @inline(__always)
    public static func value(of byte: UInt8) -> UInt8? {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = (byte | 0x20) &- UInt8(ascii: "a")
        if letter < 6 { return letter &+ 10 }
        return nil
    }

    /// Writes `byte` as two digits.
    @inlinable
    public static func write(_ byte: UInt8, uppercase: Bool = true, to output: (UInt8) -> Void) {
        output(digit(byte >> 4, uppercase: uppercase))
        output(digit(byte & 0xF, uppercase: uppercase))
    }

    /// `value` in at least `minimumDigits` digits (leading zeros), upper case unless told otherwise: `"1A"`,
    /// `"0000beef"`.
    public static func string(_ value: UInt64, minimumDigits: Int = 1, uppercase: Bool = true) -> String {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(digit(UInt8(rest & 0xF), uppercase: uppercase))
            rest >>= 4
        } while rest > 0
        while digits.count < minimumDigits { digits.append(UInt8(ascii: "0")) }
        return String(decoding: digits.reversed(), as: UTF8.self)
    }
}

/// NMEA's checksum: the XOR of the bytes between the start character (`$`, `!`, a TAG block's `\`) and `*`, written
/// `*hh` in upper-case digits.
public enum NMEAChecksum {
    /// The XOR of `bytes`.
    @inlinable
    public static func of(_ bytes: some Sequence<UInt8>) -> UInt8 {
        bytes.reduce(0, ^)
    }

    /// Writes `*hh` for `checksum`.
    @inlinable
    public static func write(_ checksum: UInt8, to output: (UInt8) -> Void) {
        output(UInt8(ascii: "*"))
        Hex.write(checksum, to: output)
    }
}
