/// The status codes the project's HTTP servers answer with.
public struct HTTPStatus: Sendable, Hashable {
    public var code: Int
    public var reason: String

    public static let ok = HTTPStatus(code: 200, reason: "OK")
    public static let accepted = HTTPStatus(code: 202, reason: "Accepted")
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    public static let unauthorized = HTTPStatus(code: 401, reason: "Unauthorized")
    public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    public static let lengthRequired = HTTPStatus(code: 411, reason: "Length Required")
    public static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    public static let unsupportedMediaType = HTTPStatus(code: 415, reason: "Unsupported Media Type")
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
    /// Every response says `Cache-Control: no-store` (the data is live) unless its ``headers`` give a
    /// `Cache-Control` of their own (what does not change: a script, map tiles), `X-Content-Type-Options: nosniff`,
    /// and no `Access-Control-Allow-Origin`: other origins' pages cannot read it.
    public func encoded(keepAlive: Bool, head: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        text += "Content-Type: \(contentType)\r\n"
        text += "Content-Length: \(body.count)\r\n"
        if !headers.contains(where: { $0.hasPrefix("Cache-Control:") }) { text += "Cache-Control: no-store\r\n" }
        text += "X-Content-Type-Options: nosniff\r\n"
        for header in headers { text += header + "\r\n" }
        text += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        if !head { bytes += body }
        return bytes
    }
}
