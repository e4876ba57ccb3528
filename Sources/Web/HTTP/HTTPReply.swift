import System

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
