import NMEA

/// Writes a simulated epoch as the sentences a receiver would send.
public struct EpochWriter: Sendable {
    /// Which sentences a simulated receiver sends each epoch.
    public enum Profile: String, Sendable, CaseIterable {
        /// A modern multi-GNSS receiver: GNRMC, GNGGA, 4×GNGSA (with system IDs), 7×GSV (GP×3, GL×2, GA, GB),
        /// GNVTG, GNGLL, GNZDA — 16 sentences per epoch. The benchmark corpus.
        case multiGNSS = "multi-gnss"
        /// A classic GPS puck: GPRMC, GPGGA, GPGSA, 3×GPGSV.
        case gps
        /// RMC and GGA only.
        case rmcGGA = "rmc-gga"
        /// GGA only (no date at all: give one with `--date`).
        case ggaOnly = "gga"
    }

    public var profile: Profile
    /// Decimal places of the minutes in coordinates (5 is typical; 7–8 for RTK receivers).
    public var coordinateDecimals: Int
    /// Decimal places of the seconds in times.
    public var timeDecimals: Int

    public init(profile: Profile = .multiGNSS, coordinateDecimals: Int = 5, timeDecimals: Int = 2) {
        self.profile = profile
        self.coordinateDecimals = coordinateDecimals
        self.timeDecimals = timeDecimals
    }

    /// Appends the sentences for `fix` to `builder`.
    public func write(_ fix: SimulatedFix, into builder: inout SentenceBuilder) {
        let dateTime = fix.dateTime
        var time = dateTime.time
        time.fractionDigits = UInt8(timeDecimals)
        let date = dateTime.date
        let used = fix.satellites.filter { $0.used }
        switch profile {
        case .multiGNSS:
            rmc(fix, time, date, "GN", &builder)
            gga(fix, time, "GN", satellites: used.count, &builder)
            for (index, system) in [GNSSSystem.gps, .glonass, .galileo, .beidou].enumerated() {
                gsa(fix, used.filter { $0.system == system }, systemID: index + 1, "GN", &builder)
            }
            for (system, talker) in [(GNSSSystem.gps, "GP"), (.glonass, "GL"), (.galileo, "GA"), (.beidou, "GB")] {
                gsv(fix.satellites.filter { $0.system == system }, talker, signalID: 1, &builder)
            }
            vtg(fix, "GN", &builder)
            gll(fix, time, "GN", &builder)
            zda(time, date, "GN", &builder)
        case .gps:
            let gps = fix.satellites.filter { $0.system == .gps }
            rmc(fix, time, date, "GP", &builder)
            gga(fix, time, "GP", satellites: gps.filter(\.used).count, &builder)
            gsa(fix, gps.filter(\.used), systemID: nil, "GP", &builder)
            gsv(gps, "GP", signalID: nil, &builder)
        case .rmcGGA:
            rmc(fix, time, date, "GP", &builder)
            gga(fix, time, "GP", satellites: used.count, &builder)
        case .ggaOnly:
            gga(fix, time, "GP", satellites: used.count, &builder)
        }
    }

    private func mode(_ fix: SimulatedFix) -> String { fix.hasFix ? "A" : "N" }

    private func rmc(
        _ fix: SimulatedFix, _ time: UTCTime, _ date: UTCDate, _ talker: String,
        _ builder: inout SentenceBuilder
    ) {
        builder.begin(talker + "RMC")
        builder.field(time)
        builder.field(fix.hasFix ? "A" : "V")
        builder.latitude(fix.hasFix ? fix.latitude : nil, decimals: coordinateDecimals)
        builder.longitude(fix.hasFix ? fix.longitude : nil, decimals: coordinateDecimals)
        builder.field(fix.hasFix ? fix.speedMetersPerSecond * 3600 / 1852 : nil, decimals: 3)
        builder.field(fix.hasFix ? fix.courseDegrees : nil, decimals: 2)
        builder.field(date)
        builder.empty()
        builder.empty()
        builder.field(mode(fix))
        if profile == .multiGNSS { builder.field("V") }
        builder.end()
    }

    private func gga(
        _ fix: SimulatedFix, _ time: UTCTime, _ talker: String, satellites: Int,
        _ builder: inout SentenceBuilder
    ) {
        builder.begin(talker + "GGA")
        builder.field(time)
        builder.latitude(fix.hasFix ? fix.latitude : nil, decimals: coordinateDecimals)
        builder.longitude(fix.hasFix ? fix.longitude : nil, decimals: coordinateDecimals)
        builder.field(fix.hasFix ? 1 : 0)
        builder.field(fix.hasFix ? satellites : 0, digits: 2)
        builder.field(fix.hasFix ? hdop(satellites) : 99.99, decimals: 2)
        builder.field(fix.hasFix ? fix.altitudeMeters : nil, decimals: 1)
        builder.field(fix.hasFix ? "M" : "")
        builder.field(fix.hasFix ? 47.3 : nil, decimals: 1)
        builder.field(fix.hasFix ? "M" : "")
        builder.empty()
        builder.empty()
        builder.end()
    }

    private func gsa(
        _ fix: SimulatedFix, _ used: [SimulatedSatellite], systemID: Int?, _ talker: String,
        _ builder: inout SentenceBuilder
    ) {
        builder.begin(talker + "GSA")
        builder.field("A")
        builder.field(fix.hasFix ? 3 : 1)
        for slot in 0..<12 {
            builder.field(fix.hasFix && slot < used.count ? used[slot].prn : nil, digits: 2)
        }
        let count = fix.hasFix ? used.count : 0
        builder.field(fix.hasFix ? hdop(count) * 1.6 : 99.99, decimals: 2)
        builder.field(fix.hasFix ? hdop(count) : 99.99, decimals: 2)
        builder.field(fix.hasFix ? hdop(count) * 1.3 : 99.99, decimals: 2)
        if let systemID { builder.field(systemID) }
        builder.end()
    }

    private func gsv(
        _ satellites: [SimulatedSatellite], _ talker: String, signalID: Int?,
        _ builder: inout SentenceBuilder
    ) {
        let total = max(1, (satellites.count + 3) / 4)
        for message in 0..<total {
            builder.begin(talker + "GSV")
            builder.field(total)
            builder.field(message + 1)
            builder.field(satellites.count, digits: 2)
            for satellite in satellites.dropFirst(message * 4).prefix(4) {
                builder.field(satellite.prn, digits: 2)
                builder.field(satellite.elevation, digits: 2)
                builder.field(satellite.azimuth, digits: 3)
                builder.field(satellite.snr, digits: 2)
            }
            if let signalID { builder.field(signalID) }
            builder.end()
        }
    }

    private func vtg(_ fix: SimulatedFix, _ talker: String, _ builder: inout SentenceBuilder) {
        builder.begin(talker + "VTG")
        builder.field(fix.hasFix ? fix.courseDegrees : nil, decimals: 2)
        builder.field("T")
        builder.empty()
        builder.field("M")
        builder.field(fix.hasFix ? fix.speedMetersPerSecond * 3600 / 1852 : nil, decimals: 3)
        builder.field("N")
        builder.field(fix.hasFix ? fix.speedMetersPerSecond * 3.6 : nil, decimals: 3)
        builder.field("K")
        builder.field(mode(fix))
        builder.end()
    }

    private func gll(_ fix: SimulatedFix, _ time: UTCTime, _ talker: String, _ builder: inout SentenceBuilder) {
        builder.begin(talker + "GLL")
        builder.latitude(fix.hasFix ? fix.latitude : nil, decimals: coordinateDecimals)
        builder.longitude(fix.hasFix ? fix.longitude : nil, decimals: coordinateDecimals)
        builder.field(time)
        builder.field(fix.hasFix ? "A" : "V")
        builder.field(mode(fix))
        builder.end()
    }

    private func zda(_ time: UTCTime, _ date: UTCDate, _ talker: String, _ builder: inout SentenceBuilder) {
        builder.begin(talker + "ZDA")
        builder.field(time)
        builder.field(Int(date.day), digits: 2)
        builder.field(Int(date.month), digits: 2)
        builder.field(Int(date.year), digits: 4)
        builder.field("00")
        builder.field("00")
        builder.end()
    }

    private func hdop(_ satellites: Int) -> Double {
        satellites == 0 ? 99.99 : max(0.5, 8.0 / Double(satellites))
    }
}
