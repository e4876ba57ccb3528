import JSON
import NMEA

/// The JSON form of each decoded sentence, as `nmea parse` prints it: one object, field names in plain words with
/// units where they are not SI, absent fields left out.
extension JSONWriter {
    mutating func write(_ parsed: ParsedSentence, of sentence: Sentence) {
        beginObject()
        key("talker")
        asciiString(sentence.talker.write)
        key("type")
        switch parsed {
        case .pubxPosition, .pubxSatellites, .pubxTime:
            string("PUBX")
            key("id")
            string(parsed.kind == .pubxPosition ? "00" : parsed.kind == .pubxSatellites ? "03" : "04")
        default:
            asciiString(sentence.type.write)
        }
        switch parsed {
        case .rmc(let rmc): writeFields(rmc)
        case .gga(let gga): writeFields(gga)
        case .gsa(let gsa): writeFields(gsa)
        case .gsv(let gsv): writeFields(gsv)
        case .gll(let gll): writeFields(gll)
        case .vtg(let vtg): writeFields(vtg)
        case .zda(let zda): writeFields(zda)
        case .gst(let gst): writeFields(gst)
        case .gns(let gns): writeFields(gns)
        case .gbs(let gbs): writeFields(gbs)
        case .grs(let grs): writeFields(grs)
        case .txt(let txt): writeFields(txt)
        case .dtm(let dtm): writeFields(dtm)
        case .hdt(let hdt): field("heading", hdt.headingDegrees)
        case .ths(let ths):
            field("heading", ths.headingDegrees)
            field("mode", letter: ths.mode?.rawValue)
        case .pubxPosition(let pubx): writeFields(pubx)
        case .pubxSatellites(let pubx): writeFields(pubx)
        case .pubxTime(let pubx): writeFields(pubx)
        case .pgrme(let pgrme):
            field("hpe", pgrme.horizontalErrorMeters)
            field("vpe", pgrme.verticalErrorMeters)
            field("epe", pgrme.sphericalErrorMeters)
        case .pgrmz(let pgrmz):
            field("altitude", pgrmz.altitude)
            field("unit", letter: pgrmz.unit)
            field("fix_dimension", pgrmz.fixDimension)
        case .pgrmm(let pgrmm): field("datum", text: pgrmm.datum)
        case .unknown(let sentence): writeRawFields(of: sentence)
        }
        endObject()
    }

    /// A sentence whose checksum was right but whose fields could not be decoded: its raw fields and the reason.
    mutating func writeUndecodable(_ sentence: Sentence, error: NMEAError) {
        beginObject()
        key("talker")
        asciiString(sentence.talker.write)
        key("type")
        asciiString(sentence.type.write)
        field("error", error.description)
        writeRawFields(of: sentence)
        endObject()
    }

    mutating func writeRawFields(of sentence: Sentence) {
        key("fields")
        beginArray()
        var reader = sentence.fieldReader
        while let field = reader.nextField() { string(bytes: field.bytes) }
        endArray()
    }

    // MARK: Per type

    private mutating func writeFields(_ rmc: RMC) {
        field("time", rmc.time)
        field("status", rmc.isValid ? "A" : "V")
        field("lat", rmc.latitude)
        field("lon", rmc.longitude)
        field("speed_knots", rmc.speedKnots)
        field("course", rmc.courseDegrees)
        field("date", rmc.date)
        field("magnetic_variation", rmc.magneticVariationDegrees)
        field("mode", letter: rmc.mode?.rawValue)
        field("nav_status", letter: rmc.navigationalStatus?.rawValue)
    }

    private mutating func writeFields(_ gga: GGA) {
        field("time", gga.time)
        field("lat", gga.latitude)
        field("lon", gga.longitude)
        field("quality", gga.quality.map { Int($0.rawValue) })
        field("satellites", gga.satellitesUsed)
        field("hdop", gga.hdop)
        field("altitude", gga.altitudeMeters)
        field("geoid_separation", gga.geoidSeparationMeters)
        field("dgps_age", gga.differentialAgeSeconds)
        field("dgps_station", gga.differentialStationID)
    }

    private mutating func writeFields(_ gsa: GSA) {
        field("selection", letter: gsa.selectionMode)
        field("fix", gsa.fixType.map { Int($0.rawValue) })
        key("prns")
        beginArray()
        for prn in gsa.satellites { number(Int(prn)) }
        endArray()
        field("pdop", gsa.pdop)
        field("hdop", gsa.hdop)
        field("vdop", gsa.vdop)
        field("system_id", gsa.systemID.map(Int.init))
    }

    private mutating func writeFields(_ gsv: GSV) {
        field("total", gsv.totalMessages)
        field("number", gsv.messageNumber)
        field("in_view", gsv.satellitesInView)
        key("satellites")
        beginArray()
        for satellite in gsv.satellites {
            beginObject()
            field("prn", Int(satellite.prn))
            field("elevation", satellite.elevationDegrees.map(Int.init))
            field("azimuth", satellite.azimuthDegrees.map(Int.init))
            field("snr", satellite.snr.map(Int.init))
            endObject()
        }
        endArray()
        field("signal_id", gsv.signalID.map(Int.init))
    }

    private mutating func writeFields(_ gll: GLL) {
        field("lat", gll.latitude)
        field("lon", gll.longitude)
        field("time", gll.time)
        field("status", gll.isValid ? "A" : "V")
        field("mode", letter: gll.mode?.rawValue)
    }

    private mutating func writeFields(_ vtg: VTG) {
        field("course", vtg.courseTrueDegrees)
        field("course_magnetic", vtg.courseMagneticDegrees)
        field("speed_knots", vtg.speedKnots)
        field("speed_kmh", vtg.speedKilometersPerHour)
        field("mode", letter: vtg.mode?.rawValue)
    }

    private mutating func writeFields(_ zda: ZDA) {
        field("time", zda.time)
        field("date", zda.date)
        field("zone_hours", zda.localZoneHours)
        field("zone_minutes", zda.localZoneMinutes)
    }

    private mutating func writeFields(_ gst: GST) {
        field("time", gst.time)
        field("rms", gst.rangeRMSMeters)
        field("semi_major", gst.semiMajorMeters)
        field("semi_minor", gst.semiMinorMeters)
        field("orientation", gst.orientationDegrees)
        field("lat_error", gst.latitudeErrorMeters)
        field("lon_error", gst.longitudeErrorMeters)
        field("alt_error", gst.altitudeErrorMeters)
    }

    private mutating func writeFields(_ gns: GNS) {
        field("time", gns.time)
        field("lat", gns.latitude)
        field("lon", gns.longitude)
        key("modes")
        asciiString { output in for mode in gns.modes { output(mode.rawValue) } }
        field("satellites", gns.satellitesUsed)
        field("hdop", gns.hdop)
        field("altitude", gns.altitudeMeters)
        field("geoid_separation", gns.geoidSeparationMeters)
        field("dgps_age", gns.differentialAgeSeconds)
        field("dgps_station", gns.differentialStationID)
        field("nav_status", letter: gns.navigationalStatus?.rawValue)
    }

    private mutating func writeFields(_ gbs: GBS) {
        field("time", gbs.time)
        field("lat_error", gbs.latitudeErrorMeters)
        field("lon_error", gbs.longitudeErrorMeters)
        field("alt_error", gbs.altitudeErrorMeters)
        field("failed_prn", gbs.failedSatellite)
        field("probability", gbs.missedDetectionProbability)
        field("bias", gbs.biasMeters)
        field("bias_stddev", gbs.biasStandardDeviationMeters)
        field("system_id", gbs.systemID.map(Int.init))
        field("signal_id", gbs.signalID.map(Int.init))
    }

    private mutating func writeFields(_ grs: GRS) {
        field("time", grs.time)
        field("mode", grs.mode)
        key("residuals")
        beginArray()
        for residual in grs.residualsMeters {
            if let residual { number(residual) } else { null() }
        }
        endArray()
        field("system_id", grs.systemID.map(Int.init))
        field("signal_id", grs.signalID.map(Int.init))
    }

    private mutating func writeFields(_ txt: TXT) {
        field("total", txt.totalMessages)
        field("number", txt.messageNumber)
        field("id", txt.identifier)
        field("text", text: txt.text)
    }

    private mutating func writeFields(_ dtm: DTM) {
        field("datum", code: dtm.localDatum)
        if !dtm.subdivision.isEmpty { field("subdivision", code: dtm.subdivision) }
        field("lat_offset_minutes", dtm.latitudeOffsetMinutes)
        field("lon_offset_minutes", dtm.longitudeOffsetMinutes)
        field("alt_offset", dtm.altitudeOffsetMeters)
        field("reference_datum", code: dtm.referenceDatum)
    }

    private mutating func writeFields(_ pubx: PUBXPosition) {
        field("time", pubx.time)
        field("lat", pubx.latitude)
        field("lon", pubx.longitude)
        field("altitude_ellipsoid", pubx.altitudeEllipsoidMeters)
        field("nav_status", code: pubx.navigationStatus)
        field("h_accuracy", pubx.horizontalAccuracyMeters)
        field("v_accuracy", pubx.verticalAccuracyMeters)
        field("speed_kmh", pubx.speedKilometersPerHour)
        field("course", pubx.courseDegrees)
        field("vertical_velocity_down", pubx.verticalVelocity)
        field("dgps_age", pubx.differentialAgeSeconds)
        field("hdop", pubx.hdop)
        field("vdop", pubx.vdop)
        field("tdop", pubx.tdop)
        field("satellites", pubx.satellitesUsed)
        field("dead_reckoning", pubx.deadReckoning)
    }

    private mutating func writeFields(_ pubx: PUBXSatellites) {
        field("count", pubx.count)
        key("satellites")
        beginArray()
        for satellite in pubx.satellites {
            beginObject()
            field("id", satellite.id)
            field("status", letter: satellite.status)
            field("azimuth", satellite.azimuthDegrees)
            field("elevation", satellite.elevationDegrees)
            field("cno", satellite.carrierToNoise)
            field("lock_seconds", satellite.lockTimeSeconds)
            endObject()
        }
        endArray()
    }

    private mutating func writeFields(_ pubx: PUBXTime) {
        field("time", pubx.time)
        field("date", pubx.date)
        field("time_of_week", pubx.timeOfWeekSeconds)
        field("week", pubx.weekNumber)
        field("leap_seconds", pubx.leapSeconds)
        if pubx.leapSeconds != nil { field("leap_seconds_default", pubx.leapSecondsAreDefault) }
        field("clock_bias_ns", pubx.clockBiasNanoseconds)
        field("clock_drift_ns_per_s", pubx.clockDriftNanosecondsPerSecond)
        field("time_pulse_granularity_ns", pubx.timePulseGranularityNanoseconds)
    }

    // MARK: Value helpers

    mutating func field(_ name: StaticString, _ time: UTCTime?) {
        guard let time else { return }
        key(name)
        asciiString(time.write)
    }

    mutating func field(_ name: StaticString, _ date: UTCDate?) {
        guard let date else { return }
        key(name)
        asciiString(date.write)
    }

    mutating func field(_ name: StaticString, letter: UInt8?) {
        guard let letter else { return }
        key(name)
        withUnsafeBytes(of: letter) { string(bytes: $0) }
    }

    mutating func field(_ name: StaticString, code: ShortCode) {
        key(name)
        asciiString(code.write)
    }

    mutating func field(_ name: StaticString, text: ShortText) {
        key(name)
        text.withBytes { string(bytes: $0) }
    }
}
