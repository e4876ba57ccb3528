import NMEA

/// UBX NAV-SAT (`01 35`, 8 + 12 per satellite; protocol 15+): the satellites in view.
///
///     0 U4 iTOW ms · 4 U1 version · 5 U1 numSvs · then per satellite at 8 + 12n:
///     U1 gnssId · U1 svId · U1 cno dBHz · I1 elev ° · I2 azim ° · I2 prRes 0.1 m · X4 flags (svUsed bit 3)
public struct NAVSAT: UBXMessageBody {
    public static let id = UBXMessageID.navSAT
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 8, payload.count >= 8 + 12 * Int(payload.u1(5)) else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var numSvs: Int { Int(payload.u1(5)) }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.integer("version", Int64(payload.u1(4)))
        sink.integer("numSvs", Int64(numSvs))
        sink.beginList("svs")
        for index in 0..<numSvs {
            let at = 8 + 12 * index
            sink.beginItem()
            sink.integer("gnssId", Int64(payload.u1(at)))
            sink.integer("svId", Int64(payload.u1(at + 1)))
            sink.integer("cno", Int64(payload.u1(at + 2)))
            sink.integer("elev", Int64(payload.i1(at + 3)))
            sink.integer("azim", Int64(payload.i2(at + 4)))
            sink.number("prRes", Double(payload.i2(at + 6)) / 10, decimals: 1)
            sink.integer("flags", Int64(payload.u4(at + 8)))
            sink.endItem()
        }
        sink.endList()
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        report.hasSky = true
        for index in 0..<min(numSvs, 64) {
            let at = 8 + 12 * index
            let elevation = payload.i1(at + 3)
            let azimuth = payload.i2(at + 4)
            report.satellites.append(
                SatelliteInView(
                    system: UBXSatellite.system(gnssID: payload.u1(at)), prn: UInt16(payload.u1(at + 1)),
                    elevationDegrees: (-90...90).contains(elevation) ? elevation : nil,
                    azimuthDegrees: (0...359).contains(azimuth) ? UInt16(azimuth) : nil,
                    snr: payload.u1(at + 2) == 0 ? nil : SignalToNoise(payload.u1(at + 2)),
                    isUsed: payload.u4(at + 8) & 8 != 0))
        }
        return report
    }
}

/// The systems of u-blox's gnssId numbers.
enum UBXSatellite {
    /// 0 GPS, 1 SBAS (reported with GPS, as NMEA does), 2 Galileo, 3 BeiDou, 5 QZSS, 6 GLONASS, 7 NavIC.
    static func system(gnssID: UInt8) -> GNSSSystem? {
        switch gnssID {
        case 0, 1: .gps
        case 2: .galileo
        case 3: .beidou
        case 5: .qzss
        case 6: .glonass
        case 7: .navic
        default: nil
        }
    }

    /// The system of a u-blox 6/7 satellite number (NAV-SVINFO): GPS 1–32, SBAS 120–158, GLONASS 65–96, QZSS
    /// 193–197 as NMEA numbers them.
    static func system(svid: UInt8) -> GNSSSystem? { GNSSSystem(prn: Int(svid)) }
}
