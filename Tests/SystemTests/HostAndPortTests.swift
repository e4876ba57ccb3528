import Glibc
import System
import Testing

@Suite struct HostAndPortTests {
    @Test func hostsAndPortsAsPeopleWriteThem() {
        let cases: [(String, HostAndPort?)] = [
            ("gps.local:2947", HostAndPort(host: "gps.local", port: 2947)),
            ("[::1]:10110", HostAndPort(host: "::1", port: 10110)),
            ("[::1]", HostAndPort(host: "::1", port: nil)),
            ("::1", HostAndPort(host: "::1", port: nil)),
            ("10110", HostAndPort(host: nil, port: 10110)),
            (":10110", HostAndPort(host: nil, port: 10110)),
            ("gps.local", HostAndPort(host: "gps.local", port: nil)),
            ("192.168.1.255:0", HostAndPort(host: "192.168.1.255", port: 0)),
            ("", nil), ("host:", nil), ("host:65536", nil), ("host:-1", nil), ("[::1]2947", nil), ("[::1", nil),
            ("host:29a7", nil), ("host:２９", nil), ("[]:1", nil),
        ]
        for (text, expected) in cases {
            #expect(HostAndPort(parsing: text) == expected, "\(text)")
        }
    }

    @Test func multicastAddressesAreKnownByTheirPrefix() throws {
        func address(_ host: String) throws -> SocketAddress {
            try #require(try SocketAddress.resolve(host: host, port: 1, type: Int32(SOCK_DGRAM.rawValue)).first).address
        }
        #expect(try address("239.255.10.110").isMulticast)
        #expect(try address("224.0.0.1").isMulticast)
        #expect(try address("ff02::1").isMulticast)
        #expect(try !address("127.0.0.1").isMulticast)
        #expect(try !address("240.0.0.1").isMulticast)
        #expect(try !address("::1").isMulticast)
        #expect(try address("127.0.0.1").port == 1)
    }

    @Test func listenAddressesParse() {
        #expect(ListenAddress(parsing: "2947") == ListenAddress(host: "127.0.0.1", port: 2947))
        #expect(ListenAddress(parsing: ":2948") == ListenAddress(host: "127.0.0.1", port: 2948))
        #expect(ListenAddress(parsing: "0.0.0.0:2947") == ListenAddress(host: "0.0.0.0", port: 2947))
        #expect(ListenAddress(parsing: "[::1]:2947") == ListenAddress(host: "::1", port: 2947))
        #expect(ListenAddress(parsing: "localhost:0") == ListenAddress(host: "localhost", port: 0))
        #expect(ListenAddress(parsing: "*:2947")?.host == "*")
        let bad = ["", "host:", "host:65536", "host:-1", "::1:2947", "[::1]", "[::1]2947", "host:29a7", "host:２９"]
        for bad in bad {
            #expect(ListenAddress(parsing: bad) == nil, "\(bad)")
        }
        #expect(ListenAddress(host: "::1", port: 1).description == "[::1]:1")
    }
}
