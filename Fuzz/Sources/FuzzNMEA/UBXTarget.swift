import JSON
import NMEA
import UBX

/// The `ubx` target: the input becomes UBX frames with valid checksums (so the fuzzer reaches every decoder's payload
/// without finding Fletcher sums): each record is a message selector byte (one of the decoded types, or its own
/// class and ID when the top bit is set), a length byte and that many payload bytes. The frames are read into fixes
/// through the one stream, whole and cut every 5 bytes, with the same fixes and counters; every frame is written as
/// JSON, which must read back; the configuration answers (CFG-VALGET, MON-VER, ACK) are read as `nmea config` reads
/// them.
func fuzzUBX(_ input: UnsafeRawBufferPointer) {
    let known: [UBXMessageID] = [
        .navPVT, .navPOSLLH, .navHPPOSLLH, .navSOL, .navPOSECEF, .navVELECEF, .navVELNED, .navDOP, .navSTATUS,
        .navTIMEGPS, .navTIMEUTC, .navSAT, .navSVINFO, .navEOE, .hnrPVT, .logBATCH, .logRETRIEVEPOS, .timTP, .monVER,
        .ackACK, .ackNAK, .cfgVALGET,
    ]
    var stream: [UInt8] = []
    fuzzRecords(input) { selector, payload in
        var id = known[Int(selector) % known.count]
        if selector & 0x80 != 0, payload.count >= 2 { id = UBXMessageID(payload[0], payload[1]) }
        stream += UBXFrameBuilder.frame(id, payload: payload)
    }
    let whole = readUBX(stream, cut: nil)
    let pieces = readUBX(stream, cut: 5)
    require(whole.fixes == pieces.fixes, "ubx: fixes differ when the stream is fed in pieces")
    require(whole.statistics == pieces.statistics, "ubx: counters differ when the stream is fed in pieces")
}

private struct UBXReading {
    var fixes: [String] = []
    var statistics = FixReader.Statistics()
}

private struct UBXChecks: FixReader.Handler {
    mutating func binaryFrame(_ frame: BinaryFrame, _ context: FixReader.Context) {
        guard let ubx = UBXFrame(frame) else { return }
        var json = JSONWriter()
        json.writeUBX(ubx)
        do {
            _ = try JSONValue(parsing: json.bytes, maximumDepth: 8)
        } catch {
            fail("ubx: its JSON does not read (\(error)): \(json.string)")
        }
        if let answer = CFGVALGET(ubx.payload), ubx.id == .cfgVALGET {
            answer.forEachValue { key, value in blackHole(Int(key) &+ Int(truncatingIfNeeded: value)) }
        }
        if ubx.id == .monVER, let version = MONVER(ubx.payload) {
            blackHole(version.protocolVersion ?? 0)
            blackHole(version.extensions.count)
        }
    }
}

private func readUBX(_ stream: [UInt8], cut: Int?) -> UBXReading {
    var reader = FixReader(options: FixReader.Options(frameDecoder: UBXEpochs.report))
    var reading = UBXReading()
    var checks = UBXChecks()
    let record: (Fix) -> Void = { fix in
        reading.fixes.append(
            "\(fix.date.map { "\($0.daysSinceEpoch)" } ?? "-") \(fix.time?.nanosecondsSinceMidnight ?? -1) "
                + "\(fix.latitude ?? .nan) \(fix.longitude ?? .nan) \(fix.mode)")
        if let latitude = fix.latitude { require(abs(latitude) <= 90.000_001, "ubx: latitude \(latitude)") }
    }
    stream.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let end = cut.map { min(buffer.count, offset + $0) } ?? buffer.count
            reader.read(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]), handler: &checks, record)
            offset = end
        }
    }
    reader.finish(handler: &checks, record)
    reading.statistics = reader.statistics
    return reading
}
