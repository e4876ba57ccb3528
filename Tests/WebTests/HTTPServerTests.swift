import Glibc
import System
import TestSupport
import Testing

@testable import Web

/// A responder with fixed answers: `/hello`, `/events`, and 404 for the rest.
private struct Fixed: HTTPResponder {
    func respond(to request: HTTPRequest) -> HTTPReply {
        switch request.path {
        case "/hello": .response(HTTPResponse(contentType: "text/plain", body: Array("hello\n".utf8)))
        case "/events": .eventStream(initial: ServerSentEvent(name: "status", data: Array("{}".utf8)).encoded)
        default: .response(.error(.notFound, "no \(request.path)"))
        }
    }
}

@Suite(.serialized) struct HTTPServerTests {
    private func started(_ adjust: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> (HTTPServer, UInt16) {
        var configuration = HTTPServer.Configuration(listen: ListenAddress(host: "127.0.0.1", port: 0))
        adjust(&configuration)
        let server = HTTPServer(responder: Fixed(), configuration: configuration)
        try server.start()
        return (server, server.boundAddress!.port)
    }

    @Test func aResponseByteForByte() throws {
        let (server, port) = try started()
        defer { server.stop() }
        let text = try RawHTTP.exchange(port: port, "GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(
            text == """
                HTTP/1.1 200 OK
                Content-Type: text/plain
                Content-Length: 6
                Cache-Control: no-store
                X-Content-Type-Options: nosniff
                Connection: close

                hello

                """)
    }

    @Test func headHasTheHeadersAndNoBody() throws {
        let (server, port) = try started()
        defer { server.stop() }
        let response = try RawHTTP.get(port: port, "/hello", method: "HEAD")
        #expect(response.status == 200)
        #expect(response.header("Content-Length") == "6")
        #expect(response.body == "")
    }

    @Test func keepAliveAnswersPipelinedRequestsInOrder() throws {
        let (server, port) = try started()
        defer { server.stop() }
        let text = try RawHTTP.exchange(
            port: port,
            "GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /nothing HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /hello HTTP/1.1\r\nConnection: close\r\n\r\n")
        let statusLines = text.split(separator: "\n").filter { $0.hasPrefix("HTTP/1.1 ") }
        #expect(statusLines == ["HTTP/1.1 200 OK", "HTTP/1.1 404 Not Found", "HTTP/1.1 200 OK"])
        #expect(waitUntil(timeout: .seconds(5)) { server.statistics.requests == 3 })
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", "400 Bad Request"),
        ("GET /hello HTTP/2.0\r\n\r\n", "505 HTTP Version Not Supported"),
        ("GET http://example.org/ HTTP/1.1\r\n\r\n", "400 Bad Request"),
        ("GET /%zz HTTP/1.1\r\n\r\n", "400 Bad Request"),
        ("GET /hello HTTP/1.1\r\nno colon here\r\n\r\n", "400 Bad Request"),
        ("GET /h\u{01}llo HTTP/1.1\r\n\r\n", "400 Bad Request"),
        ("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n\r\n", "400 Bad Request"),
    ])
    func badRequestsAreAnsweredAndClosed(request: String, expected: String) throws {
        let (server, port) = try started()
        defer { server.stop() }
        let response = RawHTTP.parse(try RawHTTP.exchange(port: port, request))
        #expect(response.statusLine == "HTTP/1.1 " + expected)
        #expect(response.header("Connection") == "close")
        #expect(waitUntil(timeout: .seconds(5)) { server.statistics.badRequests == 1 })
    }

    @Test func anOverlongHeadGets431() throws {
        let (server, port) = try started()
        defer { server.stop() }
        let filler = String(repeating: "X-Filler: " + String(repeating: "a", count: 100) + "\r\n", count: 100)
        let response = RawHTTP.parse(try RawHTTP.exchange(port: port, "GET /hello HTTP/1.1\r\n" + filler + "\r\n"))
        #expect(response.status == 431)
    }

    @Test func aSlowClientIsCutAfterTheTimeout() throws {
        let (server, port) = try started { $0.requestTimeout = .milliseconds(300) }
        defer { server.stop() }
        let client = try LineClient(port: port)
        client.send("GET /hello HTTP/1.1\r\nHost: ")
        let start = MonotonicTime.now()
        #expect(client.readUntilClosed(timeout: .seconds(5)))
        #expect(MonotonicTime.now() - start < .seconds(3))
        #expect(client.lines.first == "HTTP/1.1 408 Request Timeout")
        #expect(waitUntil(timeout: .seconds(5)) { server.statistics.timedOut == 1 })
        // One that never speaks is closed too, without an answer.
        let silent = try LineClient(port: port)
        #expect(silent.readUntilClosed(timeout: .seconds(5)))
        #expect(silent.lines.isEmpty)
    }

    @Test func theConnectionAfterTheLimitGets503() throws {
        let (server, port) = try started { $0.maxConnections = 2 }
        defer { server.stop() }
        let first = try LineClient(port: port)
        let second = try LineClient(port: port)
        #expect(waitUntil(timeout: .seconds(5)) { server.statistics.connections == 2 })
        let third = try LineClient(port: port)
        #expect(third.readUntilClosed(timeout: .seconds(5)))
        #expect(third.lines.first == "HTTP/1.1 503 Service Unavailable")
        #expect(third.lines.contains("Retry-After: 5"))
        #expect(waitUntil(timeout: .seconds(5)) { server.statistics.refused == 1 })
        // The two still get answers.
        for client in [first, second] {
            client.send("GET /hello HTTP/1.1\r\nConnection: close\r\n\r\n")
            #expect(client.readUntilClosed())
            #expect(client.lines.first == "HTTP/1.1 200 OK")
        }
    }

    @Test func aPostWithABodyIsNeverReadAsTheNextRequest() throws {
        let (server, port) = try started()
        defer { server.stop() }
        let text = try RawHTTP.exchange(
            port: port, "GET /hello HTTP/1.1\r\nContent-Length: 27\r\n\r\nGET /hello HTTP/1.1\r\n\r\n")
        let statusLines = text.split(separator: "\n").filter { $0.hasPrefix("HTTP/1.1 ") }
        #expect(statusLines.count == 1)
    }

    @Test func anEventStreamGetsItsInitialEventsThenEachPublishedOne() throws {
        let (server, port) = try started()
        defer { server.stop() }
        let client = try LineClient(port: port)
        client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read(until: { $0.contains("data: {}") }))
        #expect(client.lines.starts(with: ["HTTP/1.1 200 OK", "Content-Type: text/event-stream"]))
        #expect(waitUntil(timeout: .seconds(5)) { server.statistics.streaming == 1 })
        for index in 1...3 { server.publish(ServerSentEvent(name: "position", data: Array("{\"n\":\(index)}".utf8))) }
        #expect(client.read(until: { $0.contains("data: {\"n\":3}") }))
        let data = client.lines.filter { $0.hasPrefix("data: {\"n\"") }
        // Published faster than the socket thread takes them, events of one name may merge into the newest.
        #expect(data.last == "data: {\"n\":3}")
        #expect(client.lines.contains("event: position"))
    }

    @Test func aStreamClientThatFallsBehindGetsTheLatestNotABacklog() throws {
        let (server, port) = try started { $0.socketSendBufferSize = 16 * 1024 }
        defer { server.stop() }
        let client = try LineClient(port: port, receiveBuffer: 16 * 1024)
        client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.read(until: { $0.contains("data: {}") }))
        #expect(waitUntil(timeout: .seconds(5)) { server.statistics.streaming == 1 })
        // 400 events of 8 KiB (3.2 MB) while the client reads nothing: far more than the socket buffers hold.
        let padding = String(repeating: "x", count: 8 * 1024)
        for index in 1...400 {
            server.publish(ServerSentEvent(name: "position", data: Array("{\"n\":\(index),\"p\":\"\(padding)\"}".utf8)))
            // Bursts of 50, 20 ms apart, taken by the server in several batches.
            if index % 50 == 0 { usleep(20_000) }  // pacing under test
        }
        #expect(client.read(until: { $0.contains { $0.hasPrefix("data: {\"n\":400,") } }, timeout: .seconds(10)))
        let received = client.lines.filter { $0.hasPrefix("data: {\"n\"") }
        #expect(received.count < 100)
        #expect(waitUntil(timeout: .seconds(5)) { server.statistics.eventsReplaced > 0 })
    }
}
