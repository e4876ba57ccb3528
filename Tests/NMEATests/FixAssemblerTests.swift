import NMEA
import Testing

/// Runs `lines` (sentence bodies without `*hh`, checksums are added) through a framer and an assembler.
private func assemble(_ lines: [String], options: FixAssembler.Options = .init())
    -> (fixes: [Fix], statistics: FixAssembler.Statistics)
{
    // Both ways in: decoded into a `ParsedSentence` first, and decoded in place by `add(_ sentence:)`.
    var results: [(fixes: [Fix], statistics: FixAssembler.Statistics)] = []
    for inPlace in [false, true] {
        var framer = Framer()
        var assembler = FixAssembler(options: options)
        var fixes: [Fix] = []
        let text = lines.map { withChecksum($0) + "\r\n" }.joined()
        framer.feed(Array(text.utf8)) { event in
            guard case .sentence(let sentence) = event else { return }
            if inPlace {
                _ = try? assembler.add(sentence) { fixes.append($0) }
            } else if let parsed = try? ParsedSentence(sentence) {
                assembler.add(parsed) { fixes.append($0) }
            }
        }
        assembler.finish { fixes.append($0) }
        results.append((fixes, assembler.statistics))
    }
    #expect(results[0].fixes == results[1].fixes, "add(ParsedSentence) and add(Sentence) differ")
    #expect(results[0].statistics == results[1].statistics)
    return results[0]
}

/// Like `assemble`, but records after which input line each fix came out (0-based), to test timeliness.
private func emissionLines(_ lines: [String]) -> [Int] {
    var results: [[Int]] = []
    for inPlace in [false, true] {
        var assembler = FixAssembler()
        var emitted: [Int] = []
        for (index, line) in lines.enumerated() {
            try! Sentence.withParsing(withChecksum(line)) { (sentence) throws(NMEAError) in
                if inPlace {
                    try assembler.add(sentence) { _ in emitted.append(index) }
                } else {
                    assembler.add(try ParsedSentence(sentence)) { _ in emitted.append(index) }
                }
            }
        }
        results.append(emitted)
    }
    #expect(results[0] == results[1], "add(ParsedSentence) and add(Sentence) emit at different lines")
    return results[0]
}

private func rmc(
    _ time: String, _ lat: String = "4807.038", _ lon: String = "01131.000", status: String = "A",
    date: String = "301126"
) -> String {
    "$GPRMC,\(time),\(status),\(lat),N,\(lon),E,010.0,045.0,\(date),,,A"
}

private func gga(
    _ time: String, _ lat: String = "4807.038", _ lon: String = "01131.000", quality: Int = 1,
    altitude: String = "545.4"
) -> String {
    "$GPGGA,\(time),\(lat),N,\(lon),E,\(quality),08,0.9,\(altitude),M,46.9,M,,"
}

@Suite struct FixAssemblerTests {
    @Test func mergesOneEpochFromItsSentences() throws {
        let (fixes, statistics) = assemble([
            rmc("123519"), gga("123519"),
            "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1",
            "$GPGSV,1,1,04,04,40,083,46,05,10,120,30,09,55,300,42,30,05,010,",
            "$GPVTG,045.0,T,,M,010.0,N,018.5,K,A",
            rmc("123520"),
        ])
        #expect(fixes.count == 2)
        let fix = fixes[0]
        #expect(fix.date == UTCDate(year: 2026, month: 11, day: 30))
        #expect(fix.time == UTCTime(hour: 12, minute: 35, second: 19))
        #expect(fix.latitude == 48.1173)
        #expect(abs(fix.longitude! - (11 + 31.0 / 60)) < 1e-8)
        #expect(fix.altitudeMeters == 545.4)
        #expect(fix.geoidSeparationMeters == 46.9)
        #expect(fix.speed! == 10.0 * 1852 / 3600)
        #expect(fix.courseDegrees == 45)
        #expect(fix.quality == .gps)
        #expect(fix.mode == .threeD)
        #expect(fix.pdop == 2.5 && fix.hdop == 0.9 && fix.vdop == 2.1)
        #expect(fix.satellitesUsed == 8)
        #expect(fix.satellites.map(\.prn) == [4, 5, 9, 30])
        #expect(fix.satellites.map(\.isUsed) == [true, true, true, false])
        #expect(fix.satellites[0].system == .gps && fix.satellites[0].snr == 46 && fix.satellites[3].snr == nil)
        #expect(fix.timestamp == 1_796_042_119_000_000_000)
        #expect(fix.iso8601 == "2026-11-30T12:35:19Z")
        #expect(statistics.fixes == 2)
    }

    @Test func ggaOnlyStreamsGiveFixesWithTheGivenDate() throws {
        let (fixes, statistics) = assemble(
            [gga("235958"), gga("235959"), gga("000000"), gga("000001")],
            options: .init(fallbackDate: UTCDate(year: 2026, month: 6, day: 21)))
        #expect(
            fixes.map(\.iso8601) == [
                "2026-06-21T23:59:58Z", "2026-06-21T23:59:59Z", "2026-06-22T00:00:00Z", "2026-06-22T00:00:01Z",
            ])
        #expect(fixes.allSatisfy { $0.mode == .threeD && $0.quality == .gps })
        #expect(statistics.undatedFixes == 0 && statistics.backfilledFixes == 0)
    }

    @Test func dateLessSentencesTakeTheLastDateAcrossMidnight() throws {
        // RMC only at the start; GGA alone after that.
        let (fixes, _) = assemble([rmc("235959", date: "311226"), gga("235959"), gga("000000"), gga("000001")])
        #expect(fixes.map(\.iso8601) == ["2026-12-31T23:59:59Z", "2027-01-01T00:00:00Z", "2027-01-01T00:00:01Z"])
    }

    @Test func aLateZDABackFillsEarlierFixes() throws {
        let (fixes, statistics) = assemble([
            gga("235958"), gga("235959"), gga("000000"), "$GPZDA,000000,09,03,2019,00,00", gga("000001"),
        ])
        #expect(
            fixes.map(\.iso8601) == [
                "2019-03-08T23:59:58Z", "2019-03-08T23:59:59Z", "2019-03-09T00:00:00Z", "2019-03-09T00:00:01Z",
            ])
        // GGA ended two cycles, so the 00:00:00 epoch went out (held, undated) before its ZDA, which then dates all three.
        #expect(statistics.backfilledFixes == 3)
        #expect(statistics.lateSentences == 1)
    }

    @Test func withoutAnyDateFixesComeOutUndatedAtTheEnd() throws {
        let (fixes, statistics) = assemble([gga("120000"), gga("120001")])
        #expect(fixes.count == 2)
        #expect(fixes.allSatisfy { $0.date == nil && $0.time != nil && $0.hasPosition })
        #expect(statistics.undatedFixes == 2)
    }

    @Test func zdaGivesTheCenturyForRMC() throws {
        // A two-digit 79 would be 2079; ZDA says the century is the 1900s.
        let (fixes, _) = assemble([
            "$GPZDA,120000,01,06,1979,00,00", rmc("120000", date: "010679"), rmc("120001", date: "010679"),
        ])
        #expect(fixes.map { $0.date?.year } == [1979, 1979])
    }

    @Test func weekRolloverDatesAreCorrectedAndCounted() throws {
        // A receiver after the April 2019 rollover reports 1999-08-22 for 2019-04-07.
        let (fixes, statistics) = assemble([rmc("000231", date: "220899"), rmc("000232", date: "220899")])
        #expect(
            fixes.map { $0.date } == [UTCDate(year: 2019, month: 4, day: 7), UTCDate(year: 2019, month: 4, day: 7)])
        #expect(fixes.allSatisfy { $0.dateWasCorrected })
        #expect(statistics.weekRolloverCorrections == 2)
    }

    @Test func aJumpBackBy1024WeeksIsCorrected() throws {
        let (fixes, statistics) = assemble([rmc("120000", date: "010326"), rmc("120001", date: "160706")])
        #expect(
            fixes.map { $0.date } == [UTCDate(year: 2026, month: 3, day: 1), UTCDate(year: 2026, month: 3, day: 1)])
        #expect(statistics.weekRolloverCorrections == 1)
    }

    @Test func genuineOldDatesAreKept() throws {
        let (fixes, statistics) = assemble([rmc("123519", date: "230394"), rmc("123520", date: "070804")])
        #expect(
            fixes.map { $0.date } == [UTCDate(year: 1994, month: 3, day: 23), UTCDate(year: 2004, month: 8, day: 7)])
        #expect(statistics.weekRolloverCorrections == 0)
    }

    @Test func aLiveReferenceDateCorrectsAnyDate1024WeeksBack() throws {
        let (fixes, _) = assemble(
            [rmc("120000", date: "160407")],
            options: .init(referenceDate: UTCDate(year: 2026, month: 11, day: 30)))
        #expect(fixes.first?.date == UTCDate(year: 2026, month: 11, day: 30))
    }

    @Test func invalidStatusGivesNoFixNeverAStalePosition() throws {
        let (fixes, statistics) = assemble([
            rmc("120000"), gga("120000"),
            rmc("120001", "", "", status: "V"), gga("120001", "", "", quality: 0, altitude: ""),
            rmc("120002", "0000.000", "00000.000", status: "V"), gga("120002", "0000.000", "00000.000", quality: 0),
            rmc("120003"), gga("120003"),
        ])
        #expect(fixes.map(\.hasPosition) == [true, false, false, true])
        #expect(fixes[1].latitude == nil && fixes[1].mode == .none && fixes[1].quality == .none)
        #expect(fixes[2].latitude == nil)
        #expect(fixes[1].time == UTCTime(hour: 12, minute: 0, second: 1))
        #expect(statistics.fixesWithoutPosition == 2)
    }

    @Test func theLearnedCycleEndHandsOutAnEpochAtOnce() throws {
        let cycle = { (time: String) in [rmc(time), gga(time), "$GPGSA,A,3,04,05,,,,,,,,,,,2.5,1.3,2.1"] }
        let lines = cycle("120000") + cycle("120001") + cycle("120002") + cycle("120003")
        // The first two epochs close when the next begins; once GSA has ended two cycles, it closes its own.
        #expect(emissionLines(lines) == [3, 6, 8, 11])
    }

    @Test func lateDataForAHandedOutEpochIsCountedAndTheLessonForgotten() throws {
        // GSA ends two cycles, then a cycle brings a ZDA after its GSA: the ZDA is late.
        let lines = [
            rmc("120000"), "$GPGSA,A,3,04,,,,,,,,,,,,2.5,1.3,2.1",
            rmc("120001"), "$GPGSA,A,3,04,,,,,,,,,,,,2.5,1.3,2.1",
            rmc("120002"), "$GPGSA,A,3,04,,,,,,,,,,,,2.5,1.3,2.1", "$GPZDA,120002,30,11,2026,00,00",
            rmc("120003"),
        ]
        let (fixes, statistics) = assemble(lines)
        #expect(fixes.count == 4)
        #expect(statistics.lateSentences == 1)
        #expect(statistics.epochsClosedByCycleEnd == 1)
    }

    /// Issue 12, item 9: a chartplotter's multiplexed stream (`bundg_zeus_9.log`) carries a compass's `$SDHDG`
    /// many times a second among the receiver's sentences, last of all in each second. It came before in the same
    /// second, so it does not end a cycle: learned from two seconds, it closed the third at the HDG after its
    /// GGA, and that second's GLL and RMC came late and were lost, every third second.
    @Test func aSentenceRepeatedWithinAnEpochDoesNotEndTheCycle() throws {
        let hdg = "$SDHDG,238.3,,,1.3,E"
        var lines: [String] = []
        for second in 0..<6 {
            let time = "12000\(second)"
            lines += [gga(time), hdg, "$GPGLL,4807.038,N,01131.000,E,\(time),A,A", hdg, rmc(time), hdg, hdg]
        }
        let (fixes, statistics) = assemble(lines)
        #expect(fixes.count == 6)
        #expect(fixes.allSatisfy { $0.speed != nil && $0.altitudeMeters == 545.4 })
        #expect(statistics.lateSentences == 0)
        #expect(statistics.epochsClosedByCycleEnd == 0)
    }

    @Test func sameTimeDifferentDigitsIsOneEpoch() throws {
        let (fixes, _) = assemble(["$GPGLL,4807.038,N,01131.000,E,120000.000,A,A", gga("120000.00"), rmc("120000.0")])
        #expect(fixes.count == 1)
        #expect(fixes[0].altitudeMeters == 545.4)
    }

    @Test func theFinerPositionWins() throws {
        let (fixes, _) = assemble([
            gga("120000", "4807.03812", "01131.00034"), rmc("120000", "4807.0381", "01131.0003"),
        ])
        #expect(fixes[0].latitude! == 48 + 7.03812 / 60)
    }

    @Test func provisionalFirstFixComesBeforeTheEpochIsComplete() throws {
        var assembler = FixAssembler(options: .init(provisionalPositions: true))
        var fixes: [Fix] = []
        for line in [rmc("120000"), gga("120000"), rmc("120001")] {
            try Sentence.withParsing(withChecksum(line)) { (sentence) throws(NMEAError) in
                assembler.add(try ParsedSentence(sentence)) { fixes.append($0) }
            }
            if fixes.isEmpty { Issue.record("no fix after the first RMC") }
        }
        // The first epoch taught the cycle's end (GGA): the second epoch's fix comes at its GGA, not provisional.
        #expect(fixes.map(\.isProvisional) == [true, false])
        #expect(fixes[0].latitude == 48.1173 && fixes[0].altitudeMeters == nil)
        #expect(fixes[1].altitudeMeters == 545.4 && fixes[1].time == UTCTime(hour: 12, minute: 0, second: 0))
    }

    /// The events of a 5 Hz receiver's epochs (`lines(time)` each) through an assembler for live displays.
    func liveEvents(_ times: [String], _ lines: (String) -> [String]) throws -> [String] {
        var assembler = FixAssembler(options: .init(provisionalPositions: true))
        var events: [String] = []
        for time in times {
            for line in lines(time) {
                try Sentence.withParsing(withChecksum(line)) { (sentence) throws(NMEAError) in
                    let parsed = try ParsedSentence(sentence)
                    let name = parsed.kind?.name ?? "?"
                    assembler.add(parsed) { fix in
                        events.append("\(name) → \(fix.isProvisional ? "provisional" : "fix") \(fix.time!)")
                    }
                }
            }
        }
        assembler.finish { fix in events.append("finish → fix \(fix.time!)") }
        return events
    }

    /// Issue 12, item 8: position at once, then every epoch at its end. The first epoch's position goes out at its
    /// first position sentence, provisional, and its complete fix when the next epoch begins; its last sentence
    /// teaches the cycle's end, so from the second epoch on each complete fix comes out at the epoch's last
    /// sentence and nothing is provisional. (The second epoch's complete fix came out a cycle late, when the end
    /// was learned from two epochs: 200 ms at 5 Hz.)
    @Test func everyEpochAtItsEndFromTheSecond() throws {
        let events = try liveEvents(["120000.0", "120000.2", "120000.4", "120000.6", "120000.8"]) { time in
            [rmc(time), gga(time), "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1", "$GPZDA,\(time),30,11,2026,00,00"]
        }
        #expect(
            events == [
                "RMC → provisional 12:00:00.0",
                "RMC → fix 12:00:00.0",  // the cycle's end (ZDA) is learned here, from the first epoch
                "ZDA → fix 12:00:00.2",
                "ZDA → fix 12:00:00.4",
                "ZDA → fix 12:00:00.6",
                "ZDA → fix 12:00:00.8",
            ])
    }

    /// A first epoch that ends early (a GGA comes only every other epoch, after the ZDA) teaches a wrong end: the
    /// late GGA shows it (it is counted and lost, as after any wrong lesson), and the end is then learned from two
    /// epochs in a row, which this receiver never gives; each epoch's position goes out at once meanwhile.
    @Test func aWrongFirstLessonIsLearnedAgainFromTwo() throws {
        var index = 0
        let events = try liveEvents(["120000.0", "120000.2", "120000.4", "120000.6", "120000.8", "120001.0"]) { time in
            defer { index += 1 }
            return [rmc(time), "$GPZDA,\(time),30,11,2026,00,00"] + (index % 2 == 1 ? [gga(time)] : [])
        }
        #expect(
            events == [
                "RMC → provisional 12:00:00.0",
                "RMC → fix 12:00:00.0",  // learned: ZDA (wrong)
                "ZDA → fix 12:00:00.2",  // handed out at ZDA; its GGA comes late
                "RMC → provisional 12:00:00.4",
                "RMC → fix 12:00:00.4",
                "RMC → provisional 12:00:00.6",
                "RMC → fix 12:00:00.6",
                "RMC → provisional 12:00:00.8",
                "RMC → fix 12:00:00.8",
                "RMC → provisional 12:00:01.0",
                "finish → fix 12:00:01.0",
            ])
    }

    /// Epochs without a fix teach the cycle's end; the first position still goes out at once, and the epochs after
    /// it each at their end.
    @Test func firstPositionAtOnceAfterEpochsWithoutAFix() throws {
        var assembler = FixAssembler(options: .init(provisionalPositions: true))
        var events: [String] = []
        for (index, time) in ["120000.0", "120000.2", "120000.4", "120000.6", "120000.8"].enumerated() {
            let status = index < 3 ? "V" : "A"
            for line in [rmc(time, status: status), "$GPZDA,\(time),30,11,2026,00,00"] {
                try Sentence.withParsing(withChecksum(line)) { (sentence) throws(NMEAError) in
                    let parsed = try ParsedSentence(sentence)
                    let name = parsed.kind?.name ?? "?"
                    assembler.add(parsed) { fix in
                        events.append("\(name) → \(fix.isProvisional ? "provisional" : "fix") \(fix.hasPosition)")
                    }
                }
            }
        }
        #expect(
            events == [
                "RMC → fix false",  // the cycle's end (ZDA) is learned here
                "ZDA → fix false", "ZDA → fix false",
                "RMC → provisional true", "ZDA → fix true", "ZDA → fix true",
            ])
    }

    @Test func gnssModesGiveTheQuality() throws {
        let (fixes, _) = assemble([
            "$GNGNS,120000.00,4807.038,N,01131.000,E,RR,13,0.9,545.4,46.9,,,V",
            "$GNGNS,120001.00,4807.038,N,01131.000,E,FA,13,0.9,545.4,46.9,,,V",
            "$GNGNS,120002.00,,,,,NN,00,,,,,,V",
        ])
        #expect(fixes.map(\.quality) == [.rtkFixed, .rtkFloat, .none])
        #expect(fixes.map(\.hasPosition) == [true, true, false])
    }

    @Test func resetForgetsTheEpochInProgress() throws {
        var assembler = FixAssembler(options: .init(fallbackDate: UTCDate(year: 2026, month: 1, day: 1)))
        var fixes: [Fix] = []
        try Sentence.withParsing(withChecksum(gga("120000"))) { (sentence) throws(NMEAError) in
            assembler.add(try ParsedSentence(sentence)) { fixes.append($0) }
        }
        assembler.reset()
        assembler.finish { fixes.append($0) }
        #expect(fixes.isEmpty)
    }
}

/// Issue 16: heading and depth from a compass and a sounder, multiplexed with the receiver's sentences.
@Suite struct HeadingAndDepthInTheFixTests {
    static let epoch = [
        "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
    ]

    @Test func magneticHeadingGivesTheTrueOneWithoutHDT() throws {
        let fixes = assemble(Self.epoch + ["$HCHDG,98.3,1.5,E,12.6,W", "$SDDBT,7.8,f,2.4,M,1.3,F"] + Self.epoch).fixes
        let fix = try #require(fixes.first)
        #expect(fix.magneticHeadingDegrees == 99.8)
        #expect(abs(fix.headingDegrees! - 87.2) < 1e-9)
        #expect(fix.depthMeters == 2.4)
    }

    /// The true heading of HDT wins over one computed from HDG; the last depth of the epoch is kept, DPT's without its
    /// offset, as gpsd does (bundg_zeus_9.log in the corpus: its TPV `depth` follows DPT and DBT in turn).
    @Test func trueHeadingWinsAndTheLastDepthIsKept() throws {
        let lines = [
            "$SDDBT,7.8,f,2.4,M,1.3,F", "$SDDPT,3.1,0.5", "$HCHDM,238.5,M", "$GPHDT,274.07,T", "$APROT,0.013,A",
        ]
        let fix = try #require(assemble(Self.epoch + lines + ["$HCHDG,98.3,0.0,E,12.6,W"] + Self.epoch).fixes.first)
        #expect(fix.headingDegrees == 274.07)
        #expect(fix.magneticHeadingDegrees == 98.3)
        #expect(fix.depthMeters == 3.1)
        #expect(fix.rateOfTurnDegreesPerMinute == 0.013)
        let invalidTurn = Self.epoch + ["$APROT,5.0,V"] + Self.epoch
        #expect(try #require(assemble(invalidTurn).fixes.first).rateOfTurnDegreesPerMinute == nil)
    }

    @Test func noHeadingNoDepth() throws {
        let fix = try #require(assemble(Self.epoch + Self.epoch).fixes.first)
        #expect(fix.headingDegrees == nil && fix.magneticHeadingDegrees == nil && fix.depthMeters == nil)
    }
}
