import NMEA

/// RTCM 1029: a text message, UTF-8.
///
///     DF002 12 · DF003 12 · DF051 16 MJD · DF052 17 seconds of the UTC day · DF138 7 characters
///     DF139 8 code units · DF140 the code units
public struct RTCMText: RTCMMessageBody {
    public static func reads(_ number: Int) -> Bool { number == 1029 }

    public let frame: RTCMFrame

    public init?(_ frame: RTCMFrame) {
        guard frame.payload.bitCount >= 72,
            72 + 8 * Int(frame.payload.unsigned(64, 8)) <= frame.payload.bitCount
        else { return nil }
        self.frame = frame
    }

    public var stationID: Int { Int(frame.payload.unsigned(12, 12)) }
    public var modifiedJulianDay: Int { Int(frame.payload.unsigned(24, 16)) }
    public var secondsOfDay: Int { Int(frame.payload.unsigned(40, 17)) }
    public var characterCount: Int { Int(frame.payload.unsigned(57, 7)) }
    public var codeUnits: Int { Int(frame.payload.unsigned(64, 8)) }

    public func write<Sink: RTCMFieldSink>(to sink: inout Sink) {
        sink.integer("station_id", Int64(stationID))
        sink.integer("mjd", Int64(modifiedJulianDay))
        sink.integer("sec", Int64(secondsOfDay))
        sink.integer("len", Int64(characterCount))
        sink.integer("units", Int64(codeUnits))
        let bits = frame.payload
        let count = codeUnits
        sink.characters("msg", count: count) { byte in bits.characters(72, count, byte) }
    }
}
