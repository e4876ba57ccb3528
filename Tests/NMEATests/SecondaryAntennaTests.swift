import Testing

@testable import NMEA

/// Unicore's `…H` sentences (GGAH, GLLH, GNSH, GSTH, GSAH, GSVH, RMCH, VTGH, GRSH): a dual-antenna receiver's
/// secondary antenna, in exactly the standard types' fields. Sources: pynmeagps's `nmeatypes_core.py`, which names
/// each "(Secondary Antenna)", and its `tests/unicore_nmea.log`, whose sentences are every sample here (each has its
/// standard type's fields and decimals); Unicore's "Reference Commands Manual" for the ordinary GGA and RMC, which
/// already carry eight decimals of minutes.
@Suite struct SecondaryAntennaTests {
    static let ggah = "$GNGGAH,073346.00,4004.73874301,N,11614.19077585,E,1,28,0.6,64.2831,M,8.4925,M,,*35"
    static let rmch = "$GNRMCH,055808.00,A,4004.73817916,N,11614.19891207,E,0.004,99.7,311221,6.9,W,D,V*3A"

    /// The line with the `H` dropped from its address, checksum recomputed: the standard sentence.
    static func standard(_ line: String) -> String {
        var body = String(line[..<line.lastIndex(of: "*")!])
        let comma = body.firstIndex(of: ",")!
        body.remove(at: body.index(before: comma))
        return withChecksum(body)
    }

    @Test func fixDataAsGGA() throws {
        let ggah = try SecondaryAntenna<GGA>(parsing: Self.ggah)
        #expect(
            ggah
                == SecondaryAntenna(
                    GGA(
                        talker: .gnss, time: .at(7, 33, 46, digits: 2), latitude: fp(400_789_790_501_667, 13),
                        longitude: fp(1_162_365_129_308_333, 13), quality: .gps, satellitesUsed: 28, hdop: fp(6, 1),
                        altitudeMeters: fp(642_831, 4), geoidSeparationMeters: fp(84925, 4))))
        #expect(ggah.latitude == ggah.base.latitude && ggah.talker == .gnss)
        #expect(SecondaryAntenna<GGA>.kind == .ggah && SecondaryAntenna<GGA>.sentenceType == .ggah)
    }

    /// Every variant decodes as its standard type decodes the same fields, and is registered as a kind of its own.
    @Test(arguments: SecondaryAntennaTests.variants)
    func everyVariantIsItsStandardType(kind: SentenceKind, standard: SentenceKind) throws {
        let sample = RegistryTests.facts(kind).sample
        #expect(try parsedKind(sample) == kind)
        #expect(try parsedKind(Self.standard(sample)) == standard)
        #expect(kind.name == standard.name + "H")
        let variant = try Self.describe(sample)
        let plain = try Self.describe(Self.standard(sample))
        #expect(variant.names == plain.names)
        #expect(variant.text.hasPrefix("\(kind)(NMEA.SecondaryAntenna<"))
        #expect(variant.text.contains(plain.text.drop { $0 != "(" }.dropFirst().dropLast()))
    }

    /// What a sentence decodes to, as text, and the names its description hands out.
    static func describe(_ line: String) throws(NMEAError) -> (text: String, names: [String]) {
        struct Describing: SentenceVisitor {
            var names = RegistryTests.Recorder()
            mutating func visit<S: DecodableSentence>(_ sentence: S) { sentence.describe(to: &names) }
        }
        return try withSentence(line) { (sentence) throws(NMEAError) -> (text: String, names: [String]) in
            let parsed = try ParsedSentence(sentence)
            var describing = Describing()
            parsed.visit(into: &describing)
            return (String(describing: parsed), describing.names.names)
        }
    }

    static let variants: [(SentenceKind, SentenceKind)] = [
        (.ggah, .gga), (.gllh, .gll), (.gnsh, .gns), (.gsth, .gst), (.gsah, .gsa), (.gsvh, .gsv), (.rmch, .rmc),
        (.vtgh, .vtg), (.grsh, .grs),
    ]

    @Test func malformedFieldsAsTheStandardType() throws {
        #expect(throws: NMEAError.badField(index: 3, reason: .unexpectedCharacter)) {
            try SecondaryAntenna<GGA>(parsing: replacingField(3, of: Self.ggah, with: "E"))
        }
        #expect(throws: NMEAError.badField(index: 2, reason: .unexpectedCharacter)) {
            try SecondaryAntenna<RMC>(parsing: replacingField(2, of: Self.rmch, with: "X"))
        }
        #expect(throws: NMEAError.tooFewFields(expected: 1, found: 0)) {
            try SecondaryAntenna<GGA>(parsing: withChecksum("$GNGGAH"))
        }
        #expect(throws: NMEAError.wrongType(expected: .ggah, found: .gga)) {
            try SecondaryAntenna<GGA>(parsing: Self.standard(Self.ggah))
        }
        let short = try SecondaryAntenna<RMC>(parsing: keepingFields(2, of: Self.rmch))
        #expect(short.isValid && short.latitude == nil && short.date == nil)
    }

    /// A receiver that sends only its secondary antenna's sentences gives fixes from them, as from GGA and RMC.
    @Test func onlySecondaryAntennaSentencesGiveFixes() {
        let lines = (0..<3).flatMap { second in
            [
                "$GNGGAH,12000\(second).00,4004.73874301,N,11614.19077585,E,4,28,0.6,64.2831,M,8.4925,M,1.0,0001",
                "$GNRMCH,12000\(second).00,A,4004.73874301,N,11614.19077585,E,0.004,99.7,311221,6.9,W,R,V",
            ].map { withChecksum($0) }
        }
        let fixes = assembledFixes(lines)
        #expect(fixes.count == 3)
        for (second, fix) in fixes.enumerated() {
            #expect(fix.hasPosition && fix.mode == .threeD && fix.quality == .rtkFixed)
            #expect(fix.date == UTCDate(year: 2021, month: 12, day: 31))
            #expect(fix.time == .at(12, 0, UInt8(second), digits: 2))
            #expect(abs(fix.latitude! - 40.0789790501667) < 1e-12 && fix.altitudeMeters == 64.2831)
        }
    }

    /// Read after another receiver's log (one with GGA and RMC), a receiver that sends only its secondary antenna's
    /// sentences still gives its fixes: what the last receiver sent is forgotten with it, as its sky is.
    @Test func aNewInputForgetsTheLastReceiversTypes() {
        func bytes(_ lines: [String]) -> [UInt8] { Array(lines.map { withChecksum($0) + "\r\n" }.joined().utf8) }
        let first = bytes([
            "$GNRMC,115959.00,A,4004.73874301,N,11614.19077585,E,0.004,99.7,311221,6.9,W,R,V",
            "$GNGGA,115959.00,4004.73874301,N,11614.19077585,E,4,28,0.6,64.2831,M,8.4925,M,1.0,0001",
        ])
        let second = bytes(
            (0..<2).flatMap { second in
                [
                    "$GNGGAH,12000\(second).00,4004.73874301,N,11614.19077585,E,4,28,0.6,64.2831,M,8.4925,M,1.0,0001",
                    "$GNRMCH,12000\(second).00,A,4004.73874301,N,11614.19077585,E,0.004,99.7,311221,6.9,W,R,V",
                ]
            })
        var reader = FixReader()
        var fixes: [Fix] = []
        first.withUnsafeBytes { reader.read($0) { fixes.append($0) } }
        reader.finish { fixes.append($0) }
        second.withUnsafeBytes { reader.read($0) { fixes.append($0) } }
        reader.finish { fixes.append($0) }
        #expect(fixes.filter(\.hasPosition).map { $0.time?.second } == [59, 0, 1])
    }

    /// Beside the primary antenna's GGA and GSV, the secondary's GGAH and GSVH do not move the fix or add to its sky,
    /// whether they come before or after the standard sentences in an epoch.
    @Test func standardSentencesWinOverTheSecondaryAntenna() {
        func epoch(_ second: Int, secondaryFirst: Bool) -> [String] {
            let time = "12000\(second).00"
            let primary = [
                "$GNGGA,\(time),4004.73874301,N,11614.19077585,E,4,28,0.6,64.2831,M,8.4925,M,,",
                "$GPGSV,1,1,02,16,28,217,38,32,39,140,45,1",
            ]
            let secondary = [
                "$GNGGAH,\(time),4004.73999999,N,11614.19999999,E,4,27,0.7,65.0000,M,8.4925,M,,",
                "$GPGSVH,1,1,03,03,29,290,32,31,66,033,50,26,69,220,46,1",
            ]
            return (secondaryFirst ? secondary + primary : primary + secondary).map { withChecksum($0) }
        }
        let fixes = assembledFixes(
            epoch(0, secondaryFirst: false) + epoch(1, secondaryFirst: true) + epoch(2, secondaryFirst: false))
        #expect(fixes.count == 3)
        for fix in fixes {
            #expect(abs(fix.latitude! - 40.0789790501667) < 1e-12 && fix.altitudeMeters == 64.2831)
            #expect(fix.satellites.map(\.prn) == [16, 32] && fix.satellitesUsed == 28)
        }
    }
}
