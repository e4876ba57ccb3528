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
}
