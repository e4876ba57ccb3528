import Testing

@testable import NMEA

@Suite struct GNSTests {
    static let example = "$GNGNS,122310.2,3722.425671,N,12258.856215,W,DAAA,14,0.9,1005.543,6.5,,,V*0B"

    @Test func nmea410Example() throws {
        let gns = try GNS(parsing: Self.example)
        #expect(
            gns
                == GNS(
                    talker: .gnss, time: .at(12, 23, 10, nanoseconds: 200_000_000, digits: 1),
                    latitude: fp(3_737_376_118_333, 11), longitude: fp(-12_298_093_691_667, 11),
                    modes: [.differential, .autonomous, .autonomous, .autonomous], satellitesUsed: 14, hdop: fp(9, 1),
                    altitudeMeters: fp(1_005_543, 3), geoidSeparationMeters: fp(65, 1), differentialAgeSeconds: nil,
                    differentialStationID: nil, navigationalStatus: .notValid))
        #expect(gns.hasFix)
    }

    @Test func rtkWithoutNavigationalStatus() throws {
        #expect(
            try GNS(parsing: "$GPGNS,014035.00,4332.69262,S,17235.48549,E,RR,13,0.9,25.63,11.24,,*6E")
                == GNS(
                    talker: .gps, time: .at(1, 40, 35, digits: 2), latitude: fp(-435_448_770_000, 10),
                    longitude: fp(1_725_914_248_333, 10), modes: [.rtkFixed, .rtkFixed], satellitesUsed: 13,
                    hdop: fp(9, 1),
                    altitudeMeters: fp(2563, 2), geoidSeparationMeters: fp(1124, 2), differentialAgeSeconds: nil,
                    differentialStationID: nil, navigationalStatus: nil))
    }

    @Test func differentialAgeAndStation() throws {
        let gns = try GNS(parsing: "$GNGNS,090413.00,5139.31480,N,00012.09875,W,FF,18,0.7,85.2,45.6,2.0,0023,S*21")
        #expect(gns.latitude == fp(516_552_466_667, 10))
        #expect(gns.longitude == fp(-2_016_458_333, 10))
        #expect(Array(gns.modes) == [.rtkFloat, .rtkFloat])
        #expect(gns.differentialAgeSeconds == fp(20, 1))
        #expect(gns.differentialStationID == 23)
        #expect(gns.navigationalStatus == .safe)
    }

    @Test func noFix() throws {
        let gns = try GNS(parsing: "$GNGNS,235947.00,,,,,NNNNNN,00,99.99,,,,,V*27")
        #expect(
            gns
                == GNS(
                    talker: .gnss, time: .at(23, 59, 47, digits: 2), latitude: nil, longitude: nil,
                    modes: [.notValid, .notValid, .notValid, .notValid, .notValid, .notValid], satellitesUsed: 0,
                    hdop: fp(9999, 2), altitudeMeters: nil, geoidSeparationMeters: nil, navigationalStatus: .notValid))
        #expect(!gns.hasFix)
    }

    @Test func emptyModeField() throws {
        let gns = try GNS(parsing: "$GNGNS,,,,,,,,,,,,*53")
        #expect(gns.modes.isEmpty)
        #expect(!gns.hasFix)
        #expect(gns.satellitesUsed == nil)
    }

    @Test func atMostEightModesAreKept() throws {
        let gns = try GNS(parsing: replacingField(6, of: Self.example, with: "ADEFMNPRS"))
        #expect(
            Array(gns.modes) == [
                .autonomous, .differential, .estimated, .rtkFloat, .manual, .notValid, .precise, .rtkFixed,
            ])
    }

    @Test(arguments: [
        (1, "1223", NMEAError.badField(index: 1, reason: .badLength)),
        (2, "37x2.425671", .badField(index: 2, reason: .notANumber)),
        (3, "W", .badField(index: 3, reason: .unexpectedCharacter)),
        (5, "EE", .badField(index: 5, reason: .badLength)),
        (7, "1000", .badField(index: 7, reason: .outOfRange)),
        (7, "x", .badField(index: 7, reason: .notANumber)),
        (8, "0.9.", .badField(index: 8, reason: .notANumber)),
        (9, "1005;543", .badField(index: 9, reason: .notANumber)),
        (12, "x", .badField(index: 12, reason: .notANumber)),
        (13, "SS", .badField(index: 13, reason: .badLength)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try GNS(parsing: replacingField(index, of: Self.example, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(GNS.self, Self.example, keeping: 8)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try GNS(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .gns, found: .gga)) { try GNS(parsing: GGATests.textbook) }
    }
}
