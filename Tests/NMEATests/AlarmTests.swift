import Testing

@testable import NMEA

/// Alarms and targets: ALR, ALF, HBT, TTM, TLL.
///
/// Field layouts from "NMEA Revealed" (gpsd.gitlab.io/gpsd/NMEA.html, www/NMEA.adoc: TTM with its NMEA 3.0 time and
/// acquisition fields, TLL), go-nmea (github.com/adrianmo/go-nmea: alr.go, alf.go, hbt.go, ttm.go, tll.go, after the
/// Furuno FAR-15x8 radar manual they cite) and pynmeagps (github.com/semuconsulting/pynmeagps,
/// src/pynmeagps/nmeatypes_get.py: ALF, ALR, HBT, TTM, TLL), which agree with NMEA 0183 4.11 as they summarise it.
/// The `static let`s are real-looking sentences made for these tests (checksums computed); the public samples are
/// quoted where they are used, with their source.
@Suite struct AlarmTests {
    static let alr = "$RAALR,092751.00,011,A,V,TARGET LOST*54"
    static let alf = "$HEALF,1,1,3,081950.10,B,W,V,,3008,1,2,0,HEADING LOST*64"
    static let hbt = "$GPHBT,60.0,A,7*0B"
    static let ttm = "$RATTM,11,11.4,13.6,T,7.0,20.0,T,0.5,0.9,N,TGT11,T,,100021.00,A*7B"
    static let tll = "$RATLL,11,4807.038,N,01131.000,E,TGT11,100021.00,T,*6D"

    static let all = [alr, alf, hbt, ttm, tll]

    @Test func alarmState() throws {
        #expect(
            try ALR(parsing: Self.alr)
                == ALR(
                    time: .at(9, 27, 51, digits: 2), alarmNumber: 11, isThresholdExceeded: true, isAcknowledged: false,
                    text: "TARGET LOST"))
        // go-nmea's alr_test.go (lowercase checksums), with and without text.
        #expect(
            try ALR(parsing: "$RAALR,220516,001,A,A,Bilge pump alarm1*4c")
                == ALR(
                    time: .at(22, 5, 16), alarmNumber: 1, isThresholdExceeded: true, isAcknowledged: true,
                    text: "Bilge pump alarm1"))
        #expect(try ALR(parsing: "$RAALR,220516,001,A,A,*53").text.isEmpty)
        // Text with a comma in it is kept whole (it is the rest of the sentence).
        #expect(try ALR(parsing: withChecksum("$IIALR,,201,V,A,BILGE 2, AFT")).text == "BILGE 2, AFT")
        let cut = try expectCutShort(ALR.self, Self.alr, keeping: 3)
        #expect(cut.isThresholdExceeded == true && cut.isAcknowledged == nil && cut.text.isEmpty)
    }

    @Test func alert() throws {
        #expect(
            try ALF(parsing: Self.alf)
                == ALF(
                    talker: Talker("HE"), sentenceCount: 1, sentenceNumber: 1, sequentialMessageID: 3,
                    time: .at(8, 19, 50, nanoseconds: 100_000_000, digits: 2), category: .b, priority: .warning,
                    state: .activeUnacknowledged, alertIdentifier: 3008, alertInstance: 1, revisionCounter: 2,
                    escalationCounter: 0, text: "HEADING LOST"))
        // pynmeagps's tests/pygpsdata-maritime.log: a standard alert, and a proprietary one in two sentences.
        #expect(
            try ALF(parsing: "$IIALF,1,1,0,124304.50,A,W,A,,192,1,1,0,LOST TARGET*14")
                == ALF(
                    talker: .integratedInstrumentation, sentenceCount: 1, sentenceNumber: 1, sequentialMessageID: 0,
                    time: .at(12, 43, 4, nanoseconds: 500_000_000, digits: 2), category: .a, priority: .warning,
                    state: .acknowledged, alertIdentifier: 192, alertInstance: 1, revisionCounter: 1,
                    escalationCounter: 0, text: "LOST TARGET"))
        let first = try ALF(parsing: "$IIALF,2,1,1,081950.10,B,A,S,XYZ,0512,1,2,0,HEADING LOST*2D")
        #expect(first.manufacturer == "XYZ" && first.alertIdentifier == 512 && first.state == .silenced)
        #expect(first.priority == .alarm)
        #expect(
            try ALF(parsing: "$IIALF,2,2,1,,,,,XYZ,0512,1,2,0,NO SYSTEM HEADING AVAILABLE*0D")
                == ALF(
                    talker: .integratedInstrumentation, sentenceCount: 2, sentenceNumber: 2, sequentialMessageID: 1,
                    time: nil, category: nil, priority: nil, state: nil, manufacturer: "XYZ", alertIdentifier: 512,
                    alertInstance: 1, revisionCounter: 2, escalationCounter: 0, text: "NO SYSTEM HEADING AVAILABLE"))
        // go-nmea's alf.go numbers its sentence 0: that field is refused, the rest kept.
        var errors = FieldErrors()
        let zero = try withSentence("$VDALF,1,0,1,220516,B,A,S,SAL,001,1,2,0,My alarm*2c") {
            (sentence) throws(NMEAError) -> ALF in try ALF(sentence, fieldErrors: &errors)
        }
        #expect(zero.sentenceNumber == nil && zero.sentenceCount == 1 && zero.manufacturer == "SAL")
        #expect(zero.text == "My alarm" && zero.priority == .alarm && zero.time == .at(22, 5, 16))
        #expect(Array(errors) == [.badField(index: 2, reason: .outOfRange)])
        // Emergency alarm, rectified; caution, normal; category C, responsibility transferred.
        let states = try [
            "$IIALF,1,1,4,,A,E,U,,3015,1,1,0,FIRE", "$IIALF,1,1,5,,B,C,N,,3016,1,1,0,", "$IIALF,1,1,6,,C,A,O,,1,1,1,9,",
        ].map { line throws -> ALF in try ALF(parsing: withChecksum(line)) }
        #expect(states.map(\.priority) == [.emergencyAlarm, .caution, .alarm])
        #expect(states.map(\.state) == [.rectifiedUnacknowledged, .normal, .responsibilityTransferred])
        #expect(states.map(\.category) == [.a, .b, .c] && states[2].escalationCounter == 9)
        try expectCutShort(ALF.self, Self.alf, keeping: 7)
    }

    @Test func heartbeat() throws {
        #expect(try HBT(parsing: Self.hbt) == HBT(intervalSeconds: 60, isNormal: true, sequentialMessageID: 7))
        // go-nmea's hbt_test.go.
        #expect(
            try HBT(parsing: "$HCHBT,1.5,A,1*23")
                == HBT(talker: .magneticCompass, intervalSeconds: fp(15, 1), isNormal: true, sequentialMessageID: 1))
        #expect(
            try HBT(parsing: "$HCHBT,,V,1*1E")
                == HBT(talker: .magneticCompass, intervalSeconds: nil, isNormal: false, sequentialMessageID: 1))
        #expect(throws: NMEAError.badField(index: 1, reason: .notANumber)) { try HBT(parsing: "$HCHBT,x.5,A,1*6A") }
        #expect(throws: NMEAError.badField(index: 2, reason: .unexpectedCharacter)) {
            try HBT(parsing: "$HCHBT,1.5,X,1*3A")
        }
        #expect(throws: NMEAError.badField(index: 3, reason: .notANumber)) { try HBT(parsing: "$HCHBT,1.5,A,x*6A") }
        try expectCutShort(HBT.self, Self.hbt, keeping: 2)
    }

    @Test func trackedTarget() throws {
        let ttm = try TTM(parsing: Self.ttm)
        #expect(
            ttm
                == TTM(
                    targetNumber: 11, distance: fp(114, 1), bearingDegrees: fp(136, 1), bearingReference: .trueNorth,
                    speed: 7, courseDegrees: 20, courseReference: .trueNorth, closestApproachDistance: fp(5, 1),
                    timeToClosestApproachMinutes: fp(9, 1), units: .knots, name: "TGT11", status: .tracking,
                    time: .at(10, 0, 21, digits: 2), acquisition: .automatic))
        // go-nmea's ttm.go: no name, no time, acquired manually.
        #expect(
            try TTM(parsing: "$RATTM,02,1.43,170.5,T,0.16,264.4,T,1.42,36.9,N,,T,,,M*2A")
                == TTM(
                    targetNumber: 2, distance: fp(143, 2), bearingDegrees: fp(1705, 1), bearingReference: .trueNorth,
                    speed: fp(16, 2), courseDegrees: fp(2644, 1), courseReference: .trueNorth,
                    closestApproachDistance: fp(142, 2), timeToClosestApproachMinutes: fp(369, 1), units: .knots,
                    status: .tracking, acquisition: .manual))
        // A reference target, relative bearing and course, kilometres, opening (negative time to CPA), lost.
        let reference = try TTM(parsing: withChecksum("$RATTM,101,0.50,045.0,R,0.0,,R,0.50,-2.5,K,BUOY,L,R"))
        #expect(reference.isReferenceTarget && reference.units == .kilometersPerHour && reference.status == .lost)
        #expect(reference.bearingReference == .relative && reference.courseReference == .relative)
        #expect(reference.targetNumber == 101 && reference.timeToClosestApproachMinutes == fp(-25, 1))
        #expect(try TTM(parsing: withChecksum("$RATTM,1,,,,,,,,,S,,Q,,,R")).units == .statuteMilesPerHour)
        // Before NMEA 3.0, without the time and the acquisition.
        let old = try expectCutShort(TTM.self, Self.ttm, keeping: 13)
        #expect(old.time == nil && old.acquisition == nil && old.status == .tracking && old.name == "TGT11")
    }

    @Test func targetPosition() throws {
        #expect(
            try TLL(parsing: Self.tll)
                == TLL(
                    targetNumber: 11, latitude: fp(4_811_730_000, 8), longitude: fp(1_151_666_667, 8), name: "TGT11",
                    time: .at(10, 0, 21, digits: 2), status: .tracking))
        // go-nmea's tll.go: a position alone.
        #expect(
            try TLL(parsing: "$RATLL,,3647.422,N,01432.592,E,,,,*58")
                == TLL(
                    targetNumber: nil, latitude: fp(3_679_036_667, 8), longitude: fp(1_454_320_000, 8), time: nil,
                    status: nil))
        let reference = try TLL(parsing: withChecksum("$RATLL,00,3342.970,S,15112.341,E,,,Q,R"))
        #expect(reference.isReferenceTarget && reference.status == .acquiring && reference.targetNumber == 0)
        #expect(reference.latitude!.doubleValue < 0)
        try expectCutShort(TLL.self, Self.tll, keeping: 5)
    }

    /// Every field empty: every value absent, none zero (and no reference target).
    @Test func emptyFieldsAreAbsent() throws {
        #expect(
            try ALR(parsing: emptyingFields(after: 0, of: Self.alr))
                == ALR(time: nil, alarmNumber: nil, isThresholdExceeded: nil, isAcknowledged: nil))
        #expect(
            try ALF(parsing: emptyingFields(after: 0, of: Self.alf))
                == ALF(
                    talker: Talker("HE"), sentenceCount: nil, sentenceNumber: nil, sequentialMessageID: nil, time: nil,
                    category: nil, priority: nil, state: nil, alertIdentifier: nil, alertInstance: nil,
                    revisionCounter: nil, escalationCounter: nil))
        #expect(
            try HBT(parsing: emptyingFields(after: 0, of: Self.hbt))
                == HBT(intervalSeconds: nil, isNormal: nil, sequentialMessageID: nil))
        #expect(
            try TTM(parsing: emptyingFields(after: 0, of: Self.ttm))
                == TTM(
                    targetNumber: nil, distance: nil, bearingDegrees: nil, bearingReference: nil, speed: nil,
                    courseDegrees: nil, courseReference: nil, closestApproachDistance: nil,
                    timeToClosestApproachMinutes: nil, units: nil, status: nil))
        #expect(
            try TLL(parsing: emptyingFields(after: 0, of: Self.tll))
                == TLL(targetNumber: nil, latitude: nil, longitude: nil, time: nil, status: nil))
    }

    /// A field that does not read costs only itself.
    @Test func badFieldsCostOnlyThemselves() throws {
        var errors = FieldErrors()
        let ttm = try withSentence(replacingField(10, of: Self.ttm, with: "M")) { (sentence) throws(NMEAError) -> TTM in
            try TTM(sentence, fieldErrors: &errors)
        }
        #expect(ttm.units == nil && ttm.distance == fp(114, 1) && ttm.name == "TGT11" && ttm.acquisition == .automatic)
        #expect(Array(errors) == [.badField(index: 10, reason: .unexpectedCharacter)])
        let tll = try withSentence(replacingField(2, of: Self.tll, with: "9107.038")) {
            (sentence) throws(NMEAError) -> TLL in
            try TLL(sentence, fieldErrors: &errors)
        }
        #expect(tll.latitude == nil && tll.longitude == fp(1_151_666_667, 8) && tll.status == .tracking)
        #expect(Array(errors) == [.badField(index: 2, reason: .outOfRange)])
    }

    /// Every kind of malformed field, with its typed error.
    @Test(arguments: [
        (alr, 1, "2x2751", NMEAError.badField(index: 1, reason: .notANumber)),
        (alr, 1, "252751", .badField(index: 1, reason: .outOfRange)),
        (alr, 2, "0l1", .badField(index: 2, reason: .notANumber)),
        (alr, 3, "X", .badField(index: 3, reason: .unexpectedCharacter)),
        (alr, 4, "N", .badField(index: 4, reason: .unexpectedCharacter)),
        (alf, 1, "0", .badField(index: 1, reason: .outOfRange)),
        (alf, 3, "10", .badField(index: 3, reason: .outOfRange)),
        (alf, 4, "08195", .badField(index: 4, reason: .badLength)),
        (alf, 5, "D", .badField(index: 5, reason: .unexpectedCharacter)),
        (alf, 6, "B", .badField(index: 6, reason: .unexpectedCharacter)),
        (alf, 7, "X", .badField(index: 7, reason: .unexpectedCharacter)),
        (alf, 9, "3OO8", .badField(index: 9, reason: .notANumber)),
        (alf, 11, "100", .badField(index: 11, reason: .outOfRange)),
        (alf, 12, "x", .badField(index: 12, reason: .notANumber)),
        (hbt, 3, "10", .badField(index: 3, reason: .outOfRange)),
        (ttm, 1, "1x", .badField(index: 1, reason: .notANumber)),
        (ttm, 1, "1000", .badField(index: 1, reason: .outOfRange)),
        (ttm, 2, "11.4nm", .badField(index: 2, reason: .notANumber)),
        (ttm, 4, "M", .badField(index: 4, reason: .unexpectedCharacter)),
        (ttm, 7, "X", .badField(index: 7, reason: .unexpectedCharacter)),
        (ttm, 9, "0..9", .badField(index: 9, reason: .notANumber)),
        (ttm, 12, "X", .badField(index: 12, reason: .unexpectedCharacter)),
        (ttm, 13, "Y", .badField(index: 13, reason: .unexpectedCharacter)),
        (ttm, 14, "240021.00", .badField(index: 14, reason: .outOfRange)),
        (ttm, 15, "B", .badField(index: 15, reason: .unexpectedCharacter)),
        (tll, 1, "-1", .badField(index: 1, reason: .outOfRange)),
        (tll, 2, "48x7.038", .badField(index: 2, reason: .notANumber)),
        (tll, 3, "E", .badField(index: 3, reason: .unexpectedCharacter)),
        (tll, 7, "1000", .badField(index: 7, reason: .badLength)),
        (tll, 8, "A", .badField(index: 8, reason: .unexpectedCharacter)),
        (tll, 9, "T", .badField(index: 9, reason: .unexpectedCharacter)),
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
