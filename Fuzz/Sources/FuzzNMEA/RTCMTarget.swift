import JSON
import NMEA
import RTCM

/// The `rtcm` target: the input becomes RTCM 3 frames with valid CRCs (so the fuzzer reaches every decoder without
/// finding CRC-24Q): each record is a selector byte (one of the decoded message numbers, or the payload's own when
/// its top bit is set), a length byte and that many payload bytes, whose first 12 bits are the number. The frames
/// are framed whole and cut every 3 bytes, with the same messages; each message is written as JSON, which must read
/// back.
func fuzzRTCM(_ input: UnsafeRawBufferPointer) {
    let numbers = [
        1001, 1004, 1005, 1006, 1007, 1008, 1009, 1012, 1029, 1033, 1074, 1077, 1087, 1097, 1107, 1117, 1127, 1137,
        1230,
    ]
    var stream: [UInt8] = []
    fuzzRecords(input) { selector, record in
        var payload = record
        if selector & 0x80 == 0 {
            let number = numbers[Int(selector) % numbers.count]
            while payload.count < 2 { payload.append(0) }
            payload[0] = UInt8(number >> 4)
            payload[1] = UInt8(number & 0x0F) << 4 | payload[1] & 0x0F
        }
        stream += CRC24Q.rtcm3Frame(payload)
    }
    let whole = writeRTCM(stream, cut: nil)
    let pieces = writeRTCM(stream, cut: 3)
    require(whole == pieces, "rtcm: messages differ when the stream is fed in pieces")
}

private func writeRTCM(_ stream: [UInt8], cut: Int?) -> [[UInt8]] {
    var framer = Framer()
    var texts: [[UInt8]] = []
    stream.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let end = cut.map { min(buffer.count, offset + $0) } ?? buffer.count
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[offset..<end])) { event in
                guard case .binaryFrame(let frame) = event, let rtcm = RTCMFrame(frame) else { return }
                var json = JSONWriter()
                json.writeRTCM3(rtcm)
                do {
                    _ = try JSONValue(parsing: json.bytes, maximumDepth: 8)
                } catch {
                    fail("rtcm: its JSON does not read (\(error)): \(json.string)")
                }
                texts.append(json.bytes)
            }
            offset = end
        }
    }
    framer.finish { _ in }
    return texts
}

/// CRC-24Q (RTCM 10403), a bit at a time.
