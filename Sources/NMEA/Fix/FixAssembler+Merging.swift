extension FixAssembler {
    // MARK: Merging

    mutating func merge(_ rmc: RMC) {
        if rmc.isValid, let latitude = rmc.latitude, let longitude = rmc.longitude {
            epoch.setPosition(latitude, longitude)
            epoch.modeQuality = epoch.modeQuality ?? rmc.mode.map(FixQuality.init)
        } else if !rmc.isValid {
            epoch.sawInvalid = true
        }
        if let knots = rmc.speedKnots { epoch.speed = epoch.speed ?? knots.doubleValue * 1852 / 3600 }
        if let course = rmc.courseDegrees { epoch.course = epoch.course ?? course.doubleValue }
        if let variation = rmc.magneticVariationDegrees { epoch.magneticVariation = variation.doubleValue }
        if rmc.isValid, var date = rmc.date {
            if let century { date.year = Int16(century + Int(date.year) % 100) }
            epoch.date = date
        }
    }

    mutating func merge(_ gga: GGA) {
        if let quality = gga.quality, quality.hasFix, let latitude = gga.latitude, let longitude = gga.longitude {
            epoch.setPosition(latitude, longitude)
            epoch.ggaQuality = FixQuality(quality)
        } else if gga.quality == .invalid {
            epoch.sawInvalid = true
        }
        if gga.quality?.hasFix == true { epoch.sawAltitudeField = true }
        if let count = gga.satellitesUsed { epoch.satellitesUsed = count }
        if let hdop = gga.hdop { epoch.hdop = hdop.doubleValue }
        if let altitude = gga.altitudeMeters { epoch.altitude = altitude.doubleValue }
        if let separation = gga.geoidSeparationMeters { epoch.geoidSeparation = separation.doubleValue }
        if let age = gga.differentialAgeSeconds { epoch.differentialAge = age.doubleValue }
        if let station = gga.differentialStationID { epoch.differentialStation = station }
    }

    mutating func merge(_ gns: GNS) {
        var best = FixQuality.none
        for mode in gns.modes where FixQuality(mode).rawValue > best.rawValue { best = FixQuality(mode) }
        if best != .none, let latitude = gns.latitude, let longitude = gns.longitude {
            epoch.setPosition(latitude, longitude)
            epoch.modeQuality = epoch.modeQuality ?? best
        } else if !gns.modes.isEmpty && best == .none {
            epoch.sawInvalid = true
        }
        if best != .none { epoch.sawAltitudeField = true }
        if let count = gns.satellitesUsed { epoch.satellitesUsed = epoch.satellitesUsed ?? count }
        if let hdop = gns.hdop { epoch.hdop = epoch.hdop ?? hdop.doubleValue }
        if let altitude = gns.altitudeMeters { epoch.altitude = epoch.altitude ?? altitude.doubleValue }
        if let separation = gns.geoidSeparationMeters {
            epoch.geoidSeparation = epoch.geoidSeparation ?? separation.doubleValue
        }
    }

    mutating func merge(_ gll: GLL) {
        if gll.isValid && gll.mode != .notValid, let latitude = gll.latitude, let longitude = gll.longitude {
            epoch.setPosition(latitude, longitude)
            epoch.modeQuality = epoch.modeQuality ?? gll.mode.map(FixQuality.init)
        } else if !gll.isValid {
            epoch.sawInvalid = true
        }
    }

    mutating func merge(_ vtg: VTG) {
        if let knots = vtg.speedKnots {
            epoch.speed = epoch.speed ?? knots.doubleValue * 1852 / 3600
        } else if let kmh = vtg.speedKilometersPerHour {
            epoch.speed = epoch.speed ?? kmh.doubleValue / 3.6
        }
        if let course = vtg.courseTrueDegrees { epoch.course = epoch.course ?? course.doubleValue }
    }

    mutating func merge(_ gsa: GSA) {
        if let fixType = gsa.fixType {
            let mode: FixMode = fixType == .threeD ? .threeD : fixType == .twoD ? .twoD : .none
            epoch.gsaMode = max(epoch.gsaMode ?? .none, mode)
        }
        let system = gsa.system
        for prn in gsa.satellites {
            epoch.used.insert(system ?? GNSSSystem(prn: Int(prn)), prn)
            epoch.usedCount += 1
        }
        if let pdop = gsa.pdop { epoch.pdop = pdop.doubleValue }
        if let hdop = gsa.hdop { epoch.hdop = epoch.hdop ?? hdop.doubleValue }
        if let vdop = gsa.vdop { epoch.vdop = vdop.doubleValue }
    }

    mutating func merge(_ gsv: GSV) {
        let system = gsv.talker.system
        for satellite in gsv.satellites {
            epoch.sky.append(
                SatelliteInView(
                    system: system ?? GNSSSystem(prn: Int(satellite.prn)), prn: satellite.prn,
                    elevationDegrees: satellite.elevationDegrees, azimuthDegrees: satellite.azimuthDegrees,
                    snr: satellite.snr, signalID: gsv.signalID))
        }
        epoch.sawGSV = true
    }

    mutating func merge(_ gst: GST) {
        if let error = gst.latitudeErrorMeters { epoch.latitudeError = error.doubleValue }
        if let error = gst.longitudeErrorMeters { epoch.longitudeError = error.doubleValue }
        if let error = gst.altitudeErrorMeters { epoch.verticalError = error.doubleValue }
        if let lat = gst.latitudeErrorMeters?.doubleValue, let lon = gst.longitudeErrorMeters?.doubleValue {
            epoch.horizontalError = (lat * lat + lon * lon).squareRoot()
        }
    }

    mutating func merge(_ pubx: PUBXPosition) {
        let status = pubx.navigationStatus
        let valid = status != "NF" && status != "TT" && !status.isEmpty
        if valid, let latitude = pubx.latitude, let longitude = pubx.longitude {
            epoch.setPosition(latitude, longitude)
            let quality: FixQuality =
                status == "DR"
                ? .deadReckoning
                : status == "D2" || status == "D3" ? .differential : .gps
            epoch.modeQuality = epoch.modeQuality ?? quality
            if status == "G2" || status == "D2" { epoch.gsaMode = epoch.gsaMode ?? .twoD }
            if status == "G3" || status == "D3" || status == "RK" { epoch.gsaMode = epoch.gsaMode ?? .threeD }
        } else if !valid {
            epoch.sawInvalid = true
        }
        if let accuracy = pubx.horizontalAccuracyMeters { epoch.horizontalError = accuracy.doubleValue }
        if let accuracy = pubx.verticalAccuracyMeters { epoch.verticalError = accuracy.doubleValue }
        if let kmh = pubx.speedKilometersPerHour { epoch.speed = epoch.speed ?? kmh.doubleValue / 3.6 }
        if let course = pubx.courseDegrees { epoch.course = epoch.course ?? course.doubleValue }
        if let down = pubx.verticalVelocity { epoch.climb = -down.doubleValue }
        if let hdop = pubx.hdop { epoch.hdop = epoch.hdop ?? hdop.doubleValue }
        if let vdop = pubx.vdop { epoch.vdop = epoch.vdop ?? vdop.doubleValue }
        if let count = pubx.satellitesUsed { epoch.satellitesUsed = epoch.satellitesUsed ?? count }
        if let height = pubx.altitudeEllipsoidMeters { epoch.ellipsoidHeight = height.doubleValue }
    }
}
