import Foundation
import System
import TestSupport
import Testing

@testable import Fleet

/// bcrypt on our Blowfish: OpenBSD's published vectors, and hashes `htpasswd -B` (apache2-utils) makes now.
@Suite struct BcryptTests {
    /// Vectors from OpenBSD's regress tests (and every bcrypt port since): password, hash.
    static let vectors: [(String, String)] = [
        ("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        ("U*U*", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"),
        ("U*U*U", "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"),
        ("", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"),
        (
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored",
            "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui"
        ),
    ]

    @Test func openBSDVectors() throws {
        for (password, text) in Self.vectors {
            let hash = try #require(BcryptHash(text), "\(text)")
            #expect(hash.cost == 5)
            #expect(hash.verifies(Array(password.utf8)), "\(password)")
            // Past 72 bytes, bcrypt reads nothing more.
            #expect(hash.verifies(Array((password + "x").utf8)) == (password.utf8.count >= 72), "\(password)x")
            let made = BcryptHash.hash(password: Array(password.utf8), salt: hash.salt, cost: 5)
            #expect(made == "$2y$" + text.dropFirst(4), "\(password)")
        }
    }

    @Test func readsOnlyBcrypt() {
        #expect(BcryptHash("$apr1$abcdefgh$0123456789012345678901") == nil)
        #expect(BcryptHash("{SHA}qUqP5cyxm6YcTAhz05Hph5gvu9M=") == nil)
        #expect(BcryptHash("$2y$03$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW") == nil)  // cost below 4
        #expect(BcryptHash("$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOe") == nil)  // short
        #expect(BcryptHash("$2y$05$CCCCCCCCCCCCCCCCCCCCC!E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW") == nil)  // not base 64
    }

    @Test(.enabled(if: Tools.which("htpasswd") != nil, "needs htpasswd (apt install apache2-utils)"))
    func htpasswdHashes() throws {
        for (password, cost) in [
            ("secret", 5), ("pässwörd with spaces", 4), ("x", 10), (String(repeating: "z", count: 80), 5),
        ] {
            let made = try ChildProcess.run(["htpasswd", "-nbB", "-C", String(cost), "anna", password])
            #expect(made.status == 0, "\(made.error)")
            let line = made.outputLines.first ?? ""
            #expect(line.hasPrefix("anna:$2y$\(cost < 10 ? "0" : "")\(cost)$"), "\(line)")
            let users = try UserList(parsing: made.output)
            let hash = try #require(users.hashes["anna"])
            #expect(hash.verifies(Array(password.utf8)), "\(password)")
            #expect(!hash.verifies(Array("Secret".utf8)))
            #expect(
                BcryptHash.hash(password: Array(password.utf8), salt: hash.salt, cost: cost)
                    == String(line.dropFirst(5)))
        }
    }

    @Test func userAndDeviceFiles() throws {
        #expect(throws: FleetError.self) { try UserList(parsing: "anna:$apr1$abcdefgh$0123456789012345678901\n") }
        let users = try UserList(parsing: "# users\n\nanna:\(Self.vectors[0].1)\r\n")
        #expect(users.count == 1)
        let devices = try DeviceList(parsing: "# id name\n358240051111110 Van 7 (Ford Transit)\nphone-anna\n\n")
        #expect(devices.names == ["358240051111110": "Van 7 (Ford Transit)", "phone-anna": ""])
        #expect(throws: FleetError.self) { try DeviceList(parsing: "a x\na y\n") }
    }

    @Test func basicCredentialsAndOsmAndFields() throws {
        let credentials = try #require(HTTPRequest.basicCredentials("Basic YW5uYTpzZWM6cmV0"))
        #expect(credentials.user == "anna")
        #expect(credentials.password == Array("sec:ret".utf8))
        #expect(HTTPRequest.basicCredentials("Bearer abc") == nil)
        let devices = DeviceList(names: ["van-1": "Van 1"])
        let items = try #require(
            HTTPReport.formItems(Array("id=van-1&lat=48.1&lon=11.5&timestamp=1796025600000&speed=10&bearing=90".utf8)))
        let position = try HTTPReport.osmAnd(items, devices: devices, now: 0).get()
        #expect(
            position
                == StoredPosition(
                    vehicle: "van-1", timestamp: 1_796_025_600, latitude: 48.1, longitude: 11.5,
                    speed: 10 * 1852.0 / 3600.0, courseDegrees: 90))
        #expect(
            HTTPReport.osmAnd([.init(name: "id", value: "x")], devices: devices, now: 0).mapError { $0 }
                == .failure(.unknownDevice("x")))
        #expect(HTTPReport.time("2026-11-30T08:00:00Z") == 1_796_025_600)
    }
}
