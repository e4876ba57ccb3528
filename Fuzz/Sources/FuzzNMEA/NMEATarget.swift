import NMEA

/// The `nmea` target: frames the input several ways, decodes every sentence, reads every decoded value, reads it as
/// a fix stream, and traps (so libFuzzer saves the input) when an invariant breaks.
///
/// Configurations, all derived from the input's hash so that a crash replays exactly:
/// 1. the default framer (checksum required, 1024 bytes), the input whole and split at one point;
/// 2. a framer that accepts sentences without checksum, with a length limit between 8 and 1107 bytes, whole and split;
/// 3. for inputs up to 512 bytes, configuration 1 fed one byte at a time;
/// 4. the input as the fields of a sentence with a valid checksum, whose type is chosen by the first byte, so that
///    the decoders see arbitrary fields without the fuzzer having to find checksums;
/// 5. `FixReader` (transcoder, framer, decoders, assembler) over the input whole, split, and byte by byte: the same
///    fixes and counters every time; and a reader that skips the sky (`readsSky` false): the same fixes less their
///    satellites, the same assembler counts, every GSV counted once.
func fuzzNMEA(_ input: UnsafeRawBufferPointer) {
    let size = input.count
    let hash = fnv1a(input)
    let cut = size == 0 ? 0 : Int(hash % UInt64(size + 1))

    let strict = Configuration(maximumLength: 1024, policy: .required)
    let whole = frame(input, cuts: [], strict)
    check(whole, equals: frame(input, cuts: [cut], strict), "strict, split at \(cut)")
    if size <= 512 {
        check(whole, equals: frame(input, cuts: Array(1..<max(size, 1)), strict), "strict, byte by byte")
    }

    let lenient = Configuration(maximumLength: 8 + Int((hash >> 20) % 1100), policy: .optional)
    let lenientWhole = frame(input, cuts: [], lenient)
    check(lenientWhole, equals: frame(input, cuts: [cut], lenient), "lenient \(lenient.maximumLength), split at \(cut)")

    decodeAsFields(input)
    readFixes(input, cut: cut)
}

/// The fix stream over `input` whole, cut at `cut`, and (up to 512 bytes) byte by byte: same fixes, same counters.
func readFixes(_ input: UnsafeRawBufferPointer, cut: Int) {
    func read(_ cuts: [Int], readsSky: Bool = true) -> (fixes: [Fix], statistics: FixReader.Statistics) {
        var reader = FixReader(options: FixReader.Options(readsSky: readsSky))
        var fixes: [Fix] = []
        var offset = 0
        for end in cuts + [input.count] where end >= offset {
            reader.read(UnsafeRawBufferPointer(rebasing: input[offset..<end])) { fixes.append($0) }
            offset = end
        }
        reader.finish { fixes.append($0) }
        for fix in fixes { touchValues(fix) }
        return (fixes, reader.statistics)
    }
    let whole = read([])
    let split = read([cut])
    require(whole.fixes == split.fixes, "FixReader: fixes differ when split at \(cut)")
    require(whole.statistics == split.statistics, "FixReader: statistics differ when split at \(cut)")
    let skyless = read([cut], readsSky: false)
    func withoutSky(_ fixes: [Fix]) -> [Fix] {
        fixes.map { fix in
            var fix = fix
            fix.satellites.removeAll()
            return fix
        }
    }
    require(withoutSky(skyless.fixes) == withoutSky(whole.fixes), "FixReader: fixes differ without the sky")
    require(
        skyless.statistics.assembler == whole.statistics.assembler, "FixReader: assembly differs without the sky")
    let sky = whole.statistics.decoder
    let noSky = skyless.statistics.decoder
    require(
        noSky.skipped == sky[.gsv] && noSky.failed == sky.failed
            && noSky.totalDecoded == sky.totalDecoded - sky[.gsv], "FixReader: GSV counted otherwise without the sky")
    if input.count <= 512 {
        let bytewise = read(Array(1..<max(input.count, 1)))
        require(whole.fixes == bytewise.fixes, "FixReader: fixes differ byte by byte")
        require(whole.statistics == bytewise.statistics, "FixReader: statistics differ byte by byte")
    }
}

/// The addresses of every type in the registry (standard ones from a few talkers in turn) and the second addresses
/// some have, a standard one given by the `P` talker, and two no decoder reads.
let addresses: [[UInt8]] = {
    let talkers = ["GP", "GN", "GL", "GA", "HE"]
    var addresses = SentenceKind.allCases.enumerated().map { index, kind in
        kind.address.isProprietary ? kind.name : talkers[index % talkers.count] + kind.name
    }
    addresses += SentenceKind.allCases.compactMap { $0.alternativeAddress?.name }  // `PTNL,DG` beside `PTNLDG`
    addresses += ["PQGSV", "GPXYZ", "PXYZ"]
    return addresses.map { Array($0.utf8) }
}()

/// Wraps the input (up to its first byte that cannot be in a sentence) as `$<address>,<input>*hh` and decodes it.
func decodeAsFields(_ input: UnsafeRawBufferPointer) {
    guard let selector = input.first else { return }
    var sentence: [UInt8] = [UInt8(ascii: "$")] + addresses[Int(selector) % addresses.count] + [UInt8(ascii: ",")]
    for byte in input.dropFirst().prefix(900) {
        if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "!") { break }
        sentence.append(byte)
    }
    let xor = sentence.dropFirst().reduce(0, ^)
    sentence += [UInt8(ascii: "*"), hexDigit(xor >> 4), hexDigit(xor & 0xF), 0x0D, 0x0A]
    let outcome = sentence.withUnsafeBytes {
        frame($0, cuts: [], Configuration(maximumLength: 1024, policy: .required))
    }
    require(outcome.sentenceEvents == 1 && outcome.rejectionEvents == 0, "a built sentence did not frame: \(outcome)")
}

struct Configuration {
    var maximumLength: Int
    var policy: Framer.ChecksumPolicy
}

/// Everything one framing pass produced that must not depend on how the input was chunked.
struct Outcome: Equatable {
    var statistics = FramerStatistics()
    var decoder = DecoderStatistics()
    var sentenceEvents = 0
    var rejectionEvents = 0
    var finalLine = 0
    /// FNV-1a over every sentence's and rejection's bytes, line and checksum or error, in order.
    var digest: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func mix(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes { mix(UInt64(byte)) }
    }

    mutating func mix(_ value: UInt64) {
        digest = (digest ^ value) &* 0x100_0000_01B3
    }
}

/// Frames `input` cut at the offsets in `cuts` (ascending), checking each event and decoding each sentence.
func frame(_ input: UnsafeRawBufferPointer, cuts: [Int], _ configuration: Configuration) -> Outcome {
    var outcome = Outcome()
    var framer = Framer(maximumLength: configuration.maximumLength, checksumPolicy: configuration.policy)
    func handle(_ event: FramerEvent) {
        switch event {
        case .sentence(let sentence):
            outcome.sentenceEvents += 1
            outcome.mix(sentence.bytes)
            outcome.mix(UInt64(sentence.line))
            outcome.mix(UInt64(sentence.checksum ?? 0) | (sentence.checksum == nil ? 0x100 : 0))
            checkSentence(sentence, configuration)
            do {
                let parsed = try ParsedSentence(sentence)
                outcome.decoder.record(parsed)
                touch(parsed)
            } catch {
                outcome.decoder.recordFailure()
                blackHole(String(describing: error))
            }
            exerciseFieldReader(sentence)
        case .rejected(let rejection):
            outcome.rejectionEvents += 1
            outcome.mix(rejection.bytes)
            outcome.mix(UInt64(rejection.line))
            outcome.mix(UInt64(truncatingIfNeeded: String(describing: rejection.error).utf8.count))
            require(rejection.bytes.count <= configuration.maximumLength, "rejection longer than the limit")
            require(rejection.bytes.count >= 1, "empty rejection")
        case .binaryFrame(let frame):
            // A frame is handed out whole, however the input was cut: its bytes go into the digest.
            outcome.mix(frame.bytes)
            outcome.mix(UInt64(frame.line))
            let header = frame.kind == .ubx ? 8 : 6
            require(frame.bytes.count >= header, "a binary frame shorter than its header and checksum")
            require(frame.bytes.first == (frame.kind == .ubx ? 0xB5 : 0xD3), "a binary frame without its sync byte")
        }
    }
    var offset = 0
    for cut in cuts + [input.count] where cut >= offset {
        framer.feed(UnsafeRawBufferPointer(rebasing: input[offset..<min(cut, input.count)])) { handle($0) }
        offset = min(cut, input.count)
    }
    framer.finish { handle($0) }
    outcome.statistics = framer.statistics
    outcome.finalLine = framer.line

    let statistics = framer.statistics
    require(statistics.bytes == input.count, "bytes counted \(statistics.bytes) != \(input.count)")
    require(statistics.sentences == outcome.sentenceEvents, "sentences \(statistics.sentences) != events")
    require(statistics.rejected == outcome.rejectionEvents, "rejections \(statistics.rejected) != events")
    require(
        statistics.sentencesWithoutChecksum <= statistics.sentences, "more sentences without checksum than sentences")
    if configuration.policy == .required {
        require(statistics.sentencesWithoutChecksum == 0, "a sentence without checksum under .required")
    } else {
        require(statistics.missingChecksums == 0, "a missing checksum rejected under .optional")
    }
    let decoder = outcome.decoder
    require(decoder.totalDecoded + decoder.unknown + decoder.failed == statistics.sentences, "decoder counts")
    return outcome
}

/// What the framer promises about every sentence it hands out.
func checkSentence(_ sentence: Sentence, _ configuration: Configuration) {
    let bytes = sentence.bytes
    require(bytes.count >= 2, "sentence shorter than 2 bytes")
    require(bytes.count <= configuration.maximumLength, "sentence longer than the limit")
    require(bytes[0] == UInt8(ascii: "$") || bytes[0] == UInt8(ascii: "!"), "sentence does not start with $ or !")
    var xor: UInt8 = 0
    for index in 1..<bytes.count {
        let byte = bytes[index]
        require(
            byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "$") && byte != UInt8(ascii: "!"),
            "stop byte inside a sentence")
        xor ^= byte
    }
    if let checksum = sentence.checksum {
        require(checksum == xor, "checksum \(checksum) does not match the bytes (\(xor))")
    } else {
        require(configuration.policy == .optional, "sentence without checksum under .required")
    }
    require(sentence.isEncapsulated == (bytes[0] == UInt8(ascii: "!")), "isEncapsulated")
    blackHole(sentence.address.description)
    blackHole(sentence.talker.description)
    blackHole(sentence.type.description)

    // The field views agree with each other.
    let fields = sentence.fields
    require(fields.count == sentence.fieldCount, "fields.count \(fields.count) != fieldCount \(sentence.fieldCount)")
    for (offset, field) in fields.enumerated() {
        guard let again = sentence.field(offset + 1) else { fail("field(\(offset + 1)) is nil") }
        require(again.bytes.elementsEqual(field.bytes), "field(\(offset + 1)) differs from fields[\(offset)]")
        require(!field.bytes.contains(UInt8(ascii: ",")), "a field contains a comma")
    }
    require(sentence.field(fields.count + 1) == nil, "a field past the last")
    require(sentence.field(0) == nil, "field(0)")

    // Written back with its checksum, the sentence frames to itself.
    if let checksum = sentence.checksum {
        var text = Array(bytes)
        text += [UInt8(ascii: "*"), hexDigit(checksum >> 4), hexDigit(checksum & 0xF), 0x0D, 0x0A]
        var framer = Framer(maximumLength: max(8, bytes.count + 3), checksumPolicy: .required)
        var again = 0
        text.withUnsafeBytes { buffer in
            framer.feed(buffer) { event in
                guard case .sentence(let copy) = event else { fail("re-framing rejected the sentence") }
                require(copy.bytes.elementsEqual(bytes) && copy.checksum == checksum, "re-framing changed it")
                require(copy.talker == sentence.talker && copy.type == sentence.type, "re-framing changed the address")
                again += 1
            }
        }
        framer.finish { _ in fail("re-framing left something behind") }
        require(again == 1, "re-framing gave \(again) sentences")
    }
}

/// Runs the field reader's typed methods over the sentence's fields, in an order chosen by the sentence's own bytes.
func exerciseFieldReader(_ sentence: Sentence) {
    var reader = sentence.fieldReader
    var selector = Int(sentence.bytes.count)
    for byte in sentence.bytes { selector = selector &* 31 &+ Int(byte) }
    var steps = 0
    while reader.hasMore && steps < 64 {
        let before = reader.index
        selector = selector &* 1_103_515_245 &+ 12_345
        do {
            switch (selector >> 16) & 15 {
            case 0: blackHole(reader.time()?.description)
            case 1: blackHole(reader.date()?.description)
            case 2: blackHole(reader.latitude()?.description)
            case 3: blackHole(reader.longitude()?.description)
            case 4: blackHole(reader.fixedPoint()?.doubleValue)
            case 5: blackHole(reader.integer())
            case 6: blackHole(reader.integer(in: -90...90))
            case 7: blackHole(reader.hexadecimal())
            case 8: blackHole(reader.character())
            case 9: blackHole(reader.signed(positive: "E", negative: "W")?.description)
            case 10: blackHole(reader.text().string)
            case 11: blackHole(reader.nextField()?.string)
            case 12: reader.skip(Int(selector & 3))
            case 13: blackHole(reader.isAtLastField)
            case 14: try reader.require(Int(selector & 31))
            default: blackHole(reader.remainder().count)
            }
        } catch {
            blackHole(error.description)
            // A read that fails may or may not have moved past its field(s): move on by one more.
            reader.skip()
        }
        blackHole(reader.errors.description)
        require(reader.index >= before, "the reader moved backwards")
        steps += 1
    }
}

/// Reads every value of a decoded sentence: descriptions, computed properties, lazy lists.
func touch(_ parsed: ParsedSentence) {
    blackHole(parsed.kind?.name)
    switch parsed {
    case .pubxSatellites(let pubx):
        var count = 0
        for satellite in pubx.satellites {
            blackHole(String(describing: satellite))
            blackHole(satellite.isUsed)
            count += 1
        }
        // A list cut short (or with satellites without an ID) holds fewer than announced (issue 12, item 10).
        require(
            count <= pubx.satellites.count, "PUBX,03 lists \(count) satellites, reads at most \(pubx.satellites.count)")
        if pubx.count > 0 { require(count <= pubx.count, "PUBX,03 lists \(count) satellites, announces \(pubx.count)") }
    case .unknown(let sentence):
        blackHole(sentence.fields)
    case .rmc(let rmc):
        touchValues(rmc)
        if let date = rmc.date {
            require(
                UTCDate(daysSinceEpoch: date.daysSinceEpoch).daysSinceEpoch == date.daysSinceEpoch, "date round trip")
        }
    case .gns(let gns):
        touchValues(gns)
        blackHole(gns.hasFix)
    case .gsa(let gsa):
        touchValues(gsa)
        blackHole(gsa.system?.name)
    case .pgrmz(let pgrmz):
        touchValues(pgrmz)
        blackHole(pgrmz.altitudeMeters)
    case .ths(let ths):
        touchValues(ths)
        blackHole(ths.isValid)
    default:
        touchValues(parsed)
    }
}

/// Walks a value with reflection and reads every number, time and date in it.
func touchValues(_ value: Any) {
    switch value {
    case let number as FixedPoint:
        blackHole(number.description)
        blackHole(number.doubleValue)
        blackHole(number.integerPart)
        blackHole(number.rescaled(to: 0))
        require(number.scale <= 18, "FixedPoint with \(number.scale) decimal places")
    case let snr as SignalToNoise:
        blackHole(snr.description)
        blackHole(snr.value)
        require(snr.hundredths < 10_000, "SNR out of range: \(snr)")
    case let time as UTCTime:
        blackHole(time.description)
        require(
            time.hour < 24 && time.minute < 60 && time.second <= 60 && time.nanoseconds < 1_000_000_000,
            "time out of range: \(time)")
        blackHole(time.secondsSinceMidnight)
        blackHole(time.millisecondsSinceMidnight)
    case let date as UTCDate:
        blackHole(date.description)
        require((1...12).contains(date.month) && (1...31).contains(date.day), "date out of range: \(date)")
        blackHole(date.daysSinceEpoch)
    case let text as ShortText:
        blackHole(text.string)
        require(text.count <= ShortText.capacity, "ShortText too long")
    default:
        blackHole(String(describing: value))
        for child in Mirror(reflecting: value).children { touchValues(child.value) }
    }
}

// MARK: - Helpers

func check(_ lhs: Outcome, equals rhs: Outcome, _ what: String) {
    guard lhs != rhs else { return }
    fail("chunking changed the outcome (\(what)):\n\(lhs)\nvs\n\(rhs)")
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
    fatalError("invariant broken: \(message)")
}

@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return hash
}

func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
}
