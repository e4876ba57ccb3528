/// The status codes the page's server answers with.
public struct HTTPStatus: Sendable, Hashable {
    public var code: Int
    public var reason: String

    public static let ok = HTTPStatus(code: 200, reason: "OK")
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    public static let httpVersionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")
}

/// A complete response: status, the few headers this server sends, and a body.
public struct HTTPResponse: Sendable, Hashable {
    public var status: HTTPStatus
    /// `Content-Type`.
    public var contentType: String
    public var body: [UInt8]
    /// Extra header lines, without their CR LF (`Allow: GET, HEAD`).
    public var headers: [String]

    public init(status: HTTPStatus = .ok, contentType: String, body: [UInt8], headers: [String] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// A JSON document.
    public static func json(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(contentType: "application/json", body: body)
    }

    /// An error: `status` with a one-line plain-text body saying why.
    public static func error(_ status: HTTPStatus, _ message: String, headers: [String] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "text/plain; charset=utf-8", body: Array("\(message)\n".utf8),
            headers: headers)
    }

    /// The bytes on the wire: status line, headers, blank line, and the body unless `head` (a HEAD request gets the
    /// same headers, `Content-Length` included, and no body).
    ///
    /// Every response says `Cache-Control: no-store` (the data is live), `X-Content-Type-Options: nosniff`, and no
    /// `Access-Control-Allow-Origin`: other origins' pages cannot read it.
    public func encoded(keepAlive: Bool, head: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        text += "Content-Type: \(contentType)\r\n"
        text += "Content-Length: \(body.count)\r\n"
        text += "Cache-Control: no-store\r\n"
        text += "X-Content-Type-Options: nosniff\r\n"
        for header in headers { text += header + "\r\n" }
        text += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        if !head { bytes += body }
        return bytes
    }
}

extension HTTPRequest {
    /// The answer every read-only route set gives before its own: 404 for a path not in `paths` (saying where the
    /// page and the API are), 405 with `Allow: GET, HEAD` for another method; `nil` when the routes answer.
    public func refusal(servingOnly paths: Set<String>) -> HTTPResponse? {
        guard paths.contains(path) else {
            return .error(.notFound, "Not found: \(path). The page is at /; the API under /api/")
        }
        guard method == "GET" || isHead else {
            return .error(
                .methodNotAllowed, "\(method) is not allowed: this server is read-only", headers: ["Allow: GET, HEAD"])
        }
        return nil
    }
}

/// What a responder answers a request with.
public enum HTTPReply: Sendable {
    /// One response; the connection then stays open when both sides keep it alive.
    case response(HTTPResponse)
    /// A Server-Sent Events stream (`text/event-stream`): `initial` (events already encoded, such as the current
    /// state) first, then every event the server publishes, until the client leaves.
    case eventStream(initial: [UInt8])
}

/// Answers requests, on the server's socket thread: quickly, without blocking (reads of shared state only).
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) -> HTTPReply
}

/// One Server-Sent Event, encoded once for every client.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's name (`position`, `status`, `trip`): a client that falls behind gets the latest of each name.
    public var name: String
    /// `event: NAME\ndata: …\n\n`.
    public var encoded: [UInt8]

    /// An event whose data is `data` (one line: JSON has no raw newlines).
    public init(name: String, data: [UInt8]) {
        self.name = name
        var bytes = Array("event: \(name)\ndata: ".utf8)
        bytes.reserveCapacity(bytes.count + data.count + 2)
        for byte in data where byte != 0x0A && byte != 0x0D { bytes.append(byte) }
        bytes += [0x0A, 0x0A]
        encoded = bytes
    }
}
