import Testing

@testable import NMEA

/// Trimble's `$PTNL` messages: GGK, AVR, PJK, VGK, VHD, BPQ, PJT, and the DGPS status `$PTNLDG`. Field layouts from
/// Trimble's receiver help ("NMEA-0183 messages", help.fieldsystems.trimble.com and receiverhelp.trimble.com: PTNL,AVR,
/// PTNL,VHD, PTNL,BPQ, PTNL,DG for OEM receivers v4.44) and the Trimble R7/R8 and 5700 user guides (appendix
/// "NMEA-0183 Output": GGK, PJK, VGK, VHD, PJT), the AgGPS 332 user guide (PTNLDG), whose example sentences are the
/// `example`s (GGK's and PJT's with their checksums corrected, VGK's with the DOP `1.4` its checksum was computed for);
/// the month-first date as the OmniSTAR 8200HP manual spells it out. The corpus sentences are pynmeagps's
/// `tests/trimble_nmea.log`.
@Suite struct TrimbleTests {
    static let ggk = "$PTNL,GGK,172814.00,071296,3723.46587704,N,12202.26957864,W,3,06,1.7,EHT-6.777,M*4B"
    static let avr = "$PTNL,AVR,181059.6,+149.4688,Yaw,+0.0134,Tilt,,,60.191,3,2.5,6*00"
    static let pjk = "$PTNL,PJK,010717.00,081796,+732646.511,N,+1731051.091,E,1,05,2.7,EHT-28.345,M*7C"
    static let vgk = "$PTNL,VGK,160159.00,010997,-0000.161,00009.985,-0000.002,3,07,1.4,M*0B"
    static let vhd = "$PTNL,VHD,030556.00,093098,187.718,-22.138,-76.929,-5.015,0.033,0.006,3,07,2.4,M*22"
    static let bpq = "$PTNL,BPQ,224445.06,021207,3723.09383914,N,12200.32620132,W,EHT-5.923,M,5*60"
    static let pjt = "$PTNL,PJT,NAD83(Conus),California Zone 4 0404,*5D"
    static let dgBeacon = "$PTNLDG,44.0,33.0,287.0,100,0,4,1,0,,,*3E"
    static let dgSatellite = "$PTNLDG,124.0,10.5,1557855.0,1200,2,4,0,3,,,*3C"

    @Test func positionWithEllipsoidalHeight() throws {
        #expect(
            try PTNLGGK(parsing: Self.ggk)
                == PTNLGGK(
                    time: .at(17, 28, 14, digits: 2), date: UTCDate(year: 1996, month: 7, day: 12),
                    latitude: fp(373_910_979_506_667, 13), longitude: fp(-1_220_378_263_106_667, 13), quality: 3,
                    satellitesUsed: 6, pdop: fp(17, 1), ellipsoidHeightMeters: fp(-6777, 3)))
        // From the corpus: a positive height, and a date that only reads month first (May 19).
        let corpus = try PTNLGGK(
            parsing: "$PTNL,GGK,102939.00,051910,5000.97323841,N,00827.62010742,E,5,09,1.9,EHT150.790,M*73")
        #expect(corpus.date == UTCDate(year: 2010, month: 5, day: 19))
        #expect(corpus.ellipsoidHeightMeters == fp(150_790, 3) && corpus.quality == 5 && corpus.satellitesUsed == 9)
        #expect(corpus.latitude == fp(500_162_206_401_667, 13) && corpus.longitude == fp(84_603_351_236_667, 13))
    }

    @Test func vectorAttitude() throws {
        #expect(
            try PTNLAVR(parsing: Self.avr)
                == PTNLAVR(
                    time: .at(18, 10, 59, nanoseconds: 600_000_000, digits: 1), yawDegrees: fp(1_494_688, 4),
                    tiltDegrees: fp(134, 4), rangeMeters: fp(60191, 3), quality: 3, pdop: fp(25, 1), satellitesUsed: 6))
        // Newer receivers fill the fields older ones reserved: roll instead of tilt.
        let roll = try PTNLAVR(parsing: "$PTNL,AVR,212604.30,+52.1800,Yaw,,,-0.0807,Roll,12.579,3,1.4,16*21")
        #expect(
            roll
                == PTNLAVR(
                    time: .at(21, 26, 4, nanoseconds: 300_000_000, digits: 2), yawDegrees: fp(521_800, 4),
                    tiltDegrees: nil, rollDegrees: fp(-807, 4), rangeMeters: fp(12579, 3), quality: 3,
                    pdop: fp(14, 1), satellitesUsed: 16))
        #expect(roll.isValid)
        let noFix = try PTNLAVR(parsing: replacingField(10, of: Self.avr, with: "0"))
        #expect(!noFix.isValid)
    }

    @Test func localGridPosition() throws {
        #expect(
            try PTNLPJK(parsing: Self.pjk)
                == PTNLPJK(
                    time: .at(1, 7, 17, digits: 2), date: UTCDate(year: 1996, month: 8, day: 17),
                    northingMeters: fp(732_646_511, 3), eastingMeters: fp(1_731_051_091, 3), quality: 1,
                    satellitesUsed: 5, dop: fp(27, 1), heightMeters: fp(-28345, 3), heightIsEllipsoidal: true))
        let geoid = try PTNLPJK(
            parsing: "$PTNL,PJK,202831.50,011112,+805083.350,N,+388997.346,E,10,09,1.5,GHT+25.478,M*77")
        #expect(geoid.heightIsEllipsoidal == false && geoid.heightMeters == fp(25478, 3) && geoid.quality == 10)
        #expect(geoid.date == UTCDate(year: 2012, month: 1, day: 11))
        // A height without its label reads, and says nothing of its datum.
        let bare = try PTNLPJK(parsing: replacingField(11, of: Self.pjk, with: "-28.345"))
        #expect(bare.heightMeters == fp(-28345, 3) && bare.heightIsEllipsoidal == nil)
    }

    @Test func baselineVector() throws {
        #expect(
            try PTNLVGK(parsing: Self.vgk)
                == PTNLVGK(
                    time: .at(16, 1, 59, digits: 2), date: UTCDate(year: 1997, month: 1, day: 9),
                    eastMeters: fp(-161, 3), northMeters: fp(9985, 3), upMeters: fp(-2, 3), quality: 3,
                    satellitesUsed: 7, dop: fp(14, 1)))
        // The manuals' misprint, as pynmeagps's log has it: the DOP reads as 1, and the `4` where the unit belongs is
        // the one bad field.
        var errors = FieldErrors()
        let misprint = try withSentence(
            "$PTNL,VGK,160159.00,010997,-0000.161,00009.985,-0000.002,3,07,1,4,M*09"
        ) { (sentence) throws(NMEAError) -> PTNLVGK in try PTNLVGK(sentence, fieldErrors: &errors) }
        #expect(misprint.dop == fp(1, 0) && misprint.upMeters == fp(-2, 3))
        #expect(Array(errors) == [.badField(index: 10, reason: .unexpectedCharacter)])
    }

    @Test func headingInformation() throws {
        #expect(
            try PTNLVHD(parsing: Self.vhd)
                == PTNLVHD(
                    time: .at(3, 5, 56, digits: 2), date: UTCDate(year: 1998, month: 9, day: 30),
                    azimuthDegrees: fp(187_718, 3), azimuthRateDegreesPerSecond: fp(-22138, 3),
                    verticalAngleDegrees: fp(-76929, 3), verticalAngleRateDegreesPerSecond: fp(-5015, 3),
                    rangeMeters: fp(33, 3), rangeRate: fp(6, 3), quality: 3, satellitesUsed: 7, pdop: fp(24, 1)))
    }

    /// Each message by its first field; the others Trimble sends at the same address stay unknown, and so does a
    /// message whose first field only begins like one of them.
    @Test func dispatchByMessageID() throws {
        #expect(try parsedKind(Self.ggk) == .ptnlGGK)
        #expect(try parsedKind(Self.avr) == .ptnlAVR)
        #expect(try parsedKind(Self.pjk) == .ptnlPJK)
        #expect(try parsedKind(Self.vgk) == .ptnlVGK)
        #expect(try parsedKind(Self.vhd) == .ptnlVHD)
        #expect(SentenceKind.ptnlGGK.name == "PTNL,GGK" && SentenceKind.ptnlVHD.address.messageIDText == "VHD")
        for line in [
            "$PTNL,EVT,221212.000008,1,5026,1893,1,17*4F", withChecksum("$PTNL,BPQX,224445.06"),
            withChecksum("$PTNL,GGK_SYNC,172814.00,071296"), withChecksum("$PTNL,GG,1"), withChecksum("$PTNL"),
            withChecksum("$PTNL,"),
        ] {
            #expect(try parsedKind(line) == nil, "\(line)")
        }
        // Decoded directly, another message is refused at its first field.
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) {
            try PTNLGGK(parsing: Self.avr)
        }
    }

    /// Every malformed field, with its typed error (decoded strictly through the registry).
    @Test(arguments: [
        (ggk, 2, "17281x", NMEAError.badField(index: 2, reason: .notANumber)),
        (ggk, 3, "131296", .badField(index: 3, reason: .outOfRange)),
        (ggk, 3, "07129", .badField(index: 3, reason: .badLength)),
        (ggk, 3, "07x296", .badField(index: 3, reason: .notANumber)),
        (ggk, 5, "E", .badField(index: 5, reason: .unexpectedCharacter)),
        (ggk, 8, "Q", .badField(index: 8, reason: .notANumber)),
        (ggk, 11, "XHT-6.777", .badField(index: 11, reason: .unexpectedCharacter)),
        (ggk, 11, "EHT-6.7x7", .badField(index: 11, reason: .notANumber)),
        (ggk, 11, "EHT", .badField(index: 11, reason: .notANumber)),
        (ggk, 12, "F", .badField(index: 12, reason: .unexpectedCharacter)),
        (avr, 3, "+14x.4688", .badField(index: 3, reason: .notANumber)),
        (avr, 4, "Pitch", .badField(index: 4, reason: .unexpectedCharacter)),
        (avr, 6, "Roll", .badField(index: 6, reason: .unexpectedCharacter)),
        (avr, 10, "100", .badField(index: 10, reason: .outOfRange)),
        (pjk, 5, "S", .badField(index: 5, reason: .unexpectedCharacter)),
        (pjk, 7, "W", .badField(index: 7, reason: .unexpectedCharacter)),
        (pjk, 11, "AHT-28.345", .badField(index: 11, reason: .unexpectedCharacter)),
        (vgk, 4, "-00o0.161", .badField(index: 4, reason: .notANumber)),
        (vgk, 10, "F", .badField(index: 10, reason: .unexpectedCharacter)),
        (vhd, 3, "133098", .badField(index: 3, reason: .outOfRange)),
        (vhd, 9, "0.0.06", .badField(index: 9, reason: .notANumber)),
        (bpq, 2, "244445.06", .badField(index: 2, reason: .outOfRange)),
        (bpq, 3, "021307", .badField(index: 3, reason: .outOfRange)),
        (bpq, 3, "0212", .badField(index: 3, reason: .badLength)),
        (bpq, 5, "E", .badField(index: 5, reason: .unexpectedCharacter)),
        (bpq, 7, "N", .badField(index: 7, reason: .unexpectedCharacter)),
        (bpq, 8, "GHT-5.923", .badField(index: 8, reason: .unexpectedCharacter)),
        (bpq, 9, "F", .badField(index: 9, reason: .unexpectedCharacter)),
        (bpq, 10, "100", .badField(index: 10, reason: .outOfRange)),
        (bpq, 10, "R", .badField(index: 10, reason: .notANumber)),
        (dgBeacon, 1, "44.0dB", .badField(index: 1, reason: .notANumber)),
        (dgBeacon, 3, "287..0", .badField(index: 3, reason: .notANumber)),
        (dgBeacon, 4, "-100", .badField(index: 4, reason: .outOfRange)),
        (dgBeacon, 5, "100", .badField(index: 5, reason: .outOfRange)),
        (dgBeacon, 6, "L", .badField(index: 6, reason: .notANumber)),
        (dgBeacon, 7, "2", .badField(index: 7, reason: .outOfRange)),
        (dgBeacon, 8, "256", .badField(index: 8, reason: .outOfRange)),
    ])
    func malformedField(line: String, index: Int, value: String, error: NMEAError) throws {
        #expect(throws: error) { try decodeStrictly(replacingField(index, of: line, with: value)) }
    }

    /// A bad field costs only itself: its neighbours are kept.
    @Test func keepsTheFieldsThatRead() throws {
        var errors = FieldErrors()
        let ggk = try withSentence(replacingField(3, of: Self.ggk, with: "131296")) {
            (sentence) throws(NMEAError) -> PTNLGGK in try PTNLGGK(sentence, fieldErrors: &errors)
        }
        #expect(ggk.date == nil && ggk.time == .at(17, 28, 14, digits: 2) && ggk.quality == 3)
        #expect(ggk.ellipsoidHeightMeters == fp(-6777, 3))
        #expect(Array(errors) == [.badField(index: 3, reason: .outOfRange)])
    }

    /// Empty fields are absent, never zero; a sentence cut short decodes with what it has.
    @Test func emptyAndCutShort() throws {
        let empty = try PTNLGGK(parsing: withChecksum("$PTNL,GGK,,,,,,,,,,,"))
        #expect(
            empty
                == PTNLGGK(
                    time: nil, date: nil, latitude: nil, longitude: nil, quality: nil, satellitesUsed: nil, pdop: nil,
                    ellipsoidHeightMeters: nil))
        let short = try PTNLGGK(parsing: keepingFields(3, of: Self.ggk))
        #expect(short.date == UTCDate(year: 1996, month: 7, day: 12) && short.latitude == nil && short.pdop == nil)
        let avr = try PTNLAVR(parsing: withChecksum("$PTNL,AVR,181059.6,,Yaw,,Tilt,,,,,,"))
        #expect(avr.yawDegrees == nil && avr.quality == nil && avr.isValid)
        #expect(try PTNLVHD(parsing: keepingFields(1, of: Self.vhd)).azimuthDegrees == nil)
        let (bad, mismatch) = corruptingChecksum(Self.vhd)
        #expect(throws: mismatch) { try PTNLVHD(parsing: bad) }
    }

    // MARK: BPQ, PJT, DG (issue 25)

    @Test func basePositionAndQuality() throws {
        #expect(
            try PTNLBPQ(parsing: Self.bpq)
                == PTNLBPQ(
                    time: .at(22, 44, 45, nanoseconds: 60_000_000, digits: 2),
                    date: UTCDate(year: 2007, month: 12, day: 2), latitude: fp(373_848_973_190_000, 13),
                    longitude: fp(-1_220_054_366_886_667, 13), ellipsoidHeightMeters: fp(-5923, 3), quality: 5))
        // The date is day first, unlike GGK's: `131207` is the 13th of December.
        let south = try PTNLBPQ(
            parsing: withChecksum("$PTNL,BPQ,000001.00,131207,0012.00000000,S,00030.00000000,E,EHT12.5,M,4"))
        #expect(
            south
                == PTNLBPQ(
                    time: .at(0, 0, 1, digits: 2), date: UTCDate(year: 2007, month: 12, day: 13),
                    latitude: fp(-2, 1), longitude: fp(5, 1),
                    ellipsoidHeightMeters: fp(125, 1), quality: 4))
        #expect(south.isValid)
        // CMRx corrections: the quality is always 0.
        #expect(!(try PTNLBPQ(parsing: replacingField(10, of: Self.bpq, with: "0"))).isValid)
    }

    @Test func projectionType() throws {
        #expect(
            try PTNLPJT(parsing: Self.pjt)
                == PTNLPJT(coordinateSystem: "NAD83(Conus)", projection: "California Zone 4 0404"))
        // Without the trailing empty field (pynmea2's form), and with names left out.
        #expect(
            try PTNLPJT(parsing: withChecksum("$PTNL,PJT,WGS 84,UTM Zone 32 North"))
                == PTNLPJT(coordinateSystem: "WGS 84", projection: "UTM Zone 32 North"))
        #expect(try PTNLPJT(parsing: withChecksum("$PTNL,PJT,,,")) == PTNLPJT(coordinateSystem: "", projection: ""))
        #expect(try PTNLPJT(parsing: withChecksum("$PTNL,PJT")) == PTNLPJT(coordinateSystem: "", projection: ""))
    }

    @Test func dgpsReceiverStatus() throws {
        #expect(
            try PTNLDG(parsing: Self.dgBeacon)
                == PTNLDG(
                    signalStrength: fp(440, 1), signalToNoiseDecibels: fp(330, 1), frequencyKilohertz: fp(2870, 1),
                    bitRate: 100, channel: 0, trackingStatus: 4, isUsedForCorrections: true, trackingPerformance: 0))
        let satellite = try PTNLDG(parsing: Self.dgSatellite)
        #expect(
            satellite
                == PTNLDG(
                    signalStrength: fp(1240, 1), signalToNoiseDecibels: fp(105, 1),
                    frequencyKilohertz: fp(15_578_550, 1), bitRate: 1200, channel: 2, trackingStatus: 4,
                    isUsedForCorrections: false, trackingPerformance: 3))
        #expect(satellite.isLocked)
        // The AgGPS 332 guide's example: an L-band channel used, 2.5 s since its last sync.
        #expect(
            try PTNLDG(parsing: "$PTNLDG,87.0,5.2,1558510.0,1200,2,4,1,25,,,*01")
                == PTNLDG(
                    signalStrength: fp(870, 1), signalToNoiseDecibels: fp(52, 1), frequencyKilohertz: fp(15_585_100, 1),
                    bitRate: 1200, channel: 2, trackingStatus: 4, isUsedForCorrections: true, trackingPerformance: 25))
        // Searching, nothing measured yet.
        let searching = try PTNLDG(parsing: withChecksum("$PTNLDG,,,,,0,2,0,,,,"))
        #expect(
            searching
                == PTNLDG(
                    signalStrength: nil, signalToNoiseDecibels: nil, frequencyKilohertz: nil, bitRate: nil, channel: 0,
                    trackingStatus: 2, isUsedForCorrections: false, trackingPerformance: nil))
        #expect(!searching.isLocked)
    }

    /// Trimble writes the address whole; pynmeagps's log writes it as a `$PTNL` message. Both are the one kind, with
    /// the same values; its fields are numbered one higher in the second.
    @Test func dgpsStatusUnderBothAddresses() throws {
        let commaForm = withChecksum("$PTNL,DG,44.0,33.0,287.0,100,0,4,1,0,,,")
        #expect(commaForm == "$PTNL,DG,44.0,33.0,287.0,100,0,4,1,0,,,*12")
        #expect(try parsedKind(commaForm) == .ptnlDG && parsedKind(Self.dgBeacon) == .ptnlDG)
        #expect(try PTNLDG(parsing: commaForm) == PTNLDG(parsing: Self.dgBeacon))
        #expect(SentenceKind.ptnlDG.name == "PTNLDG" && SentenceKind.ptnlDG.address.messageIDText == nil)
        #expect(SentenceKind.ptnlDG.alternativeAddress?.name == "PTNL,DG")
        #expect(throws: NMEAError.badField(index: 8, reason: .outOfRange)) {
            try decodeStrictly(replacingField(8, of: commaForm, with: "2"))
        }
        // Another `$PTNL` message is not the DGPS status.
        #expect(throws: NMEAError.badField(index: 1, reason: .unexpectedCharacter)) { try PTNLDG(parsing: Self.avr) }
        #expect(try parsedKind(withChecksum("$PTNL,DGX,44.0")) == nil)
        expectRefusedWithoutFieldsAndCorrupted(Self.dgBeacon)
    }

    /// A bad field costs only itself, in the new messages too.
    @Test func newMessagesKeepTheFieldsThatRead() throws {
        var errors = FieldErrors()
        let bpq = try withSentence(replacingField(8, of: Self.bpq, with: "GHT-5.923")) {
            (sentence) throws(NMEAError) -> PTNLBPQ in try PTNLBPQ(sentence, fieldErrors: &errors)
        }
        #expect(
            bpq.ellipsoidHeightMeters == nil && bpq.quality == 5 && bpq.date == UTCDate(year: 2007, month: 12, day: 2))
        #expect(Array(errors) == [.badField(index: 8, reason: .unexpectedCharacter)])
        let dg = try withSentence(replacingField(7, of: Self.dgBeacon, with: "Y")) {
            (sentence) throws(NMEAError) -> PTNLDG in try PTNLDG(sentence, fieldErrors: &errors)
        }
        #expect(dg.isUsedForCorrections == nil && dg.trackingStatus == 4 && dg.trackingPerformance == 0)
        #expect(Array(errors) == [.badField(index: 7, reason: .notANumber)])
    }

    /// Empty fields are absent; a sentence cut short decodes with what it has.
    @Test func newMessagesEmptyAndCutShort() throws {
        #expect(
            try PTNLBPQ(parsing: withChecksum("$PTNL,BPQ,,,,,,,,,"))
                == PTNLBPQ(
                    time: nil, date: nil, latitude: nil, longitude: nil, ellipsoidHeightMeters: nil, quality: nil))
        let short = try PTNLBPQ(parsing: keepingFields(7, of: Self.bpq))
        #expect(short.longitude == fp(-1_220_054_366_886_667, 13) && short.ellipsoidHeightMeters == nil)
        #expect(short.quality == nil && short.isValid)
        let dg = try PTNLDG(parsing: keepingFields(3, of: Self.dgSatellite))
        #expect(dg.frequencyKilohertz == fp(15_578_550, 1) && dg.bitRate == nil && dg.trackingStatus == nil)
        try expectDecodesCutAfterEveryField(Self.bpq)
        try expectDecodesCutAfterEveryField(Self.dgBeacon)
        let (bad, mismatch) = corruptingChecksum(Self.pjt)
        #expect(throws: mismatch) { try PTNLPJT(parsing: bad) }
    }
}
