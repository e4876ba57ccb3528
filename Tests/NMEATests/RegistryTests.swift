import TestSupport
import Testing

@testable import NMEA

/// `SentenceKind`, the registry: everything per type derives from it, so every registered type is checked here
/// without a line of its own.
@Suite struct RegistryTests {
    /// What a kind's decoder type says about itself.
    struct Facts: SentenceDecoderBody {
        var kind: SentenceKind?
        var sample = ""
        var address = SentenceAddress.standard(SentenceType(rawValue: 0))

        mutating func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence) {
            kind = S.kind
            sample = S.sample
            address = S.address
        }
    }

    static func facts(_ kind: SentenceKind) -> Facts {
        var facts = Facts()
        kind.withDecoder(&facts)
        return facts
    }

    /// Decodes `line` with the decoder the registry names for `kind`, checks the sentence's talker, and counts the
    /// named values its description hands out.
    struct Decode: SentenceDecoderBody {
        let sentence: Sentence
        var described = Recorder()
        var wrapped: SentenceKind?

        mutating func decoder<S: DecodableSentence>(_ type: S.Type, _ parsed: (S) -> ParsedSentence)
            throws(NMEAError)
        {
            let decoded = try S(sentence)
            #expect(decoded.talker == sentence.talker, "\(S.self)")
            decoded.describe(to: &described)
            wrapped = parsed(decoded).kind
        }
    }

    /// Records the names a description hands out, nested lists as `name[…]`.
    struct Recorder: SentenceFieldSink {
        var names: [String] = []

        mutating func field(_ name: StaticString, _ value: FixedPoint?) { names.append("\(name)") }
        mutating func field(_ name: StaticString, _ value: Int?) { names.append("\(name)") }
        mutating func field(_ name: StaticString, _ value: Bool?) { names.append("\(name)") }
        mutating func field(_ name: StaticString, _ value: UTCTime?) { names.append("\(name)") }
        mutating func field(_ name: StaticString, _ value: UTCDate?) { names.append("\(name)") }
        mutating func field(_ name: StaticString, letter: UInt8?) { names.append("\(name)") }
        mutating func field(_ name: StaticString, letters: some Sequence<UInt8>) { names.append("\(name)") }
        mutating func field(_ name: StaticString, code: ShortCode) { names.append("\(name)") }
        mutating func field(_ name: StaticString, text: ShortText) { names.append("\(name)") }
        mutating func beginList(_ name: StaticString) { names.append("\(name)[") }
        mutating func endList() { names.append("]") }
        mutating func beginGroup() { names.append("{") }
        mutating func endGroup() { names.append("}") }
        mutating func element(_ value: FixedPoint?) { names.append("·") }
        mutating func element(_ value: Int) { names.append("·") }
    }

    /// The kinds, their dispatch and the `ParsedSentence` cases are written from the registry's lines
    /// (`Sources/NMEA/Sentences/Registry.swift`) by `scripts/generate-registry`: the files are what it writes now.
    @Test func generatedFilesAreWhatTheRegistrySays() throws {
        let outcome = try ChildProcess.run([Locations.packageRoot + "/scripts/generate-registry", "--check"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let registry = readTextFile(Locations.packageRoot + "/Sources/NMEA/Sentences/Registry.swift")
        let lines = registry.split(separator: "\n").filter { $0.hasPrefix("// registry: ") }
        #expect(lines.count == SentenceKind.allCases.count)
        #expect(lines.first == "// registry: rmc RMC" && lines.last == "// registry: grsh SecondaryAntenna<GRS>")
        #expect(SentenceKind.registered == SentenceKind.allCases)
    }

    /// The address table the script writes out is the one the registry's addresses make, slot for slot: one filled
    /// slot per address.
    @Test func theWrittenAddressTableIsTheRegistrys() {
        let built = SentenceKindTable.built(from: SentenceKind.registered)
        let written = SentenceKindTable.slots
        let differing = (0..<128).filter { built[$0] != written[$0] }
        #expect(differing.isEmpty, "slots \(differing) differ: run scripts/generate-registry")
        let alternatives = SentenceKind.allCases.filter { $0.alternativeAddress != nil }.count
        let addresses = SentenceKind.allCases.count + alternatives
        #expect((0..<128).filter { written[$0].type != 0 }.count == addresses)
    }

    /// The fuzz target's dictionary has every registered address: a standard type's letters, a proprietary
    /// address as it begins a sentence.
    @Test(arguments: SentenceKind.allCases)
    func fuzzDictionaryHasTheAddress(kind: SentenceKind) {
        let dictionary = readTextFile(Locations.packageRoot + "/Fuzz/nmea.dict")
        let entry = kind.address.isProprietary ? "\"$\(kind.name),\"" : "\"\(kind.address.type)\""
        #expect(dictionary.contains("\n" + entry + "\n"), "Fuzz/nmea.dict has no \(entry)")
    }

    @Test(arguments: SentenceKind.allCases)
    func everyKindDecodesItsSampleAndDescribesIt(kind: SentenceKind) throws {
        let facts = Self.facts(kind)
        #expect(facts.kind == kind, "the registry's line for \(kind) names a type of another kind")
        #expect(kind.address == facts.address)
        #expect(kind.name == facts.address.name)
        let outcome = try withSentence(facts.sample) { (sentence) throws(NMEAError) -> (SentenceKind?, Decode) in
            var decode = Decode(sentence: sentence)
            try kind.withDecoder(&decode)
            return (SentenceKind(sentence), decode)
        }
        #expect(outcome.0 == kind, "the sample of \(kind) is dispatched to \(String(describing: outcome.0))")
        #expect(outcome.1.wrapped == kind, "the ParsedSentence case of \(kind)")
        #expect(!outcome.1.described.names.isEmpty, "\(kind) describes no field")
        #expect(try parsedKind(facts.sample) == kind)
    }

    @Test func everyAddressIsDistinct() {
        let addresses = SentenceKind.allCases.map(\.address)
        #expect(Set(addresses).count == addresses.count)
        #expect(Set(SentenceKind.allCases.map(\.name)).count == SentenceKind.allCases.count)
        #expect(SentenceKind.pubxPosition.name == "PUBX,00" && SentenceKind.pubxSatellites.name == "PUBX,03")
        #expect(SentenceKind.pubxTime.address.messageIDText == "04" && SentenceKind.rmc.address.messageIDText == nil)
    }

    /// A kind's second address (``DecodableSentence/alternativeAddress``: `$PTNL,DG` beside `$PTNLDG`) is no other
    /// kind's, and its sample written under it reaches the kind with the same values.
    @Test func alternativeAddressesReachTheirKind() throws {
        let primary = Set(SentenceKind.allCases.map(\.address))
        let alternatives = SentenceKind.allCases.compactMap { kind in kind.alternativeAddress.map { (kind, $0) } }
        #expect(alternatives.map(\.0) == [.ptnlDG])
        for (kind, address) in alternatives {
            #expect(!primary.contains(address) && address.isProprietary == kind.address.isProprietary)
            let sample = Self.facts(kind).sample
            let fields = sample.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false)
            let line = withChecksum("$" + address.name + "," + fields.dropFirst().joined(separator: ","))
            #expect(try parsedKind(line) == kind, "\(line)")
            #expect(try Self.described(line) == Self.described(sample))
        }
    }

    /// What `line` decodes to, as text.
    static func described(_ line: String) throws(NMEAError) -> String {
        try withSentence(line) { (sentence) throws(NMEAError) in String(describing: try ParsedSentence(sentence)) }
    }

    /// The `nmea` fuzz target (`Fuzz/Sources/FuzzNMEA/NMEATarget.swift`) writes each kind's name as an address
    /// (after a talker for a standard type: `$GPGGAH,…`; with its message ID for a proprietary one: `$PTNL,GGK,…`;
    /// `$PASHR,…` wants a number first, as the fuzzer's fields often begin) and its input after it: with the
    /// kind's sample's fields, each such sentence reaches its kind.
    @Test(arguments: SentenceKind.allCases)
    func fuzzAddressesReachEveryKind(kind: SentenceKind) throws {
        let body = Self.facts(kind).sample.split(separator: "*")[0]
        var fields = body.split(separator: ",", omittingEmptySubsequences: false).dropFirst()
        if kind.address.messageIDText != nil { fields = fields.dropFirst() }
        let address = kind.address.isProprietary ? kind.name : "GP" + kind.name
        #expect(try parsedKind(withChecksum("$" + address + "," + fields.joined(separator: ","))) == kind)
    }

    /// The counters are an inline array with room for ``DecoderStatistics/capacity`` kinds: more kinds than that
    /// would stop the first `DecoderStatistics()` (a precondition) and every count (checked subscripts), never
    /// write past the array. This is the check that the registry still fits.
    @Test func statisticsHaveRoomForEveryKind() {
        #expect(SentenceKind.allCases.count <= DecoderStatistics.capacity)
        #expect(SentenceKind.allCases.map(\.rawValue) == Array(0..<SentenceKind.allCases.count))
        var statistics = DecoderStatistics()
        for (index, kind) in SentenceKind.allCases.enumerated() {
            for _ in 0...index { statistics.record(kind) }
        }
        for (index, kind) in SentenceKind.allCases.enumerated() { #expect(statistics[kind] == index + 1) }
        #expect(statistics.totalDecoded == (1...SentenceKind.allCases.count).reduce(0, +))
    }

    /// Types that are not the decoders' own stay unknown, including a standard sentence whose type letters match a
    /// proprietary address, and `$PUBX` messages no decoder reads.
    @Test(arguments: ["$GPPGRME,15.0,M,45.0,M,25.0,M", "$PUBX,05,1", "$PUBX", "$PGRMC,1", "$GPUBX,00,1", "$PQXYZ,1"])
    func otherAddressesAreUnknown(line: String) throws {
        #expect(try parsedKind(withChecksum(line)) == nil)
    }
}
