import Testing

@testable import NMEA

/// Marine instruments: MWV, MWD, VWR, VWT, VHW, VBW, VLW, VPW, MTW, MTA, MDA, XDR, RPM, RSA.
///
/// Field layouts from "NMEA Revealed" (gpsd.gitlab.io/gpsd/NMEA.html, www/NMEA.adoc: MDA, MTW, MWV, RPM, RSA, VBW,
/// VHW, VLW, VPW, VWR, XDR and its units), go-nmea (github.com/adrianmo/go-nmea: mwd.go, vwt.go, mta.go, mda.go,
/// xdr.go for the transducer types, vbw.go) and pynmeagps (github.com/semuconsulting/pynmeagps,
/// src/pynmeagps/nmeatypes_get.py: VBW's stern fields, VLW's ground distances, MWV's `K M N S`), which agree with
/// NMEA 0183 4.11 as they summarise it. The `static let`s are real-looking sentences made for these tests (checksums
/// computed); the public samples are quoted where they are used, with their source.
@Suite struct MarineInstrumentTests {
    static let mwv = "$WIMWV,320.0,R,15.2,N,A*14"
    static let mwd = "$WIMWD,270.5,T,268.1,M,14.2,N,7.3,M*64"
    static let vwr = "$IIVWR,045.0,L,12.6,N,6.5,M,23.3,K*52"
    static let vwt = "$IIVWT,030.5,R,10.2,N,5.2,M,18.9,K*4D"
    static let vhw = "$IIVHW,245.1,T,243.0,M,6.4,N,11.9,K*69"
    static let vbw = "$IIVBW,6.4,-0.2,A,6.8,0.1,A,0.3,A,0.4,A*66"
    static let vlw = "$IIVLW,1234.5,N,12.3,N,1220.8,N,11.9,N*4C"
    static let vpw = "$IIVPW,4.5,N,2.3,M*52"
    static let mtw = "$IIMTW,18.6,C*1C"
    static let mta = "$WIMTA,21.4,C*1C"
    static let mda = "$WIMDA,29.92,I,1.013,B,21.4,C,18.6,C,65.2,,14.6,C,270.5,T,268.1,M,14.2,N,7.3,M*33"
    static let xdr = "$YXXDR,C,21.4,C,AIRTEMP,P,1.013,B,BARO,H,65.2,P,HUMIDITY*3F"
    static let rpm = "$ERRPM,E,1,2418.2,10.5,A*48"
    static let rsa = "$AGRSA,-5.2,A,-4.9,A*4C"

    static let all = [mwv, mwd, vwr, vwt, vhw, vbw, vlw, vpw, mtw, mta, mda, xdr, rpm, rsa]

    @Test func windSpeedAndAngle() throws {
        let mwv = try MWV(parsing: Self.mwv)
        #expect(
            mwv
                == MWV(
                    talker: .weatherInstruments, angleDegrees: fp(3200, 1), reference: .relative, speed: fp(152, 1),
                    speedUnit: .knots, isValid: true))
        #expect(abs(mwv.speedMetersPerSecond! - 15.2 * 1852 / 3600) < 1e-12)
        // gpsd's regression log test/daemon/bundg_zeus_9.log; pynmea2's examples/data.log.
        #expect(
            try MWV(parsing: "$WIMWV,57.5,R,13.0,N,A*26")
                == MWV(angleDegrees: fp(575, 1), reference: .relative, speed: 13, speedUnit: .knots, isValid: true))
        #expect(
            try MWV(parsing: "$IIMWV,271.0,R,000.2,N,A*3B")
                == MWV(
                    talker: .integratedInstrumentation, angleDegrees: 271, reference: .relative, speed: fp(2, 1),
                    speedUnit: .knots, isValid: true))
        // True wind in m/s, km/h and mph; an invalid reading with its fields left empty (Vaisala's way).
        let theoretical = try MWV(parsing: withChecksum("$WIMWV,12.1,T,5.5,M,A"))
        #expect(theoretical.reference == .theoretical && theoretical.speedMetersPerSecond == 5.5)
        #expect(try MWV(parsing: withChecksum("$WIMWV,12.1,T,36,K,A")).speedMetersPerSecond == 10)
        #expect(abs(try MWV(parsing: withChecksum("$WIMWV,12.1,T,10,S,A")).speedMetersPerSecond! - 4.4704) < 1e-12)
        #expect(
            try MWV(parsing: withChecksum("$WIMWV,,R,,M,V"))
                == MWV(angleDegrees: nil, reference: .relative, speed: nil, speedUnit: .metersPerSecond, isValid: false)
        )
        // Without its status field (before NMEA 2.0): decoded, the status absent.
        let old = try expectCutShort(MWV.self, Self.mwv, keeping: 4)
        #expect(old.speed == fp(152, 1) && old.speedUnit == .knots && old.isValid == nil)
        #expect(old.speedMetersPerSecond != nil)
        #expect(try MWV(parsing: withChecksum("$WIMWV,320.0,R,15.2")).speedMetersPerSecond == nil)
    }

    @Test func windDirectionOverGround() throws {
        let wind = WindDirectionAndSpeed(
            directionTrueDegrees: fp(2705, 1), directionMagneticDegrees: fp(2681, 1), speedKnots: fp(142, 1),
            speedMetersPerSecond: fp(73, 1))
        #expect(try MWD(parsing: Self.mwd) == MWD(talker: .weatherInstruments, wind: wind))
        // gpsd's regression log test/daemon/bundg_zeus_9.log; go-nmea's mwd.go.
        #expect(
            try MWD(parsing: "$WIMWD,331.7,T,330.3,M,11.5,N,5.9,M*66").wind
                == WindDirectionAndSpeed(
                    directionTrueDegrees: fp(3317, 1), directionMagneticDegrees: fp(3303, 1), speedKnots: fp(115, 1),
                    speedMetersPerSecond: fp(59, 1)))
        #expect(try MWD(parsing: "$WIMWD,10.1,T,10.1,M,12,N,40,M*5D").wind.speedMetersPerSecond == 40)
        // No compass: the magnetic direction empty.
        let noCompass = try MWD(parsing: withChecksum("$WIMWD,270.5,T,,M,14.2,N,7.3,M"))
        #expect(noCompass.wind.directionMagneticDegrees == nil && noCompass.wind.directionTrueDegrees == fp(2705, 1))
        try expectCutShort(MWD.self, Self.mwd, keeping: 4)
    }

    @Test func relativeAndTrueWindLeftOrRight() throws {
        #expect(
            try VWR(parsing: Self.vwr)
                == VWR(
                    wind: WindAngleAndSpeeds(
                        angleDegrees: fp(-450, 1), speedKnots: fp(126, 1), speedMetersPerSecond: fp(65, 1),
                        speedKilometersPerHour: fp(233, 1))))
        #expect(
            try VWT(parsing: Self.vwt)
                == VWT(
                    wind: WindAngleAndSpeeds(
                        angleDegrees: fp(305, 1), speedKnots: fp(102, 1), speedMetersPerSecond: fp(52, 1),
                        speedKilometersPerHour: fp(189, 1))))
        // go-nmea's vwr_test.go (from Signal K): the full form, the short form with lowercase checksum, all empty.
        #expect(
            try VWR(parsing: "$IIVWR,75,R,1.0,N,0.51,M,1.85,K*6C").wind
                == WindAngleAndSpeeds(
                    angleDegrees: 75, speedKnots: 1, speedMetersPerSecond: fp(51, 2), speedKilometersPerHour: fp(185, 2)
                ))
        #expect(
            try VWR(parsing: "$IIVWR,024,L,018,N,,,,*5e").wind == WindAngleAndSpeeds(angleDegrees: -24, speedKnots: 18))
        #expect(try VWR(parsing: "$IIVWR,,,,,,,,*53").wind == WindAngleAndSpeeds(angleDegrees: nil))
        // go-nmea's vwt.go example has an `x` for the side: the sign is unknown, so the angle is left out.
        var errors = FieldErrors()
        let vwt = try withSentence("$IIVWT,75,x,1.0,N,0.51,M,1.85,K*40") { (sentence) throws(NMEAError) -> VWT in
            try VWT(sentence, fieldErrors: &errors)
        }
        #expect(
            vwt.wind.angleDegrees == nil && vwt.wind.speedKnots == 1 && vwt.wind.speedKilometersPerHour == fp(185, 2))
        #expect(Array(errors) == [.badField(index: 2, reason: .unexpectedCharacter)])
        try expectCutShort(VWR.self, Self.vwr, keeping: 4)
        try expectCutShort(VWT.self, Self.vwt, keeping: 2)
    }

    @Test func waterSpeedAndHeading() throws {
        #expect(
            try VHW(parsing: Self.vhw)
                == VHW(
                    headingTrueDegrees: fp(2451, 1), headingMagneticDegrees: 243, speedKnots: fp(64, 1),
                    speedKilometersPerHour: fp(119, 1)))
        // gpsd's regression log test/daemon/bundg_zeus_9.log.
        #expect(
            try VHW(parsing: "$SDVHW,234.6,T,233.2,M,6.6,N,12.3,K*71")
                == VHW(
                    talker: .depthSounder, headingTrueDegrees: fp(2346, 1), headingMagneticDegrees: fp(2332, 1),
                    speedKnots: fp(66, 1), speedKilometersPerHour: fp(123, 1)))
        // A log without a compass.
        #expect(
            try VHW(parsing: withChecksum("$VWVHW,,T,,M,5.1,N,9.4,K"))
                == VHW(talker: Talker("VW"), speedKnots: fp(51, 1), speedKilometersPerHour: fp(94, 1)))
        try expectCutShort(VHW.self, Self.vhw, keeping: 6)
    }

    @Test func dualGroundAndWaterSpeed() throws {
        #expect(
            try VBW(parsing: Self.vbw)
                == VBW(
                    longitudinalWaterSpeedKnots: fp(64, 1), transverseWaterSpeedKnots: fp(-2, 1),
                    isWaterSpeedValid: true, longitudinalGroundSpeedKnots: fp(68, 1),
                    transverseGroundSpeedKnots: fp(1, 1), isGroundSpeedValid: true,
                    sternTransverseWaterSpeedKnots: fp(3, 1), isSternWaterSpeedValid: true,
                    sternTransverseGroundSpeedKnots: fp(4, 1), isSternGroundSpeedValid: true))
        // Before NMEA 3.0, six fields (pynmeagps's tests/pygpsdata-nmea4.log): the stern fields absent.
        let six = try VBW(parsing: "$GPVBW,12.3,0.07,A,11.78,0.12,A*6F")
        #expect(
            six
                == VBW(
                    talker: .gps, longitudinalWaterSpeedKnots: fp(123, 1), transverseWaterSpeedKnots: fp(7, 2),
                    isWaterSpeedValid: true, longitudinalGroundSpeedKnots: fp(1178, 2),
                    transverseGroundSpeedKnots: fp(12, 2), isGroundSpeedValid: true))
        #expect(six == (try expectCutShort(VBW.self, withChecksum("$GPVBW,12.3,0.07,A,11.78,0.12,A,,,,"), keeping: 6)))
        // go-nmea's vbw.go: astern through the water, no ground speed.
        let astern = try VBW(parsing: "$VMVBW,-7.1,0.1,A,,,V,,V,,V*65")
        #expect(astern.longitudinalWaterSpeedKnots == fp(-71, 1) && astern.longitudinalGroundSpeedKnots == nil)
        #expect(astern.isGroundSpeedValid == false && astern.isSternGroundSpeedValid == false)
    }

    @Test func distanceLog() throws {
        #expect(
            try VLW(parsing: Self.vlw)
                == VLW(
                    totalWaterDistanceNauticalMiles: fp(12345, 1), waterDistanceSinceResetNauticalMiles: fp(123, 1),
                    totalGroundDistanceNauticalMiles: fp(12208, 1), groundDistanceSinceResetNauticalMiles: fp(119, 1)))
        // gpsd's regression log test/daemon/bundg_zeus_9.log: no total through the water.
        #expect(
            try VLW(parsing: "$SDVLW,,N,545.7,N,1109.5,N,393.7,N*45")
                == VLW(
                    talker: .depthSounder, totalWaterDistanceNauticalMiles: nil,
                    waterDistanceSinceResetNauticalMiles: fp(5457, 1), totalGroundDistanceNauticalMiles: fp(11095, 1),
                    groundDistanceSinceResetNauticalMiles: fp(3937, 1)))
        // pynmeagps's tests/pygpsdata-nmea4.log: a GNSS receiver's ground distances only.
        let receiver = try VLW(parsing: "$GNVLW,,N,,N,0.000,N,0.000,N*44")
        #expect(receiver.totalGroundDistanceNauticalMiles == 0 && receiver.totalWaterDistanceNauticalMiles == nil)
        // Before NMEA 3.0, the water distances only.
        let old = try expectCutShort(VLW.self, Self.vlw, keeping: 4)
        #expect(old.waterDistanceSinceResetNauticalMiles == fp(123, 1) && old.totalGroundDistanceNauticalMiles == nil)
    }

    @Test func speedParallelToTheWind() throws {
        #expect(try VPW(parsing: Self.vpw) == VPW(speedKnots: fp(45, 1), speedMetersPerSecond: fp(23, 1)))
        // go-nmea's vpw.go.
        #expect(
            try VPW(parsing: "$IIVPW,4.5,N,6.7,M*52") == VPW(speedKnots: fp(45, 1), speedMetersPerSecond: fp(67, 1)))
        #expect(try VPW(parsing: withChecksum("$IIVPW,-3.1,N,-1.6,M")).speedKnots == fp(-31, 1))
        try expectCutShort(VPW.self, Self.vpw, keeping: 2)
    }

    @Test func waterAndAirTemperature() throws {
        #expect(try MTW(parsing: Self.mtw) == MTW(temperatureCelsius: fp(186, 1)))
        // "NMEA Revealed"'s sample (also in gpsd's test/daemon/humminbird-M37.log), and bundg_zeus_9.log's empty one.
        #expect(try MTW(parsing: "$INMTW,17.9,C*1B") == MTW(talker: Talker("IN"), temperatureCelsius: fp(179, 1)))
        #expect(try MTW(parsing: "$SDMTW,,C*1A") == MTW(talker: .depthSounder, temperatureCelsius: nil))
        #expect(try MTW(parsing: withChecksum("$IIMTW,-1.5,C")).temperatureCelsius == fp(-15, 1))
        #expect(try MTA(parsing: Self.mta) == MTA(temperatureCelsius: fp(214, 1)))
        // go-nmea's mta.go.
        #expect(
            try MTA(parsing: "$IIMTA,13.3,C*04")
                == MTA(talker: .integratedInstrumentation, temperatureCelsius: fp(133, 1)))
        try expectCutShort(MTW.self, Self.mtw, keeping: 1)
        try expectCutShort(MTA.self, Self.mta, keeping: 1)
    }

    @Test func meteorologicalComposite() throws {
        #expect(
            try MDA(parsing: Self.mda)
                == MDA(
                    pressureInchesOfMercury: fp(2992, 2), pressureBars: fp(1013, 3), airTemperatureCelsius: fp(214, 1),
                    waterTemperatureCelsius: fp(186, 1), relativeHumidityPercent: fp(652, 1),
                    dewPointCelsius: fp(146, 1),
                    wind: WindDirectionAndSpeed(
                        directionTrueDegrees: fp(2705, 1), directionMagneticDegrees: fp(2681, 1),
                        speedKnots: fp(142, 1), speedMetersPerSecond: fp(73, 1))))
        // go-nmea's mda_test.go: no water temperature, no absolute humidity.
        #expect(
            try MDA(parsing: "$WIMDA,3.02,I,1.01,B,23.4,C,,,40.2,,12.1,C,19.3,T,20.1,M,13.1,N,1.1,M*62")
                == MDA(
                    pressureInchesOfMercury: fp(302, 2), pressureBars: fp(101, 2), airTemperatureCelsius: fp(234, 1),
                    relativeHumidityPercent: fp(402, 1), dewPointCelsius: fp(121, 1),
                    wind: WindDirectionAndSpeed(
                        directionTrueDegrees: fp(193, 1), directionMagneticDegrees: fp(201, 1),
                        speedKnots: fp(131, 1), speedMetersPerSecond: fp(11, 1))))
        // A barometer alone.
        let barometer = try expectCutShort(MDA.self, Self.mda, keeping: 4)
        #expect(barometer == MDA(pressureInchesOfMercury: fp(2992, 2), pressureBars: fp(1013, 3)))
    }

    @Test func transducerMeasurements() throws {
        #expect(
            try XDR(parsing: Self.xdr)
                == XDR(
                    talker: Talker("YX"),
                    measurements: [
                        .init(type: .temperature, value: fp(214, 1), unit: ascii("C"), name: "AIRTEMP"),
                        .init(type: .pressure, value: fp(1013, 3), unit: ascii("B"), name: "BARO"),
                        .init(type: .humidity, value: fp(652, 1), unit: ascii("P"), name: "HUMIDITY"),
                    ]))
        // "NMEA Revealed"'s sample: generic magnetometer readings without a unit.
        let compass = try XDR(parsing: "$HCXDR,A,171,D,PITCH,A,-37,D,ROLL,G,367,,MAGX,G,2420,,MAGY,G,-8984,,MAGZ*41")
        #expect(compass.measurements.count == 5)
        #expect(
            compass.measurements[1] == .init(type: .angularDisplacement, value: -37, unit: ascii("D"), name: "ROLL"))
        #expect(compass.measurements[4] == .init(type: .generic, value: -8984, unit: nil, name: "MAGZ"))
        // gpsd's test/daemon/bundg_zeus_9.log: empty values kept as absent, their quadruplets kept.
        let instruments = try XDR(
            parsing: "$IIXDR,C,,C,AIRTEMP,A,4.5,D,HEEL,A,3.7,D,TRIM,P,,B,BARO,A,-1.8,D,RUDDER*08")
        #expect(instruments.measurements.map(\.name.string) == ["AIRTEMP", "HEEL", "TRIM", "BARO", "RUDDER"])
        #expect(instruments.measurements[0] == .init(type: .temperature, value: nil, unit: ascii("C"), name: "AIRTEMP"))
        #expect(instruments.measurements[4].value == fp(-18, 1))
        // go-nmea's xdr.go; gpsd's test/daemon/pypilot.log.
        #expect(
            try XDR(parsing: "$SDXDR,C,23.15,C,WTHI*70").measurements.first
                == .init(type: .temperature, value: fp(2315, 2), unit: ascii("C"), name: "WTHI"))
        #expect(try XDR(parsing: "$APXDR,A,0.144,D,PTCH*7A").measurements.first?.value == fp(144, 3))
        // Every transducer type.
        for letter in "ABCDFGHILNPRSTUV".utf8 {
            let line = withChecksum("$IIXDR,\(Character(Unicode.Scalar(letter))),1,,X")
            #expect(try XDR(parsing: line).measurements.first?.type == XDR.TransducerType(rawValue: letter))
        }
    }

    /// A quadruplet cut short keeps what it has; empty quadruplets (a trailing comma) are skipped; more than
    /// ``XDR/capacity`` are dropped.
    @Test func transducerQuadrupletsCutShortEmptyAndTooMany() throws {
        let cut = try XDR(parsing: keepingFields(6, of: Self.xdr))
        #expect(cut.measurements.count == 2)
        #expect(cut.measurements[1] == .init(type: .pressure, value: fp(1013, 3), unit: nil, name: ""))
        #expect(try XDR(parsing: keepingFields(1, of: Self.xdr)).measurements.map(\.type) == [.temperature])
        #expect(try XDR(parsing: withChecksum("$YXXDR,,,,,C,1,C,T1,")).measurements.map(\.name.string) == ["T1"])
        #expect(try XDR(parsing: withChecksum("$YXXDR,,,,")).measurements.isEmpty)
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) { try XDR(parsing: withChecksum("$YXXDR")) }
        let many = (1...20).map { "C,\($0),C,T\($0)" }.joined(separator: ",")
        let full = try XDR(parsing: withChecksum("$YXXDR," + many))
        #expect(full.measurements.count == XDR.capacity && full.measurements.last?.name == "T10")
        // Names share 80 bytes: ten of 20 bytes do not fit, the first four do.
        let longNames = (1...10).map {
            "C,\($0),C," + String(repeating: "N", count: 18) + ($0 < 10 ? "0" : "") + "\($0)"
        }
        let packed = try XDR(parsing: withChecksum("$YXXDR," + longNames.joined(separator: ",")))
        #expect(packed.measurements.map(\.name.string).last == String(repeating: "N", count: 18) + "04")
        #expect(packed.measurements.count == 4 && packed.measurements[3].value == 4)
        // A long name keeps its first 20 bytes.
        let long = try XDR(parsing: withChecksum("$YXXDR,G,1,,ENVIRONMENT_OUTSIDE_TEMPERATURE"))
        #expect(long.measurements[0].name.isTruncated && long.measurements[0].name.string == "ENVIRONMENT_OUTSIDE_")
    }

    @Test func engineRevolutionsAndRudder() throws {
        #expect(
            try RPM(parsing: Self.rpm)
                == RPM(
                    source: .engine, number: 1, revolutionsPerMinute: fp(24182, 1), pitchPercent: fp(105, 1),
                    isValid: true))
        // go-nmea's rpm.go: a shaft on the centreline.
        #expect(
            try RPM(parsing: "$RCRPM,S,0,74.6,30.0,A*56")
                == RPM(
                    talker: Talker("RC"), source: .shaft, number: 0, revolutionsPerMinute: fp(746, 1), pitchPercent: 30,
                    isValid: true))
        #expect(try RPM(parsing: withChecksum("$ERRPM,E,2,-650,-25.0,A")).pitchPercent == -25)
        try expectCutShort(RPM.self, Self.rpm, keeping: 3)
        #expect(
            try RSA(parsing: Self.rsa)
                == RSA(starboardDegrees: fp(-52, 1), isStarboardValid: true, portDegrees: fp(-49, 1), isPortValid: true)
        )
        // go-nmea's rsa.go: one rudder, the port fields empty.
        #expect(
            try RSA(parsing: "$IIRSA,10.5,A,,V*4D")
                == RSA(
                    talker: .integratedInstrumentation, starboardDegrees: fp(105, 1), isStarboardValid: true,
                    portDegrees: nil, isPortValid: false))
        try expectCutShort(RSA.self, Self.rsa, keeping: 2)
    }

    /// Every field empty: every value absent, none zero.
    @Test func emptyFieldsAreAbsent() throws {
        #expect(
            try MWV(parsing: emptyingFields(after: 0, of: Self.mwv))
                == MWV(angleDegrees: nil, reference: nil, speed: nil, speedUnit: nil, isValid: nil))
        #expect(try MWD(parsing: emptyingFields(after: 0, of: Self.mwd)) == MWD(wind: WindDirectionAndSpeed()))
        #expect(
            try VWR(parsing: emptyingFields(after: 0, of: Self.vwr)) == VWR(wind: WindAngleAndSpeeds(angleDegrees: nil))
        )
        #expect(
            try VWT(parsing: emptyingFields(after: 0, of: Self.vwt)) == VWT(wind: WindAngleAndSpeeds(angleDegrees: nil))
        )
        #expect(try VHW(parsing: emptyingFields(after: 0, of: Self.vhw)) == VHW(speedKnots: nil))
        #expect(
            try VBW(parsing: emptyingFields(after: 0, of: Self.vbw))
                == VBW(
                    longitudinalWaterSpeedKnots: nil, transverseWaterSpeedKnots: nil, isWaterSpeedValid: nil,
                    longitudinalGroundSpeedKnots: nil, transverseGroundSpeedKnots: nil, isGroundSpeedValid: nil))
        #expect(
            try VLW(parsing: emptyingFields(after: 0, of: Self.vlw))
                == VLW(totalWaterDistanceNauticalMiles: nil, waterDistanceSinceResetNauticalMiles: nil))
        #expect(try VPW(parsing: emptyingFields(after: 0, of: Self.vpw)) == VPW(speedKnots: nil))
        #expect(try MTW(parsing: emptyingFields(after: 0, of: Self.mtw)) == MTW(temperatureCelsius: nil))
        #expect(try MTA(parsing: emptyingFields(after: 0, of: Self.mta)) == MTA(temperatureCelsius: nil))
        #expect(try MDA(parsing: emptyingFields(after: 0, of: Self.mda)) == MDA())
        #expect(try XDR(parsing: emptyingFields(after: 0, of: Self.xdr)) == XDR(talker: Talker("YX"), measurements: []))
        #expect(
            try RPM(parsing: emptyingFields(after: 0, of: Self.rpm))
                == RPM(source: nil, number: nil, revolutionsPerMinute: nil, isValid: nil))
        #expect(
            try RSA(parsing: emptyingFields(after: 0, of: Self.rsa))
                == RSA(starboardDegrees: nil, isStarboardValid: nil))
    }

    /// A field that does not read costs only itself: its neighbours are kept.
    @Test func badFieldsCostOnlyThemselves() throws {
        var errors = FieldErrors()
        let mwv = try withSentence(replacingField(1, of: Self.mwv, with: "3x0")) {
            (sentence) throws(NMEAError) -> MWV in
            try MWV(sentence, fieldErrors: &errors)
        }
        #expect(
            mwv == MWV(angleDegrees: nil, reference: .relative, speed: fp(152, 1), speedUnit: .knots, isValid: true))
        #expect(Array(errors) == [.badField(index: 1, reason: .notANumber)])
        let xdr = try withSentence(replacingField(5, of: Self.xdr, with: "Z")) { (sentence) throws(NMEAError) -> XDR in
            try XDR(sentence, fieldErrors: &errors)
        }
        #expect(xdr.measurements[1] == .init(type: nil, value: fp(1013, 3), unit: ascii("B"), name: "BARO"))
        #expect(xdr.measurements.count == 3)
        #expect(Array(errors) == [.badField(index: 5, reason: .unexpectedCharacter)])
        let mda = try withSentence(replacingField(11, of: Self.mda, with: "1-4.6")) {
            (sentence) throws(NMEAError) -> MDA in
            try MDA(sentence, fieldErrors: &errors)
        }
        #expect(
            mda.dewPointCelsius == nil && mda.relativeHumidityPercent == fp(652, 1) && mda.wind.speedKnots == fp(142, 1)
        )
        #expect(Array(errors) == [.badField(index: 11, reason: .notANumber)])
    }

    /// Every kind of malformed field, with its typed error.
    @Test(arguments: [
        (mwv, 1, "3x0.0", NMEAError.badField(index: 1, reason: .notANumber)),
        (mwv, 2, "X", .badField(index: 2, reason: .unexpectedCharacter)),
        (mwv, 4, "F", .badField(index: 4, reason: .unexpectedCharacter)),
        (mwv, 5, "AV", .badField(index: 5, reason: .badLength)),
        (mwd, 3, "26..1", .badField(index: 3, reason: .notANumber)),
        (mwd, 2, "M", .badField(index: 2, reason: .unexpectedCharacter)),
        (mwd, 8, "K", .badField(index: 8, reason: .unexpectedCharacter)),
        (vwr, 1, "4S", .badField(index: 1, reason: .notANumber)),
        (vwr, 2, "P", .badField(index: 2, reason: .unexpectedCharacter)),
        (vwr, 6, "S", .badField(index: 6, reason: .unexpectedCharacter)),
        (vwt, 7, "one", .badField(index: 7, reason: .notANumber)),
        (vwt, 8, "M", .badField(index: 8, reason: .unexpectedCharacter)),
        (vhw, 5, "6.4.", .badField(index: 5, reason: .notANumber)),
        (vhw, 1, "-", .badField(index: 1, reason: .notANumber)),
        (vhw, 4, "T", .badField(index: 4, reason: .unexpectedCharacter)),
        (vbw, 2, "0.2-", .badField(index: 2, reason: .notANumber)),
        (vbw, 3, "X", .badField(index: 3, reason: .unexpectedCharacter)),
        (vbw, 10, "N", .badField(index: 10, reason: .unexpectedCharacter)),
        (vlw, 1, "1234.5.", .badField(index: 1, reason: .notANumber)),
        (vlw, 6, "K", .badField(index: 6, reason: .unexpectedCharacter)),
        (vpw, 1, "4.5kn", .badField(index: 1, reason: .notANumber)),
        (vpw, 4, "K", .badField(index: 4, reason: .unexpectedCharacter)),
        (mtw, 1, "18.6C", .badField(index: 1, reason: .notANumber)),
        (mtw, 2, "F", .badField(index: 2, reason: .unexpectedCharacter)),
        (mta, 2, "K", .badField(index: 2, reason: .unexpectedCharacter)),
        (mda, 1, "29.9.2", .badField(index: 1, reason: .notANumber)),
        (mda, 3, "1.0l3", .badField(index: 3, reason: .notANumber)),
        (mda, 2, "H", .badField(index: 2, reason: .unexpectedCharacter)),
        (mda, 12, "F", .badField(index: 12, reason: .unexpectedCharacter)),
        (mda, 18, "K", .badField(index: 18, reason: .unexpectedCharacter)),
        (xdr, 1, "Z", .badField(index: 1, reason: .unexpectedCharacter)),
        (xdr, 6, "1.O13", .badField(index: 6, reason: .notANumber)),
        (xdr, 11, "7", .badField(index: 11, reason: .unexpectedCharacter)),
        (xdr, 3, "CC", .badField(index: 3, reason: .badLength)),
        (rpm, 1, "P", .badField(index: 1, reason: .unexpectedCharacter)),
        (rpm, 2, "100", .badField(index: 2, reason: .outOfRange)),
        (rpm, 3, "2418.2rpm", .badField(index: 3, reason: .notANumber)),
        (rpm, 5, "X", .badField(index: 5, reason: .unexpectedCharacter)),
        (rsa, 1, "--5.2", .badField(index: 1, reason: .notANumber)),
        (rsa, 4, "B", .badField(index: 4, reason: .unexpectedCharacter)),
    ])
    func malformedField(line: String, index: Int, value: String, error: NMEAError) throws {
        #expect(throws: error) { try decodeStrictly(replacingField(index, of: line, with: value)) }
    }

    @Test(arguments: all)
    func withoutFieldsAndCorrupted(line: String) {
        expectRefusedWithoutFieldsAndCorrupted(line)
    }

    /// Cut after any field, each type decodes what is there, the fields it left off absent.
    @Test(arguments: all)
    func cutShortAfterEveryField(line: String) throws {
        try expectDecodesCutAfterEveryField(line)
    }
}
