import NMEA

/// RTCM 1001–1004 (GPS) and 1009–1012 (GLONASS), the legacy observables: the epoch and the satellites observed.
///
///     GPS:     DF002 12 · DF003 12 · DF004 30 TOW ms · DF005 1 sync · DF006 5 satellites · DF007 1 smoothing
///              DF008 3 interval · then 58, 74, 101 or 125 bits a satellite, its ID first (6 bits)
///     GLONASS: DF002 12 · DF003 12 · DF034 27 time of day ms · DF005 1 · DF035 5 · DF036 1 · DF037 3 · then 64,
///              79, 107 or 130 bits a satellite, its slot first (6 bits)
public struct RTCMObservables: RTCMMessageBody {
    public static func reads(_ number: Int) -> Bool { (1001...1004).contains(number) || (1009...1012).contains(number) }

    public let frame: RTCMFrame

    private var isGPS: Bool { frame.messageNumber <= 1004 }
    private var headerBits: Int { isGPS ? 64 : 61 }
    private var satelliteBits: Int {
        let sizes = isGPS ? [58, 74, 101, 125] : [64, 79, 107, 130]
        return sizes[(frame.messageNumber - (isGPS ? 1001 : 1009))]
    }

    public init?(_ frame: RTCMFrame) {
        self.frame = frame
        guard frame.payload.bitCount >= headerBits,
            headerBits + satelliteCount * satelliteBits <= frame.payload.bitCount
        else { return nil }
    }

    public var stationID: Int { Int(frame.payload.unsigned(12, 12)) }
    /// GPS: time of week, ms; GLONASS: time of day, ms.
    public var epochMilliseconds: Int { Int(frame.payload.unsigned(24, isGPS ? 30 : 27)) }
    private var at: Int { isGPS ? 54 : 51 }
    public var synchronous: Bool { frame.payload.unsigned(at, 1) == 1 }
    public var satelliteCount: Int { Int(frame.payload.unsigned(at + 1, 5)) }
    public var smoothing: Bool { frame.payload.unsigned(at + 6, 1) == 1 }
    public var interval: Int { Int(frame.payload.unsigned(at + 7, 3)) }

    /// The satellites' IDs (GPS PRN, GLONASS slot), in order.
    public func forEachSatellite(_ body: (Int) -> Void) {
        for index in 0..<satelliteCount {
            body(Int(frame.payload.unsigned(headerBits + index * satelliteBits, 6)))
        }
    }

    public func write<Sink: RTCMFieldSink>(to sink: inout Sink) {
        sink.integer("station_id", Int64(stationID))
        sink.integer("tow", Int64(epochMilliseconds))
        sink.text("sync", synchronous ? "true" : "false")
        sink.text("smoothing", smoothing ? "true" : "false")
        sink.text("interval", String(interval))
        sink.beginList("satellites")
        forEachSatellite { ident in
            sink.beginItem()
            sink.integer("ident", Int64(ident))
            sink.endItem()
        }
        sink.endList()
    }
}
