import NTRIP

/// The `ntrip` target: what a caster may answer. The input is read as a response head (NTRIP 1, NTRIP 2, a refusal
/// or anything else), then what follows it as a chunked body, whole and cut every 5 bytes (the same data, or a
/// failure in both), and the whole input as a sourcetable.
func fuzzNTRIP(_ input: UnsafeRawBufferPointer) {
    let bytes = Array(input)
    _ = Sourcetable(parsing: String(decoding: bytes, as: UTF8.self))
    guard let (_, length) = try? NTRIPResponse.parse(bytes) else { return }
    require(length <= bytes.count, "ntrip: the head is longer than the input")
    let body = Array(bytes[length...])
    let whole = dechunk(body, cut: body.count)
    let pieces = dechunk(body, cut: 5)
    require(whole.data == pieces.data && whole.failed == pieces.failed, "ntrip: chunks differ when cut")
}

private func dechunk(_ body: [UInt8], cut: Int) -> (data: [UInt8], failed: Bool) {
    var decoder = ChunkedDecoder()
    var data: [UInt8] = []
    for start in stride(from: 0, to: body.count, by: max(cut, 1)) {
        let failed = body[start..<min(body.count, start + max(cut, 1))].withUnsafeBytes { piece in
            do throws(NTRIPError) {
                try decoder.feed(piece) { data += $0 }
                return false
            } catch {
                return true
            }
        }
        if failed { return (data, true) }
    }
    return (data, false)
}
