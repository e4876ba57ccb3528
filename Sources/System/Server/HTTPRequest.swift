/// One HTTP/1.x request head, as the project's HTTP servers read it (the page's, the collector's): method, path,
/// query, version and the headers they use.
///
///     GET /api/track?since=2026-11-30T09:00:00Z HTTP/1.1\r\n
///     Host: raspberrypi.local:8080\r\n
///     \r\n
///
/// The page's server is read-only and takes no request bodies: a request that announces one (`Content-Length` above
/// 0, or `Transfer-Encoding`) is answered and its connection closed, so that the body is never read as the next
/// request. The collector reads a body of ``contentLength`` bytes after the head.
public struct HTTPRequest: Sendable, Hashable {
    /// The method, as sent (`GET`, `HEAD`, …).
    public var method: String
    /// The path, percent-decoded, without the query (`/api/track`).
    public var path: String
    /// The query's `name=value` pairs, percent-decoded, in order.
    public var query: [QueryItem]
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    /// The connection stays open after the response (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with
    /// `Connection: keep-alive`).
    public var keepsAlive: Bool
    /// The request announced a body.
    public var hasBody: Bool
    /// `Content-Length` (0 when absent).
    public var contentLength = 0
    /// The body is sent in chunks (`Transfer-Encoding`), its length unknown from the head.
    public var isChunked = false
    /// `Content-Type`, as sent.
    public var contentType: String?
    /// `Authorization`, as sent.
    public var authorization: String?
    /// The `X-…` and `Ntrip-…` headers, by lowercased name (the last of a name).
    public var extensionHeaders: [String: String] = [:]

    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The first value of query parameter `name`.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// `true` for `HEAD`: the response is sent without its body.
    public var isHead: Bool { method == "HEAD" }
}

/// What reading a request head from the bytes received so far gave.
public enum HTTPRequestParse: Sendable, Hashable {
    /// The head is not complete yet (and within the limit): read more.
    case incomplete
    /// A request, whose head took the first `consumed` bytes.
    case request(HTTPRequest, consumed: Int)
    /// Not a request this server can answer: reply with `status` (and the reason, for the body) and close.
    case invalid(HTTPStatus, reason: String)
}

extension HTTPRequest {
    /// Reads a request head from the start of `bytes`, which hold at most `limit` bytes of it.
    ///
    /// Lines end in CR LF (a bare LF is accepted, as RFC 9112 allows). Leading empty lines are skipped. The request
    /// line is `METHOD SP TARGET SP HTTP/1.x`, the target in origin form (`/path?query`); header lines are
    /// `name: value`, names checked for token characters. Everything outside printable ASCII in the request line is
    /// refused (400).
    /// - Complexity: O(*n*) in the head's length.
    public static func parse(_ bytes: UnsafeRawBufferPointer, limit: Int) -> HTTPRequestParse {
        var start = 0
        while start + 1 < bytes.count, bytes[start] == 0x0D || bytes[start] == 0x0A { start += 1 }
        guard let end = headEnd(bytes, from: start) else {
            if bytes.count >= limit {
                return .invalid(.requestHeaderFieldsTooLarge, reason: "the request head passes \(limit) bytes")
            }
            return .incomplete
        }
        if end.headLength > limit {
            return .invalid(.requestHeaderFieldsTooLarge, reason: "the request head passes \(limit) bytes")
        }
        var lines = LineIterator(bytes: bytes, position: start, end: end.bodyStart)
        guard let requestLine = lines.next() else { return .invalid(.badRequest, reason: "no request line") }
        var request: HTTPRequest
        switch parseRequestLine(UnsafeRawBufferPointer(rebasing: bytes[requestLine])) {
        case .success(let parsed): request = parsed
        case .failure(let failure): return .invalid(failure.status, reason: failure.reason)
        }
        var connection: String?
        while let line = lines.next() {
            if line.isEmpty { break }
            guard let header = parseHeader(UnsafeRawBufferPointer(rebasing: bytes[line])) else {
                return .invalid(.badRequest, reason: "a malformed header line")
            }
            switch header.name {
            case "connection": connection = header.value.lowercased()
            case "content-length":
                guard let length = Int(header.value), length >= 0 else {
                    return .invalid(.badRequest, reason: "a malformed Content-Length")
                }
                if length > 0 { request.hasBody = true }
                request.contentLength = length
            case "transfer-encoding":
                request.hasBody = true
                request.isChunked = true
            case "content-type": request.contentType = header.value
            case "authorization": request.authorization = header.value
            default:
                if header.name.hasPrefix("x-") || header.name.hasPrefix("ntrip-") {
                    request.extensionHeaders[header.name] = header.value
                }
            }
        }
        let tokens = connection?.split(separator: ",").map { $0.trimmingSpaces } ?? []
        request.keepsAlive =
            request.minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
        return .request(request, consumed: end.bodyStart)
    }

    private struct Failure: Error {
        var status: HTTPStatus
        var reason: String
    }

    /// Where the head ends: its length without the blank line, and where what follows it starts.
    private static func headEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (headLength: Int, bodyStart: Int)?
    {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                // LF LF, or LF CR LF.
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return (index - start, index + 2) }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A {
                    return (index - start, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    private static func parseRequestLine(_ line: UnsafeRawBufferPointer) -> Result<HTTPRequest, Failure> {
        for byte in line where byte < 0x21 && byte != 0x20 || byte > 0x7E {
            return .failure(Failure(status: .badRequest, reason: "a request line outside printable ASCII"))
        }
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .failure(Failure(status: .badRequest, reason: "expected METHOD TARGET HTTP/1.1"))
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        guard method.utf8.allSatisfy({ isTokenCharacter($0) }) else {
            return .failure(Failure(status: .badRequest, reason: "a malformed method"))
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            guard version.hasPrefix("HTTP/") else {
                return .failure(Failure(status: .badRequest, reason: "expected METHOD TARGET HTTP/1.1"))
            }
            return .failure(Failure(status: .httpVersionNotSupported, reason: "only HTTP/1.0 and 1.1 are spoken"))
        }
        let target = Array(parts[1])
        guard target.first == UInt8(ascii: "/") else {
            return .failure(Failure(status: .badRequest, reason: "the target must be a path starting with /"))
        }
        let questionMark = target.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = target[..<(questionMark ?? target.endIndex)]
        guard let path = percentDecoded(rawPath, plusIsSpace: false) else {
            return .failure(Failure(status: .badRequest, reason: "a malformed percent-encoding in the path"))
        }
        var query: [HTTPRequest.QueryItem] = []
        if let questionMark {
            for pair in target[(questionMark + 1)...].split(separator: UInt8(ascii: "&")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "="))
                guard let name = percentDecoded(pair[..<(equals ?? pair.endIndex)], plusIsSpace: true),
                    let value = percentDecoded(equals.map { pair[($0 + 1)...] } ?? [], plusIsSpace: true)
                else {
                    return .failure(Failure(status: .badRequest, reason: "a malformed percent-encoding in the query"))
                }
                query.append(HTTPRequest.QueryItem(name: name, value: value))
            }
        }
        return .success(
            HTTPRequest(
                method: method, path: path, query: query, minorVersion: minor, keepsAlive: minor >= 1,
                hasBody: false))
    }

    /// `name: value` with the name lowercased and the value's surrounding spaces and tabs removed.
    private static func parseHeader(_ line: UnsafeRawBufferPointer) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let name = line[..<colon]
        guard name.allSatisfy({ isTokenCharacter($0) }) else { return nil }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 >= 0x20 || $0 == 0x09 }), !value.contains(0x7F) else { return nil }
        return (String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
    }

    /// RFC 9110's `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// `%XX` decoded (and `+` as a space in a query); `nil` for a malformed escape or a result that is not UTF-8.
    public static func percentDecoded(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue)
                else { return nil }
                decoded.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace: decoded.append(0x20)
            default: decoded.append(byte)
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The lines of a request head: ranges without their CR LF (or LF).
private struct LineIterator {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    let end: Int

    mutating func next() -> Range<Int>? {
        guard position < end else { return nil }
        var index = position
        while index < end, bytes[index] != 0x0A { index += 1 }
        var lineEnd = index
        if lineEnd > position, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        defer { position = index + 1 }
        return position..<lineEnd
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
