import Testing

@testable import NMEA

/// Waypoints, routes and steering: WPL, RTE, RMB, BWC, BWR, BWW, BOD, APB, XTE, AAM. Field layouts from "NMEA
/// Revealed" (gpsd.gitlab.io/gpsd/NMEA.html), which follows NMEA 0183 4.11 (FAA mode fields from 2.3); every
/// `example` is that page's sample sentence; the other sentences are real-looking ones made for these tests.
@Suite struct NavigationTests {
    static let wpl = "$GPWPL,4917.16,N,12310.64,W,003*65"
    static let rte = "$GPRTE,2,1,c,0,PBRCPK,PBRTO,PTELGR,PPLAND,PYAMBU,PPFAIR,PWARRN,PMORTL,PLISMR*73"
    static let rmb = "$GPRMB,A,0.66,L,003,004,4917.24,N,12309.57,W,001.3,052.5,000.5,V*20"
    static let bwc = "$GPBWC,220516,5130.02,N,00046.34,W,213.8,T,218.0,M,0004.6,N,EGLM*21"
    static let bwr = "$GPBWR,220516,5130.02,N,00046.34,W,213.8,T,218.0,M,0004.6,N,EGLM*30"
    static let bww = "$GPBWW,097.0,T,103.2,M,POINTB,POINTA*41"
    static let bod = "$GPBOD,097.0,T,103.2,M,POINTB,POINTA*4A"
    static let apb = "$GPAPB,A,A,0.10,R,N,V,V,011,M,DEST,011,M,011,M*3C"
    static let xte = "$GPXTE,A,A,0.67,L,N*6F"
    static let aam = "$GPAAM,A,A,0.10,N,WPTNME*32"

    @Test func waypoint() throws {
        #expect(
            try WPL(parsing: Self.wpl)
                == WPL(talker: .gps, latitude: fp(492_860_000, 7), longitude: fp(-1_231_773_333, 7), id: "003"))
        let long = try WPL(parsing: "$GPWPL,3342.970,S,15112.341,E,SYDNEY HARBOUR 1*22")
        #expect(long.id.string == "SYDNEY HARBOUR 1" && !long.id.isTruncated)
        #expect(long.latitude!.doubleValue < 0 && long.longitude!.doubleValue > 0)
        let tooLong = try WPL(parsing: withChecksum("$GPWPL,,,,," + String(repeating: "X", count: 25)))
        #expect(tooLong.id.string == String(repeating: "X", count: 20) && tooLong.id.isTruncated)
    }

    @Test func route() throws {
        let rte = try RTE(parsing: Self.rte)
        let names = ["PBRCPK", "PBRTO", "PTELGR", "PPLAND", "PYAMBU", "PPFAIR", "PWARRN", "PMORTL", "PLISMR"]
        #expect(
            rte
                == RTE(
                    talker: .gps, sentenceCount: 2, sentenceNumber: 1, isComplete: true, routeID: "0",
                    waypoints: names.map { WaypointID($0) }))
        #expect(!rte.isLast)
        // A working route; an empty waypoint field is skipped.
        let working = try RTE(parsing: "$GPRTE,1,1,w,R2,FROM1,,TO22*53")
        #expect(working.isComplete == false && working.isLast)
        #expect(working.waypoints.map(\.string) == ["FROM1", "TO22"])
        // Names share 128 bytes: of eight 20-byte names (a sentence past the standard's 82 characters), six fit; a
        // name longer than 20 bytes keeps its first 20 and says so.
        let longNames = (1...8).map { String(repeating: "W", count: 19) + "\($0)" }
        let long = try RTE(parsing: withChecksum("$GPRTE,1,1,c,R," + longNames.joined(separator: ",")))
        #expect(long.waypoints.map { $0.string } == Array(longNames.prefix(6)))
        let cut = try RTE(parsing: withChecksum("$GPRTE,1,1,c,R,A," + String(repeating: "X", count: 25) + ",B"))
        #expect(cut.waypoints.map { $0.isTruncated } == [false, true, false])
        #expect(cut.waypoints[1].string == String(repeating: "X", count: 20) && cut.waypoints[2].string == "B")
        #expect(MemoryLayout<RTE>.size < 240 && MemoryLayout<XDR>.size < 300)
    }

    @Test func steeringToAWaypoint() throws {
        #expect(
            try RMB(parsing: Self.rmb)
                == RMB(
                    talker: .gps, isValid: true, crossTrackErrorNauticalMiles: fp(66, 2), steer: .left,
                    originWaypoint: "003", destinationWaypoint: "004", destinationLatitude: fp(492_873_333, 7),
                    destinationLongitude: fp(-1_231_595_000, 7), rangeNauticalMiles: fp(13, 1),
                    bearingTrueDegrees: fp(525, 1), closingVelocityKnots: fp(5, 1), hasArrived: false))
        let empty = try RMB(parsing: "$GPRMB,V,,,,DEST,,,,,,,,V,N*02")
        #expect(empty.isValid == false && empty.destinationWaypoint == "DEST" && empty.originWaypoint.isEmpty)
        #expect(empty.destinationLatitude == nil && empty.mode == .notValid)
    }

    @Test func bearingAndDistanceToAWaypoint() throws {
        let bwc = try BWC(parsing: Self.bwc)
        #expect(
            bwc
                == BWC(
                    talker: .gps, time: UTCTime(hour: 22, minute: 5, second: 16, nanoseconds: 0, fractionDigits: 0),
                    latitude: fp(515_003_333, 7), longitude: fp(-7_723_333, 7), bearingTrueDegrees: fp(2138, 1),
                    bearingMagneticDegrees: fp(2180, 1), distanceNauticalMiles: fp(46, 1), waypoint: "EGLM"))
        let bwr = try BWR(parsing: Self.bwr)
        #expect(bwr.bearingTrueDegrees == bwc.bearingTrueDegrees && bwr.waypoint == bwc.waypoint)
        #expect(try BWC(parsing: withChecksum("$GPBWC,220516,,,,,,T,,M,,N,EGLM,A")).mode == .autonomous)
    }

    @Test func bearingBetweenWaypoints() throws {
        #expect(
            try BOD(parsing: Self.bod)
                == BOD(
                    talker: .gps, bearingTrueDegrees: fp(970, 1), bearingMagneticDegrees: fp(1032, 1),
                    destinationWaypoint: "POINTB", originWaypoint: "POINTA"))
        #expect(
            try BWW(parsing: Self.bww)
                == BWW(
                    talker: .gps, bearingTrueDegrees: fp(970, 1), bearingMagneticDegrees: fp(1032, 1),
                    toWaypoint: "POINTB", fromWaypoint: "POINTA"))
    }

    @Test func autopilot() throws {
        let magnetic = APB.Bearing(degrees: 11, isMagnetic: true)
        #expect(
            try APB(parsing: Self.apb)
                == APB(
                    talker: .gps, isValid: true, isCycleLocked: true, crossTrackError: fp(10, 2), steer: .right,
                    crossTrackUnits: UInt8(ascii: "N"), arrivalCircleEntered: false, perpendicularPassed: false,
                    bearingOriginToDestination: magnetic, destinationWaypoint: "DEST", bearingToDestination: magnetic,
                    headingToSteer: magnetic))
        let apb = try APB(parsing: "$GPAPB,A,A,0.10,L,N,A,V,011.5,T,DEST,012.0,T,013.5,T,A*5E")
        #expect(apb.headingToSteer == APB.Bearing(degrees: fp(135, 1), isMagnetic: false))
        #expect(apb.arrivalCircleEntered == true && apb.steer == .left && apb.mode == .autonomous)
    }

    @Test func crossTrackErrorAndArrival() throws {
        #expect(
            try XTE(parsing: Self.xte)
                == XTE(talker: .gps, isValid: true, isCycleLocked: true, crossTrackError: fp(67, 2), steer: .left))
        let kilometres = try XTE(parsing: "$GPXTE,V,V,1.25,R,K,A*1E")
        #expect(kilometres.units == UInt8(ascii: "K") && kilometres.isValid == false && kilometres.mode == .autonomous)
        #expect(
            try AAM(parsing: Self.aam)
                == AAM(
                    talker: .gps, arrivalCircleEntered: true, perpendicularPassed: true,
                    radiusNauticalMiles: fp(10, 2), waypoint: "WPTNME"))
    }

    /// Every malformed field, with its typed error.
    @Test(arguments: [
        (wpl, 1, "49x7.16", NMEAError.badField(index: 1, reason: .notANumber)),
        (wpl, 2, "E", .badField(index: 2, reason: .unexpectedCharacter)),
        (rte, 1, "x", .badField(index: 1, reason: .notANumber)),
        (rte, 2, "0", .badField(index: 2, reason: .outOfRange)),
        (rte, 3, "x", .badField(index: 3, reason: .unexpectedCharacter)),
        (rmb, 1, "X", .badField(index: 1, reason: .unexpectedCharacter)),
        (rmb, 3, "U", .badField(index: 3, reason: .unexpectedCharacter)),
        (rmb, 6, "4917.2x", .badField(index: 6, reason: .notANumber)),
        (rmb, 13, "Y", .badField(index: 13, reason: .unexpectedCharacter)),
        (bwc, 1, "250516", .badField(index: 1, reason: .outOfRange)),
        (bwc, 7, "M", .badField(index: 7, reason: .unexpectedCharacter)),
        (bwc, 11, "K", .badField(index: 11, reason: .unexpectedCharacter)),
        (bwr, 10, "4..6", .badField(index: 10, reason: .notANumber)),
        (bww, 2, "M", .badField(index: 2, reason: .unexpectedCharacter)),
        (bod, 3, "1o3.2", .badField(index: 3, reason: .notANumber)),
        (apb, 4, "X", .badField(index: 4, reason: .unexpectedCharacter)),
        (apb, 9, "G", .badField(index: 9, reason: .unexpectedCharacter)),
        (xte, 5, "M", .badField(index: 5, reason: .unexpectedCharacter)),
        (aam, 4, "K", .badField(index: 4, reason: .unexpectedCharacter)),
    ])
    func malformedField(line: String, index: Int, value: String, error: NMEAError) throws {
        #expect(throws: error) { try decodeStrictly(replacingField(index, of: line, with: value)) }
    }

    @Test(arguments: [wpl, rte, rmb, bwc, bwr, bww, bod, apb, xte, aam])
    func withoutFieldsAndCorrupted(line: String) {
        expectRefusedWithoutFieldsAndCorrupted(line)
    }
}

/// Frames and decodes `line` strictly by its type; the kind decoded.
@discardableResult
func decodeStrictly(_ line: String) throws(NMEAError) -> SentenceKind? {
    try withSentence(line) { (sentence) throws(NMEAError) -> SentenceKind? in try ParsedSentence(sentence).kind }
}

/// `line`'s address without a single field is refused as too few fields, and `line` with a checksum off by one as a
/// mismatch.
func expectRefusedWithoutFieldsAndCorrupted(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let address = String(line.prefix { $0 != "," })
    #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0), sourceLocation: sourceLocation) {
        try decodeStrictly(withChecksum(address))
    }
    let (bad, mismatch) = corruptingChecksum(line)
    #expect(throws: mismatch, sourceLocation: sourceLocation) { try decodeStrictly(bad) }
}

/// `line` cut after any of its fields decodes strictly as the same type: what is there, the fields it left off
/// absent.
func expectDecodesCutAfterEveryField(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let kind = try parsedKind(line)
    for kept in 1...(try fieldStrings(line).count) {
        let cut = keepingFields(kept, of: line)
        #expect(throws: Never.self, sourceLocation: sourceLocation) { try decodeStrictly(cut) }
        #expect(try parsedKind(cut) == kind, sourceLocation: sourceLocation)
    }
}
