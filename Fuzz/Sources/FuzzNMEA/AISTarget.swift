import AIS
import JSON
import NMEA

/// The `ais` target: each input line becomes the fields of an `!AIVDM` sentence with a valid checksum (so the fuzzer
/// reaches payloads, fragment numbers and fill bits without finding checksums), framed and handed to one
/// `AISDecoder`; a line that begins with `\TEXT\` gets TEXT as a TAG block with a valid checksum before its sentence
/// (`\g:1-2-501\2,1,3,A,…` reaches the assembly by TAG group). Every message it hands out is read field by field and written as JSON both ways, and the JSON must
/// read back. The same lines fed again to a fresh decoder, whole and one sentence at a time, give the same messages
/// and counts: assembly depends on nothing but the sentences; and so do they split over decoders as `parse --jobs`
/// splits them.
func fuzzAIS(_ input: UnsafeRawBufferPointer) {
    var stream: [UInt8] = []
    let backslash = UInt8(ascii: "\\")
    for whole in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        var line = whole[...]
        if line.first == backslash, let close = line.dropFirst().firstIndex(of: backslash) {
            let tag = line[line.index(after: line.startIndex)..<close].filter {
                $0 != UInt8(ascii: "*") && $0 != backslash && $0 >= 0x20 && $0 < 0x7F
            }
            stream.append(backslash)
            stream += tag
            NMEAChecksum.write(NMEAChecksum.of(tag)) { stream.append($0) }
            stream.append(backslash)
            line = line[line.index(after: close)...]
        }
        let body = Array("AIVDM,".utf8) + line.filter { $0 != UInt8(ascii: "*") && $0 != 13 && $0 != 10 && $0 != 0 }
        stream.append(UInt8(ascii: "!"))
        stream += body
        NMEAChecksum.write(NMEAChecksum.of(body)) { stream.append($0) }
        stream += [13, 10]
    }
    let whole = decodeAIS(stream, cuts: [])
    let pieces = decodeAIS(stream, cuts: Array(stride(from: 1, to: stream.count, by: 7)))
    require(whole.texts == pieces.texts, "ais: messages differ when the stream is fed in pieces")
    require(whole.counts == pieces.counts, "ais: counts differ when the stream is fed in pieces")
    // Split as `parse --jobs` splits it: a decoder per three sentences adds those whose messages stand alone, and one
    // decoder adds the others in order (`addUnlessOrdered`): the same messages, in the same order, and counts.
    let split = decodeAISSplit(stream, sentencesPerPiece: 3)
    require(whole.texts == split.texts, "ais: messages differ when the stream is split over decoders")
    require(whole.counts == split.counts, "ais: counts differ when the stream is split over decoders")
}

private func decodeAISSplit(_ stream: [UInt8], sentencesPerPiece: Int) -> (
    texts: [[UInt8]], counts: AISDecoder.Counts
) {
    var framer = Framer(maximumLength: 1024, checksumPolicy: .required)
    var ordered = AISDecoder()
    var piece = AISDecoder()
    var inPiece = 0
    var texts: [[UInt8]] = []
    func write(_ message: borrowing AISMessage) {
        for scaled in [false, true] {
            var json = JSONWriter()
            json.writeAIS(message, scaled: scaled)
            texts.append(json.bytes)
        }
    }
    stream.withUnsafeBytes { buffer in
        framer.feed(buffer) { event in
            guard case .sentence(let sentence) = event else { return }
            if inPiece == sentencesPerPiece {
                ordered.addCounts(of: piece)
                piece = AISDecoder()
                inPiece = 0
            }
            inPiece += 1
            guard let fragment = try? piece.addUnlessOrdered(sentence, write) else { return }
            try? ordered.add(fragment, write)
        }
    }
    ordered.addCounts(of: piece)
    return (texts, ordered.counts)
}

private func decodeAIS(_ stream: [UInt8], cuts: [Int]) -> (texts: [[UInt8]], counts: AISDecoder.Counts) {
    var framer = Framer(maximumLength: 1024, checksumPolicy: .required)
    var decoder = AISDecoder()
    var texts: [[UInt8]] = []
    stream.withUnsafeBytes { buffer in
        var offset = 0
        for end in cuts + [buffer.count] where end > offset {
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[offset..<end])) { event in
                guard case .sentence(let sentence) = event, let message = try? decoder.add(sentence) else { return }
                require(message.payload.bitCount <= AISPayload.capacity, "ais: a payload past its capacity")
                for scaled in [false, true] {
                    var json = JSONWriter()
                    json.writeAIS(message, scaled: scaled)
                    do {
                        _ = try JSONValue(parsing: json.bytes, maximumDepth: 8)
                    } catch {
                        fail("ais: its JSON does not read (\(error)): \(json.string)")
                    }
                    texts.append(json.bytes)
                }
                blackHole(message.position.map { $0.latitude + $0.longitude } ?? 0)
                // The typed report reads the table's fields: its position is the one the table gives.
                let report = message.report
                switch report {
                case .position(let r): requireSamePosition(r.latitude, r.longitude, message)
                case .classBPosition(let r): requireSamePosition(r.latitude, r.longitude, message)
                case .extendedClassB(let r): requireSamePosition(r.latitude, r.longitude, message)
                case .longRange(let r): requireSamePosition(r.latitude, r.longitude, message)
                default: blackHole(String(describing: report).count)
                }
                blackHole(message.shipName ?? "")
            }
            offset = end
        }
    }
    return (texts, decoder.counts)
}

/// A typed report's position is what the table's fields give, read by name (``AISMessage/value(named:)``; the
/// accessor ``AISMessage/position`` reads the report itself).
private func requireSamePosition(_ latitude: Double?, _ longitude: Double?, _ message: AISMessage) {
    func degrees(_ name: StaticString) -> Double? {
        switch message.value(named: name) {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
    let same = latitude == degrees("lat") && longitude == degrees("lon")
    require(same, "ais: the typed report's position differs from the table's")
}
