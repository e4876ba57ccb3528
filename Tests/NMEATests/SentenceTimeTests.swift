import Testing

@testable import NMEA

/// The time a sentence carries, read as its decoder reads it: the one NMEA time parser, for pacing replays. The
/// cases below are where the two hand-written parsers (Watch's and Publisher's replay pacing) disagreed.
@Suite struct SentenceTimeTests {
    static func time(_ line: String) -> UTCTime? {
        var line = line
        return line.withUTF8 { Sentence.time(inLine: UnsafeRawBufferPointer($0)) }
    }

    static func at(_ hour: UInt8, _ minute: UInt8, _ second: UInt8, _ nanoseconds: UInt32 = 0) -> UTCTime {
        UTCTime(hour: hour, minute: minute, second: second, nanoseconds: nanoseconds)
    }

    @Test func epochStampingTypes() {
        #expect(
            Self.time("$GPRMC,123519.50,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n")
                == Self.at(12, 35, 19, 500_000_000))
        #expect(Self.time("$GNGGA,080000.00,4808.244,N,01134.530,E,1,24,0.5,520.0,M,47.3,M,,") == Self.at(8, 0, 0))
        #expect(Self.time("$GPGLL,4916.45,N,12311.12,W,225444,A,*1D") == Self.at(22, 54, 44))
        for type in ["GNS", "ZDA", "GST", "GBS", "GRS"] {
            #expect(Self.time("$GN\(type),010203,1,2,3") == Self.at(1, 2, 3), "\(type)")
        }
        // A Quectel `PQ` talker sends standard sentences.
        #expect(Self.time("$PQRMC,010203,A,,,,,,,,,") == Self.at(1, 2, 3))
    }

    @Test func typesWithoutAnEpochTime() {
        #expect(Self.time("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39") == nil)
        #expect(Self.time("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48") == nil)
        // Garmin's proprietary `$PGRMC` is not an RMC (Publisher's parser took any address ending in RMC).
        #expect(Self.time("$PGRMC,123519,A") == nil)
        #expect(Self.time("not a sentence") == nil)
        #expect(Self.time("") == nil)
    }

    @Test func invalidTimesAreNone() {
        // Out of range (Publisher's parser made 25:60:00 of it).
        #expect(Self.time("$GPGGA,256000,4807.038,N") == nil)
        // Too short, or not digits.
        #expect(Self.time("$GPGGA,1235,4807.038,N") == nil)
        #expect(Self.time("$GPGGA,12a519,4807.038,N") == nil)
        // A fraction that is not digits (Publisher's parser kept the 0.5, Watch's dropped the time).
        #expect(Self.time("$GPGGA,123519.5x,4807.038,N") == nil)
        #expect(Self.time("$GPGGA,,4807.038,N") == nil)
    }

    @Test func asTheDecodersReadIt() {
        // Padded with a space, as some loggers write it (both hand-written parsers dropped it).
        #expect(Self.time("$GPGGA, 123519,4807.038,N") == Self.at(12, 35, 19))
        // Nine fraction digits are kept; more are read and dropped.
        #expect(Self.time("$GPRMC,123519.1234567891,A") == Self.at(12, 35, 19, 123_456_789))
        // A leap second.
        #expect(Self.time("$GPZDA,235960,31,12,2016,00,00") == Self.at(23, 59, 60))
        // The time the framed sentence carries is the same one.
        let framed = try? Sentence.withParsing("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A") {
            sentence throws(NMEAError) in sentence.time
        }
        #expect(framed == Self.at(12, 35, 19))
    }
}
