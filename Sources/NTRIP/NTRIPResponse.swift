import NMEA

/// What a caster answered a request with, read from the head of its response. Both protocol versions:
///
///     ICY 200 OK\r\n                                   NTRIP 1: the data follow at once
///     SOURCETABLE 200 OK\r\n…headers…\r\n\r\n        NTRIP 1: the sourcetable, up to ENDSOURCETABLE
///     HTTP/1.1 200 OK\r\nContent-Type: gnss/data\r\nTransfer-Encoding: chunked\r\n\r\n        NTRIP 2
///     HTTP/1.1 401 Unauthorized\r\n…                   a login refused (either version)
public enum NTRIPResponse: Sendable, Hashable {
    /// The stream follows; `chunked` for NTRIP 2's chunked transfer encoding.
    case data(chunked: Bool)
    /// The caster's sourcetable follows (asked for, or the answer to a mount that does not exist).
    case sourcetable(chunked: Bool)
    /// Refused: the status code and reason (401 Unauthorized, 404 Not Found…).
    case refused(code: Int, reason: String)

    /// The most a head may take: a caster that sends more without ending it is not one.
    public static let headLimit = 8192

    /// Reads the head at the start of `bytes`: the answer and the bytes it took; `nil` while incomplete.
    /// - Throws: ``NTRIPError`` when the bytes are not an NTRIP or HTTP answer (a web server, a raw stream), or the
    ///   head passes ``headLimit``.
    public static func parse(_ bytes: [UInt8]) throws(NTRIPError) -> (NTRIPResponse, headLength: Int)? {
        guard let firstEnd = lineEnd(in: bytes, from: 0) else {
            if bytes.count > headLimit || (!bytes.isEmpty && !looksLikeStatus(bytes)) {
                throw NTRIPError("the caster's answer is not NTRIP (\(preview(bytes)))")
            }
            return nil
        }
        // The caster's words reach a terminal: its control characters as `?`.
        let statusLine = TextEscaping.replacingControls(String(decoding: bytes[..<firstEnd.start], as: UTF8.self))
        if statusLine == "ICY 200 OK" { return (.data(chunked: false), firstEnd.next) }
        var headers: [(String, String)] = []
        var position = firstEnd.next
        while true {
            guard let end = lineEnd(in: bytes, from: position) else {
                if bytes.count > headLimit { throw NTRIPError("the caster's answer has no end of its head") }
                return nil
            }
            if end.start == position {
                position = end.next
                break
            }
            let line = String(decoding: bytes[position..<end.start], as: UTF8.self)
            if let colon = line.firstIndex(of: ":") {
                headers.append(
                    (line[..<colon].lowercased(), String(line[line.index(after: colon)...].drop { $0 == " " })))
            }
            position = end.next
        }
        return (try answer(statusLine, headers), position)
    }

    private static func answer(_ statusLine: String, _ headers: [(String, String)]) throws(NTRIPError) -> Self {
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let code = Int(parts[1]) else {
            throw NTRIPError("the caster's answer is not NTRIP ('\(statusLine.prefix(60))')")
        }
        let reason = parts.count > 2 ? String(parts[2]) : ""
        func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }
        let chunked = header("transfer-encoding")?.lowercased().contains("chunked") ?? false
        if parts[0] == "SOURCETABLE" { return code == 200 ? .sourcetable(chunked: chunked) : .refused(code, reason) }
        guard parts[0].hasPrefix("HTTP/1.") else {
            throw NTRIPError("the caster's answer is not NTRIP ('\(statusLine.prefix(60))')")
        }
        guard code == 200 else { return .refused(code: code, reason: reason) }
        if header("content-type")?.lowercased().hasPrefix("gnss/sourcetable") == true {
            return .sourcetable(chunked: chunked)
        }
        return .data(chunked: chunked)
    }

    private static func lineEnd(in bytes: [UInt8], from start: Int) -> (start: Int, next: Int)? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                let lineStart = index > start && bytes[index - 1] == 0x0D ? index - 1 : index
                return (lineStart, index + 1)
            }
            index += 1
        }
        return nil
    }

    /// Whether what came so far can still be a status line (printable ASCII).
    private static func looksLikeStatus(_ bytes: [UInt8]) -> Bool {
        bytes.prefix(64).allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x0D }
    }

    private static func preview(_ bytes: [UInt8]) -> String {
        let printable = bytes.prefix(24).allSatisfy { (0x20...0x7E).contains($0) }
        return printable
            ? "'\(String(decoding: bytes.prefix(24), as: UTF8.self))'"
            : "binary, \(bytes.prefix(4).map { String($0, radix: 16) }.joined(separator: " "))…"
    }
}

extension NTRIPResponse {
    fileprivate static func refused(_ code: Int, _ reason: String) -> Self { .refused(code: code, reason: reason) }
}

/// HTTP/1.1's chunked transfer coding taken off a stream, as it arrives: `SIZE(hex)[;ext]\r\n DATA \r\n`…, ending
/// with a chunk of size 0. The data are handed out in place; nothing is copied or kept but the state.
public struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size(value: Int, digits: Int, inExtension: Bool)
        case sizeLineFeed(value: Int)
        case data(left: Int)
        case dataCarriageReturn
        case dataLineFeed
        case trailer(sawCarriageReturn: Bool, lineLength: Int)
        case ended
    }

    private var state = State.size(value: 0, digits: 0, inExtension: false)

    public init() {}

    /// `true` after the last chunk (size 0) and its trailer.
    public var isEnded: Bool {
        if case .ended = state { return true }
        return false
    }

    /// Takes `bytes`, handing each run of data to `body` in order.
    /// - Throws: ``NTRIPError`` on a malformed chunk size or line ending; the stream is then unusable.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void)
        throws(NTRIPError)
    {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .size(let value, let digits, let inExtension):
                if byte == 0x0D {
                    guard digits > 0 else { throw NTRIPError("malformed chunk size") }
                    state = .sizeLineFeed(value: value)
                } else if inExtension || byte == UInt8(ascii: ";") {
                    state = .size(value: value, digits: digits, inExtension: true)
                } else if let digit = Hex.value(of: byte), digits < 8 {
                    state = .size(value: value << 4 | Int(digit), digits: digits + 1, inExtension: false)
                } else {
                    throw NTRIPError("malformed chunk size")
                }
                index += 1
            case .sizeLineFeed(let value):
                guard byte == 0x0A else { throw NTRIPError("malformed chunk size") }
                state = value == 0 ? .trailer(sawCarriageReturn: false, lineLength: 0) : .data(left: value)
                index += 1
            case .data(let left):
                let count = min(left, bytes.count - index)
                body(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
                index += count
                state = left == count ? .dataCarriageReturn : .data(left: left - count)
            case .dataCarriageReturn:
                guard byte == 0x0D else { throw NTRIPError("a chunk is longer than its size") }
                state = .dataLineFeed
                index += 1
            case .dataLineFeed:
                guard byte == 0x0A else { throw NTRIPError("a chunk is longer than its size") }
                state = .size(value: 0, digits: 0, inExtension: false)
                index += 1
            case .trailer(let sawCarriageReturn, let lineLength):
                if byte == 0x0A {
                    state = lineLength == 0 ? .ended : .trailer(sawCarriageReturn: false, lineLength: 0)
                } else if byte == 0x0D {
                    state = .trailer(sawCarriageReturn: true, lineLength: lineLength)
                } else {
                    state = .trailer(sawCarriageReturn: sawCarriageReturn, lineLength: lineLength + 1)
                }
                index += 1
            case .ended:
                return
            }
        }
    }
}
