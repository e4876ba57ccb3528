import Testing

@testable import NMEA

@Suite struct GSATests {
    static let textbook = "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39"

    @Test func textbookExample() throws {
        let gsa = try GSA(parsing: Self.textbook)
        #expect(
            gsa
                == GSA(
                    talker: .gps, selectionMode: ascii("A"), fixType: .threeD, satellites: [4, 5, 9, 12, 24],
                    pdop: fp(25, 1),
                    hdop: fp(13, 1), vdop: fp(21, 1), systemID: nil))
        #expect(gsa.system == .gps)
        #expect(Array(gsa.satellites) == [4, 5, 9, 12, 24])
    }

    @Test func nmea410SystemID() throws {
        let gsa = try GSA(parsing: "$GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2*09")
        #expect(
            gsa
                == GSA(
                    talker: .gnss, selectionMode: ascii("A"), fixType: .threeD, satellites: [80, 71, 73, 79, 69],
                    pdop: fp(183, 2), hdop: fp(109, 2), vdop: fp(147, 2), systemID: 2))
        // The system ID says GLONASS although the talker (GN) names no single system.
        #expect(gsa.system == .glonass)
    }

    @Test func sbasPRNsAbove99() throws {
        let gsa = try GSA(parsing: "$GNGSA,A,3,10,12,15,20,24,25,29,32,120,123,136,,1.21,0.70,0.98,1*3D")
        #expect(Array(gsa.satellites) == [10, 12, 15, 20, 24, 25, 29, 32, 120, 123, 136])
        #expect(gsa.systemID == 1)
        #expect(gsa.system == .gps)
        #expect(gsa.pdop == fp(121, 2))
        #expect(gsa.hdop == fp(70, 2))
        #expect(gsa.vdop == fp(98, 2))
    }

    @Test func beidouPRNsAbove200FromTheLegacyTalker() throws {
        let gsa = try GSA(parsing: "$BDGSA,A,3,201,202,203,204,206,207,208,209,210,,,,1.6,0.9,1.3*18")
        #expect(
            gsa
                == GSA(
                    talker: .beidouLegacy, selectionMode: ascii("A"), fixType: .threeD,
                    satellites: [201, 202, 203, 204, 206, 207, 208, 209, 210], pdop: fp(16, 1), hdop: fp(9, 1),
                    vdop: fp(13, 1), systemID: nil))
        #expect(gsa.system == .beidou)
    }

    @Test func twentyFourPRNSlots() throws {
        let slots: [String] = (1...24).map { (slot: Int) -> String in slot == 7 || slot == 20 ? "" : String(slot + 100)
        }
        let line = withChecksum("$GNGSA,A,3," + slots.joined(separator: ",") + ",0.95,0.55,0.77")
        let gsa = try GSA(parsing: line)
        let expected: [UInt16] = (1...24).filter { $0 != 7 && $0 != 20 }.map { UInt16($0 + 100) }
        #expect(Array(gsa.satellites) == expected)
        #expect(gsa.pdop == fp(95, 2))
        #expect(gsa.hdop == fp(55, 2))
        #expect(gsa.vdop == fp(77, 2))
        #expect(gsa.systemID == nil)
    }

    @Test func twentyFourPRNSlotsAllUsedWithSystemID() throws {
        let slots = (1...24).map { String($0) }
        let gsa = try GSA(parsing: withChecksum("$GNGSA,M,2," + slots.joined(separator: ",") + ",1.0,0.6,0.8,3"))
        #expect(gsa.satellites.count == 24)
        #expect(gsa.satellites.isFull)
        #expect(Array(gsa.satellites) == (1...24).map { UInt16($0) })
        #expect(gsa.selectionMode == ascii("M"))
        #expect(gsa.fixType == .twoD)
        #expect(gsa.vdop == fp(8, 1))
        #expect(gsa.systemID == 3)
        #expect(gsa.system == .galileo)
    }

    @Test func noFixHasNoSatellitesAndNoDOPs() throws {
        let gsa = try GSA(parsing: withChecksum("$GPGSA,A,1" + String(repeating: ",", count: 15)))
        #expect(
            gsa
                == GSA(
                    talker: .gps, selectionMode: ascii("A"), fixType: GSAFixType.none, satellites: [], pdop: nil,
                    hdop: nil,
                    vdop: nil, systemID: nil))
        #expect(gsa.satellites.isEmpty)
    }

    @Test func emptyModeAndFixType() throws {
        let gsa = try GSA(parsing: withChecksum("$GPGSA," + String(repeating: ",", count: 16)))
        #expect(gsa.selectionMode == nil)
        #expect(gsa.fixType == nil)
        #expect(gsa.satellites.isEmpty)
    }

    /// Quectel receivers send QZSS GSA as `$PQGSA`: a standard GSA from talker `PQ`, not a proprietary sentence.
    @Test func quectelPQGSA() throws {
        let gsa = try GSA(parsing: "$PQGSA,A,3,193,194,195,,,,,,,,,,1.9,1.1,1.5,5*0B")
        #expect(
            gsa
                == GSA(
                    talker: Talker("PQ"), selectionMode: ascii("A"), fixType: .threeD, satellites: [193, 194, 195],
                    pdop: fp(19, 1), hdop: fp(11, 1), vdop: fp(15, 1), systemID: 5))
        #expect(gsa.system == .qzss)
        #expect(gsa.talker != .proprietary)
    }

    @Test(arguments: [
        (1, "AA", NMEAError.badField(index: 1, reason: .badLength)),
        (2, "4", .badField(index: 2, reason: .outOfRange)),
        (2, "0", .badField(index: 2, reason: .outOfRange)),
        (2, "x", .badField(index: 2, reason: .notANumber)),
        (3, "x4", .badField(index: 3, reason: .notANumber)),
        (3, "-4", .badField(index: 3, reason: .outOfRange)),
        (4, "65536", .badField(index: 4, reason: .outOfRange)),
        (14, "1x", .badField(index: 14, reason: .notANumber)),
        (15, "2.5.", .badField(index: 15, reason: .notANumber)),
        (16, "1;3", .badField(index: 16, reason: .notANumber)),
        (17, "x", .badField(index: 17, reason: .notANumber)),
    ])
    func malformedField(index: Int, value: String, error: NMEAError) {
        #expect(throws: error) { try GSA(parsing: replacingField(index, of: Self.textbook, with: value)) }
    }

    @Test func malformedSystemID() {
        let line = "$GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2*09"
        #expect(throws: NMEAError.badField(index: 18, reason: .outOfRange)) {
            try GSA(parsing: replacingField(18, of: line, with: "16"))
        }
        #expect(throws: NMEAError.badField(index: 18, reason: .notANumber)) {
            try GSA(parsing: replacingField(18, of: line, with: "G"))
        }
    }

    /// Issue 12, item 10: cut short, it decodes with the fields it left off absent (it was "too few fields").
    @Test func cutShort() throws {
        try expectCutShort(GSA.self, Self.textbook, keeping: 4)
    }

    @Test func framingAndTypeErrors() {
        let (bad, mismatch) = corruptingChecksum(Self.textbook)
        #expect(throws: mismatch) { try GSA(parsing: bad) }
        #expect(throws: NMEAError.wrongType(expected: .gsa, found: .gsv)) { try GSA(parsing: "$GPGSV,1,1,00*79") }
    }
}
