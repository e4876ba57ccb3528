import NMEA

/// UBX NAV-SVINFO (`01 30`, 8 + 12 per channel; u-blox 5 to 8): the satellites in view, by receiver channel.
///
///     0 U4 iTOW ms · 4 U1 numCh · 5 X1 globalFlags · then per channel at 8 + 12n:
///     U1 chn · U1 svid · X1 flags (svUsed bit 0) · X1 quality · U1 cno dBHz · I1 elev ° · I2 azim ° · I4 prRes cm
public struct NAVSVINFO: UBXMessageBody {
    public static let id = UBXMessageID.navSVINFO
    public let payload: UBXPayload

    public init?(_ payload: UBXPayload) {
        guard payload.count >= 8, payload.count >= 8 + 12 * Int(payload.u1(4)) else { return nil }
        self.payload = payload
    }

    public var iTOW: UInt32 { payload.u4(0) }
    public var numCh: Int { Int(payload.u1(4)) }

    public func write<Sink: UBXFieldSink>(to sink: inout Sink) {
        sink.integer("iTOW", Int64(iTOW))
        sink.integer("numCh", Int64(numCh))
        sink.integer("globalFlags", Int64(payload.u1(5)))
        sink.beginList("channels")
        for index in 0..<numCh {
            let at = 8 + 12 * index
            sink.beginItem()
            sink.integer("chn", Int64(payload.u1(at)))
            sink.integer("svid", Int64(payload.u1(at + 1)))
            sink.integer("flags", Int64(payload.u1(at + 2)))
            sink.integer("quality", Int64(payload.u1(at + 3)))
            sink.integer("cno", Int64(payload.u1(at + 4)))
            sink.integer("elev", Int64(payload.i1(at + 5)))
            sink.integer("azim", Int64(payload.i2(at + 6)))
            sink.number("prRes", Double(payload.i4(at + 8)) / 100, decimals: 2)
            sink.endItem()
        }
        sink.endList()
    }

    public func report() -> EpochReport? {
        var report = emptyReport(timeOfWeek: iTOW)
        report.hasSky = true
        for index in 0..<min(numCh, 64) {
            let at = 8 + 12 * index
            let svid = payload.u1(at + 1)
            guard svid != 0 else { continue }
            let elevation = payload.i1(at + 5)
            let azimuth = payload.i2(at + 6)
            report.satellites.append(
                SatelliteInView(
                    system: UBXSatellite.system(svid: svid), prn: UInt16(svid),
                    elevationDegrees: (-90...90).contains(elevation) ? elevation : nil,
                    azimuthDegrees: (0...359).contains(azimuth) ? UInt16(azimuth) : nil,
                    snr: payload.u1(at + 4) == 0 ? nil : SignalToNoise(payload.u1(at + 4)),
                    isUsed: payload.u1(at + 2) & 1 != 0))
        }
        return report
    }
}
