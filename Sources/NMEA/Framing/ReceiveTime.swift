/// The receive time a log line carries, read the way ``Framer`` reads it: for tools that look at lines before they
/// are framed (a replay pacing itself by them).
public enum ReceiveTime {
    /// The receive time of the line `line` (without its line ending), in milliseconds since 1970-01-01 UTC: a TAG
    /// block's `c:` (`\c:1700000000123*hh\$GPRMC,…`), a leading Unix timestamp (`1700000000.123 $GPRMC,…`) or an
    /// Android GnssLogger line's time after the checksum (`NMEA,$GPRMC,…*hh,1700000000123`); `nil` for none.
    /// The checksum of the sentence is not checked here.
    /// - Complexity: O(*n*) in the line's length.
    public static func inLine(_ line: UnsafeRawBufferPointer) -> Int64? {
        guard let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self), !line.isEmpty else { return nil }
        var count = line.count
        while count > 0 && (base[count - 1] == UInt8(ascii: "\r") || base[count - 1] == UInt8(ascii: "\n")) {
            count -= 1
        }
        if base[0] == UInt8(ascii: "\\") {
            return TagBlock.leading(UnsafeRawBufferPointer(start: base, count: count))?.receivedMilliseconds
        }
        if base[0] &- UInt8(ascii: "0") < 10 {
            var digits = UnixTimeDigits()
            var index = 0
            while index < count && digits.take(base[index]) { index += 1 }
            guard digits.digitCount >= 9, index < count, base[index] == UInt8(ascii: " ") || base[index] == 9
            else { return nil }
            return digits.milliseconds
        }
        return Framer.receiveTimeSuffix(base, count: count)?.milliseconds
    }
}
