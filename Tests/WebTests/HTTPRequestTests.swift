import System
import Testing

@testable import Web

@Suite struct HTTPRequestTests {
    private func parse(_ text: String, limit: Int = 8192) -> HTTPRequestParse {
        Array(text.utf8).withUnsafeBytes { HTTPRequest.parse($0, limit: limit) }
    }

    @Test func aGetWithAQuery() {
        let head = "GET /api/track?since=2026-11-30T09%3A00%3A00Z&x=a+b HTTP/1.1\r\nHost: pi:8080\r\n\r\n"
        guard case .request(let request, let consumed) = parse(head + "GET / HTTP/1.1\r\n") else {
            Issue.record("not a request")
            return
        }
        #expect(consumed == head.utf8.count)
        #expect(request.method == "GET")
        #expect(request.path == "/api/track")
        #expect(request.queryValue("since") == "2026-11-30T09:00:00Z")
        #expect(request.queryValue("x") == "a b")
        #expect(request.minorVersion == 1)
        #expect(request.keepsAlive)
        #expect(!request.hasBody)
    }
}
