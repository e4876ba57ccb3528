import NMEA

/// The GGA sentence an NTRIP client sends its caster: where the receiver is, so that a network picks (or makes) a
/// base near it. Only what casters read: time, position, quality, satellites, HDOP, altitude; talker `GP` as NTRIP
/// casters expect.
///
///     $GPGGA,123519.00,4807.03800,N,01131.00000,E,1,08,0.9,545.4,M,47.7,M,,*hh
public enum PositionReport {
    /// GGA for `fix`; `nil` when it has no position (nothing is sent before the first fix).
    public static func gga(_ fix: Fix) -> [UInt8]? {
        guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
        var body: [UInt8] = Array("GPGGA,".utf8)
        if let time = fix.time {
            for value in [time.hour, time.minute, time.second] { two(Int(value), &body) }
            body.append(UInt8(ascii: "."))
            two(Int(time.nanoseconds / 10_000_000), &body)
        }
        body.append(UInt8(ascii: ","))
        angle(latitude, degreeDigits: 2, positive: "N", negative: "S", &body)
        angle(longitude, degreeDigits: 3, positive: "E", negative: "W", &body)
        body.append(contentsOf: "\(fix.quality.rawValue),".utf8)  // GGA's numbers, in order
        two(min(fix.satellitesUsed ?? fix.satellitesUsedInView, 99), &body)
        body.append(UInt8(ascii: ","))
        if let hdop = fix.hdop { DecimalFormatter.write(hdop, decimals: 1) { body.append($0) } }
        body.append(UInt8(ascii: ","))
        if let altitude = fix.altitudeMeters { DecimalFormatter.write(altitude, decimals: 1) { body.append($0) } }
        body.append(contentsOf: ",M,".utf8)
        if let separation = fix.geoidSeparationMeters {
            DecimalFormatter.write(separation, decimals: 1) { body.append($0) }
        }
        body.append(contentsOf: ",M,,".utf8)
        var sentence: [UInt8] = [UInt8(ascii: "$")] + body
        NMEAChecksum.write(NMEAChecksum.of(body)) { sentence.append($0) }
        sentence.append(contentsOf: [0x0D, 0x0A])
        return sentence
    }

    /// `ddmm.mmmmm,H,`: degrees, minutes to five decimals (2 cm), the hemisphere.
    private static func angle(
        _ value: Double, degreeDigits: Int, positive: Character, negative: Character, _ body: inout [UInt8]
    ) {
        let magnitude = abs(value)
        var degrees = Int(magnitude)
        var minutes = ((magnitude - Double(degrees)) * 60 * 100_000).rounded() / 100_000
        if minutes >= 60 {
            degrees += 1
            minutes -= 60
        }
        let text = String(degrees)
        body.append(contentsOf: String(repeating: "0", count: max(0, degreeDigits - text.count)).utf8)
        body.append(contentsOf: text.utf8)
        if minutes < 10 { body.append(UInt8(ascii: "0")) }
        DecimalFormatter.write(minutes, decimals: 5) { body.append($0) }
        body.append(UInt8(ascii: ","))
        body.append(contentsOf: String(value < 0 ? negative : positive).utf8)
        body.append(UInt8(ascii: ","))
    }

    private static func two(_ value: Int, _ body: inout [UInt8]) {
        if value < 10 { body.append(UInt8(ascii: "0")) }
        body.append(contentsOf: String(value).utf8)
    }
}
