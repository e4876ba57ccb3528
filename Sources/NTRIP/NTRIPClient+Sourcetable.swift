import Pipeline
import System
import Threading

extension NTRIPClient {
    /// The caster's sourcetable (`nmea ntrip sources`): one request for `/`, read to `ENDSOURCETABLE` or the end of
    /// the connection, within `timeout`.
    /// - Throws: ``NTRIPError`` when the caster cannot be reached, refuses, answers with a stream, or is too slow.
    public static func sourcetable(_ options: Options, timeout: Duration = .seconds(10)) throws(NTRIPError)
        -> Sourcetable
    {
        var tcp = TCPByteSource.Options()
        tcp.reconnects = false
        tcp.name = "ntrip://\(options.address.host):\(options.address.port)"
        tcp.greeting = request(options, mount: nil)
        let failure = Locked<String?>(nil)
        let source = TCPByteSource(options.address.tcp, options: tcp, failure: failure)
        var received: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 1)
        defer { buffer.deallocate() }
        let deadline = MonotonicTime.now() + timeout
        reading: while MonotonicTime.now() < deadline {
            switch source.read(into: buffer, timeout: .milliseconds(200)) {
            case .bytes(let count):
                received += buffer[..<count]
                guard received.count <= 8 << 20 else { throw NTRIPError("the sourcetable is larger than 8 MiB") }
                if let table = try complete(received), table.isComplete { return table }
            case .status(let status):
                if let message = failure.withLock({ $0 }) { throw NTRIPError(message) }
                if status.state == .disconnected { break reading }
            case .timedOut:
                break
            case .end:
                break reading
            }
        }
        if let message = failure.withLock({ $0 }) { throw NTRIPError(message) }
        guard let table = try complete(received) else {
            throw NTRIPError("the caster did not answer within \(timeout)")
        }
        return table
    }

    /// The table in `received` so far: `nil` until the head is whole.
    private static func complete(_ received: [UInt8]) throws(NTRIPError) -> Sourcetable? {
        guard let (response, length) = try NTRIPResponse.parse(received) else { return nil }
        switch response {
        case .sourcetable(let chunked):
            var body: [UInt8] = []
            if chunked {
                var decoder = ChunkedDecoder()
                let result = Array(received[length...]).withUnsafeBytes { bytes in
                    Result { () throws(NTRIPError) in try decoder.feed(bytes) { body += $0 } }
                }
                try result.get()
            } else {
                body = Array(received[length...])
            }
            return Sourcetable(parsing: String(decoding: body, as: UTF8.self))
        case .data:
            throw NTRIPError("the caster answered with a stream, not its sourcetable")
        case .refused(let code, let reason):
            throw NTRIPError("the caster refused its sourcetable (\(code) \(reason))")
        }
    }
}
