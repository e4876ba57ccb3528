import Testing

@testable import NMEA

@Suite struct GRSTests {
    static let example = "$GPGRS,220320.0,0,-0.8,-0.2,-0.1,-0.2,0.8,0.6,,,,,,,1,0*78"

    @Test func nmea410Example() throws {
        #expect(
            try GRS(parsing: Self.example)
                == GRS(
                    talker: .gps, time: .at(22, 3, 20, digits: 1), mode: 0,
                    residualsMeters: [
                        fp(-8, 1), fp(-2, 1), fp(-1, 1), fp(-2, 1), fp(8, 1), fp(6, 1), nil, nil, nil, nil, nil, nil,
                    ],
                    systemID: 1, signalID: 0))
    }

    @Test func twelveSlotsKeptInGSAOrder() throws {
        let grs = try GRS(parsing: Self.example)
        #expect(grs.residualsMeters.count == 12)
        #expect(grs.residualsMeters[4] == fp(8, 1))
        #expect(grs.residualsMeters[6] == nil)
    }

    /// Before NMEA 4.10: no system or signal ID.
    @Test func withoutSystemAndSignal() throws {
        #expect(
            try GRS(parsing: "$GNGRS,024603.00,1,-1.8,-2.7,0.3,,,,,,,,,*72")
                == GRS(
                    talker: .gnss, time: .at(2, 46, 3, digits: 2), mode: 1,
                    residualsMeters: [fp(-18, 1), fp(-27, 1), fp(3, 1), nil, nil, nil, nil, nil, nil, nil, nil, nil],
                    systemID: nil, signalID: nil))
    }

    @Test func fewerSlotsThanTwelve() throws {
        let grs = try GRS(parsing: "$GPGRS,024603.00,1,-1.8,2.7*6C")
        #expect(Array(grs.residualsMeters) == [fp(-18, 1), fp(27, 1)])
        #expect(grs.systemID == nil)
        #expect(grs.signalID == nil)
    }

    @Test(arguments: [
        (1, "2203", NMEAError.badField(index: 1, reason: .badLength)),
        (2, "x", .badField(index: 2, reason: .notANumber)),
        (2, "10", .badField(index: 2, reason: .outOfRange)),
        (3, "-0.8m", .badField(index: 3, reason: .notANumber)),
        (14, "--1", .badField(index: 14, reason: .notANumber)),
        (15, "Z", .badField(index: 15, reason: .notANumber)),
        (16, "0.5", .badField(index: 16, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try GRS(parsing: replacingField(index, of: Self.example, with: value)) }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        let two = try expectCutShort(GRS.self, Self.example, keeping: 2, sameAsEmptied: false)
        #expect(
            two
                == GRS(
                    talker: .gps, time: UTCTime(hour: 22, minute: 3, second: 20, nanoseconds: 0, fractionDigits: 1),
                    mode: 0, residualsMeters: [], systemID: nil, signalID: nil))
        let one = try expectCutShort(GRS.self, Self.example, keeping: 1, sameAsEmptied: false)
        #expect(one == GRS(talker: .gps, time: two.time, mode: nil, residualsMeters: [], systemID: nil, signalID: nil))
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.example)
        #expect(throws: mismatch) { try GRS(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .grs, found: .gsa)) { try GRS(parsing: GSATests.textbook) }
    }
}
