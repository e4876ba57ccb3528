extension FixAssembler {
    // MARK: Binary messages

    /// Adds what one binary navigation message tells (u-blox UBX: NAV-PVT, NAV-SOL, NAV-POSECEF…, decoded by the
    /// `UBX` module) and calls `emit` with each fix this completes.
    ///
    /// The message's GPS time of week keys its epoch: messages with the same one are one epoch, whatever order they
    /// come in, and an NMEA sentence of the same moment joins it. Its UTC time is the message's own (NAV-PVT,
    /// NAV-TIMEUTC), else the GPS time less the leap seconds (learned from NAV-TIMEGPS or NAV-PVT; 18 until then),
    /// and its date follows from the GPS week once a message gave one. The epoch ends at the receiver's own end of
    /// epoch (NAV-EOE), at the learned last message of its cycle, or when the next epoch begins.
    public mutating func add(_ report: EpochReport, _ emit: (Fix) -> Void) {
        take(report)
        handOut(emit)
    }

    /// ``add(_:_:)`` without handing out: the fixes it completes wait for the next ``handOut(_:)``.
    mutating func take(_ report: EpochReport) {
        if let leap = report.leapSeconds { leapSeconds = leap }
        // A week past 8191 (the year 2137) is no GPS week a receiver reports: garbage, not a date.
        if let week = report.week, (0...8191).contains(week), let timeOfWeek = report.timeOfWeekMilliseconds,
            (0..<GPSTime.weekMilliseconds).contains(timeOfWeek)
        {
            gpsWeek = (week, timeOfWeek)
        }
        guard let timeOfWeek = report.timeOfWeekMilliseconds, (0..<GPSTime.weekMilliseconds).contains(timeOfWeek) else {
            return
        }
        let (date, time) = utcMoment(of: report, timeOfWeek: timeOfWeek)
        if epoch.timeOfWeek == timeOfWeek, epoch.time != nil {
            // The same epoch: a time learned better since it began (the leap seconds, a message's own UTC) moves it.
            if let time, epoch.time != time, report.time != nil || report.leapSeconds != nil { epoch.retime(to: time) }
            if report.reportsFix { epoch.carriesFix = true }
        } else {
            guard begin(time, report.signature, reportsFix: report.reportsFix, lateDate: report.date) else { return }
            epoch.timeOfWeek = timeOfWeek
        }
        if let date { epoch.date = report.date ?? epoch.date ?? date }
        merge(report)
        finishSentence(report.signature)
        if report.endsEpoch && epoch.time != nil && epoch.carriesFix {
            statistics.epochsClosedByCycleEnd += 1
            close(learning: true)
        }
    }

    /// The UTC date and time of `report`'s epoch: its own, else from the GPS week and time of week less the leap
    /// seconds. The date is `nil` while no week is known.
    private func utcMoment(of report: borrowing EpochReport, timeOfWeek: Int64) -> (UTCDate?, UTCTime?) {
        if let time = report.time { return (report.date, time) }
        let leap = Int64(leapSeconds ?? 18)
        let milliseconds = timeOfWeek - leap * 1000
        let digits: UInt8 = milliseconds % 10 == 0 ? 2 : 3
        guard let (week, weekTimeOfWeek) = gpsWeek else {
            let ofDay = milliseconds.flooredDivision(by: 86_400_000).remainder
            return (nil, UTCDate.moment(nanosecondsSinceEpoch: ofDay * 1_000_000, fractionDigits: digits).time)
        }
        // A time of week well behind the one the week came with is in the next week (and ahead, the last).
        var weeks = Int64(week)
        if timeOfWeek < weekTimeOfWeek - 302_400_000 { weeks += 1 }
        if timeOfWeek > weekTimeOfWeek + 302_400_000 { weeks -= 1 }
        let sinceEpoch = GPSTime.epochMilliseconds + weeks * GPSTime.weekMilliseconds + milliseconds
        let (date, time) = UTCDate.moment(nanosecondsSinceEpoch: sinceEpoch * 1_000_000, fractionDigits: digits)
        return (date, time)
    }

    /// Merges a binary message's facts into the epoch. Later messages of the epoch overwrite earlier ones' (gpsd
    /// does the same); a message that says there is no fix takes the position away.
    private mutating func merge(_ report: EpochReport) {
        if let mode = report.mode {
            epoch.gsaMode = mode
            if mode == .none {
                epoch.sawInvalid = true
                epoch.modeQuality = nil
            } else {
                epoch.modeQuality = report.quality ?? epoch.modeQuality ?? .gps
            }
        }
        // A position off the globe is damage, not a place: the message's position is left out.
        if let latitude = report.latitude, let longitude = report.longitude, (-90...90).contains(latitude),
            (-180...180).contains(longitude)
        {
            epoch.latitude = latitude
            epoch.longitude = longitude
            epoch.positionPrecision = .max
        }
        if let altitude = report.altitudeMeters { epoch.altitude = altitude }
        if let height = report.ellipsoidHeightMeters { epoch.ellipsoidHeight = height }
        if let altitude = report.altitudeMeters, let height = report.ellipsoidHeightMeters {
            epoch.geoidSeparation = height - altitude
        }
        if let frame = report.localFrame { epoch.localFrame = frame }
        if let velocity = report.earthCentredVelocity, let frame = epoch.localFrame {
            mergeVelocity(velocity, frame)
        }
        if let speed = report.speed { epoch.speed = speed }
        if let course = report.courseDegrees { epoch.course = course }
        if let climb = report.climb { epoch.climb = climb }
        if let hdop = report.hdop { epoch.hdop = hdop }
        if let vdop = report.vdop { epoch.vdop = vdop }
        if let pdop = report.pdop { epoch.pdop = pdop }
        if let count = report.satellitesUsed { epoch.satellitesUsed = count }
        if let accuracy = report.horizontalAccuracyMeters { epoch.horizontalError = accuracy }
        if let accuracy = report.verticalAccuracyMeters { epoch.verticalError = accuracy }
        if let accuracy = report.speedAccuracyMetersPerSecond { epoch.speedError = accuracy }
        if let accuracy = report.timeAccuracySeconds { epoch.timeError = accuracy }
        if report.hasSky {
            epoch.sky = report.satellites
            epoch.sawGSV = true
        }
    }

    /// An Earth-centred velocity as speed over ground, course and climb, turned into north, east and down in the
    /// frame of the epoch's position.
    private mutating func mergeVelocity(
        _ v: (x: Double, y: Double, z: Double),
        _ f: (sinLatitude: Double, cosLatitude: Double, sinLongitude: Double, cosLongitude: Double)
    ) {
        let north = -f.sinLatitude * f.cosLongitude * v.x - f.sinLatitude * f.sinLongitude * v.y + f.cosLatitude * v.z
        let east = -f.sinLongitude * v.x + f.cosLongitude * v.y
        let down = -f.cosLatitude * f.cosLongitude * v.x - f.cosLatitude * f.sinLongitude * v.y - f.sinLatitude * v.z
        epoch.speed = (north * north + east * east).squareRoot()
        epoch.course = FixAssembler.courseDegrees(north: north, east: east)
        epoch.climb = -down
    }

    /// The course of a north and east velocity, degrees true 0..<360, without a math library: the angle from a
    /// rational approximation of the arctangent, good to 1e-5 degrees.
    static func courseDegrees(north: Double, east: Double) -> Double? {
        guard north != 0 || east != 0 else { return nil }
        // atan on [0, 1] by argument reduction to [0, tan(pi/12)] and a short series.
        func atan01(_ x: Double) -> Double {
            let t = 0.267_949_192_431_122_7  // tan(15°)
            if x > t { return .pi / 6 + atan01Small((x - 0.577_350_269_189_625_8) / (1 + 0.577_350_269_189_625_8 * x)) }
            return atan01Small(x)
        }
        func atan01Small(_ x: Double) -> Double {
            // |x| <= tan(15°): the series to x^15 is below 1e-10 in error.
            let x2 = x * x
            var term = x
            var sum = x
            // An integer loop: a floating-point stride steps with `addingProduct` (fma), which Embedded Swift on
            // wasm32 has no library for.
            for k in 1...10 {
                term *= -x2
                sum += term / Double(2 * k + 1)
            }
            return sum
        }
        let (a, b) = (abs(north), abs(east))
        var angle = a >= b ? atan01(b / a) : .pi / 2 - atan01(a / b)
        if north < 0 { angle = .pi - angle }
        if east < 0 { angle = 2 * .pi - angle }
        let degrees = angle * 180 / .pi
        return degrees >= 360 ? degrees - 360 : degrees
    }
}
