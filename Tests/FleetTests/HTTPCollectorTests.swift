import Fleet
import Foundation
import NMEA
import Simulation
import System
import TestSupport
import Testing

/// The HTTP collector against a real PostgreSQL with PostGIS, spoken to by curl.
@Suite(
    .serialized, .enabled(if: FleetDatabase.isAvailable, FleetDatabase.reason),
    .enabled(if: Tools.which("curl") != nil, "needs curl"))
struct HTTPCollectorTests {
    /// A collector on a free loopback port for `fleet`, with devices van-1…van-3.
    static func collector(_ fleet: FleetDatabase, users: UserList? = nil) throws -> HTTPCollector {
        var configuration = HTTPCollector.Configuration(
            listen: ListenAddress(port: 0),
            database: "host=127.0.0.1 port=\(fleet.server.port) user=fleet dbname=fleet password=\(fleet.password)",
            devices: DeviceList(names: ["van-1": "Van 1", "van-2": "Van 2", "van-3": "Van 3"]), users: users)
        configuration.reconnectDelayMinimum = 0.2
        configuration.reconnectDelayMaximum = 0.5
        let collector = HTTPCollector(configuration)
        try collector.start()
        return collector
    }

    /// The status codes curl got for `urls`, in order, over one keep-alive connection (one curl for all).
    static func curlCodes(_ urls: [String], method: String = "GET") throws -> [Int] {
        let directory = TemporaryDirectory("curl")
        var config = "silent\nwrite-out = \"%{http_code}\\n\"\n"
        if method == "POST" { config += "request = \"POST\"\n" }
        for url in urls { config += "url = \"\(url)\"\noutput = \"/dev/null\"\n" }
        directory.write(config, to: "config")
        let run = try ChildProcess.run(["curl", "--config", directory.file("config")])
        return run.outputLines.map { Int($0) ?? -1 }
    }

    static func count(_ fleet: FleetDatabase, _ sql: String = "SELECT count(*) FROM nmea.positions") -> Int {
        Int((try? fleet.query(sql))?.first ?? "") ?? -1
    }

    /// 500 reports from three known devices (450 distinct, 50 repeated, some out of order, by GET and POST) and
    /// 10 from an unknown one: every known report is stored once with its values, the unknown ones get 403 and
    /// are counted.
    @Test func osmAndReportsAreStoredOnceAndStrangersRefused() throws {
        let fleet = try FleetDatabase()
        let collector = try Self.collector(fleet)
        defer { collector.stop() }
        let port = try #require(collector.boundAddress?.port)
        func url(_ device: String, _ n: Int) -> String {
            let latitude = DecimalFormatter.string(48.1 + Double(n) * 0.0001)
            return
                "http://127.0.0.1:\(port)/?id=\(device)&lat=\(latitude)&lon=11.5&timestamp=\(Support.start + Int64(n))"
                + "&speed=10&bearing=90&altitude=500&accuracy=5&batt=80"
        }
        var known: [String] = []
        for device in 1...3 { for n in 0..<150 { known.append(url("van-\(device)", n)) } }
        // Out of order: every block of ten reversed; 50 repeats of earlier reports at the end.
        known = stride(from: 0, to: known.count, by: 10).flatMap { known[$0..<min($0 + 10, known.count)].reversed() }
        var generator = SplitMix64(seed: 32)
        for _ in 0..<50 { known.append(known[Int.random(in: 0..<known.count, using: &generator)]) }
        let strangers = (0..<10).map { url("stranger", $0) }
        let codes =
            try Self.curlCodes(Array(known[..<250]) + strangers)
            + (try Self.curlCodes(Array(known[250...]), method: "POST"))
        #expect(codes.count == 510)
        #expect(codes.filter { $0 == 200 }.count == 500)
        #expect(Array(codes[250..<260]) == Array(repeating: 403, count: 10))
        #expect(Self.count(fleet) == 450)
        #expect(Self.count(fleet, "SELECT count(DISTINCT vehicle) FROM nmea.positions") == 3)
        #expect(Self.count(fleet, "SELECT count(*) FROM nmea.positions WHERE vehicle = 'stranger'") == 0)
        let statistics = collector.statistics
        #expect(statistics.stored == 450)
        #expect(statistics.duplicates == 50)
        #expect(statistics.unknownDevices == 10)
        #expect(statistics.requests == 510)
        let row = try fleet.query(
            """
            SELECT vehicle || '|' || extract(epoch FROM time)::bigint || '|' || ST_Y(position::geometry) || '|' ||
                   ST_X(position::geometry) || '|' || round(speed::numeric, 4) || '|' || course || '|' || altitude
                   || '|' || accuracy
            FROM nmea.positions WHERE vehicle = 'van-2' ORDER BY time DESC LIMIT 1
            """)
        #expect(row == ["van-2|\(Support.start + 149)|48.1149|11.5|5.1444|90|500|5"])
    }

    /// With the database killed, a report gets 503, never 200; once it is back, the same report gets 200 and is
    /// stored once.
    @Test func aKilledDatabaseGetsNo200() throws {
        let fleet = try FleetDatabase()
        let collector = try Self.collector(fleet)
        defer { collector.stop() }
        let port = try #require(collector.boundAddress?.port)
        let report = "http://127.0.0.1:\(port)/?id=van-1&lat=48.1&lon=11.5&timestamp=\(Support.start)"
        #expect(try Self.curlCodes([report]) == [200])
        fleet.server.stop(immediately: true)
        let second = "http://127.0.0.1:\(port)/?id=van-1&lat=48.2&lon=11.5&timestamp=\(Support.start + 1)"
        #expect(try Self.curlCodes([second, second, second]) == [503, 503, 503])
        #expect(collector.statistics.unavailable == 3)
        try fleet.server.start()
        #expect(waitUntil(timeout: .seconds(20)) { (try? Self.curlCodes([second])) == [200] })
        #expect(try Self.curlCodes([second, report]) == [200, 200])
        #expect(Self.count(fleet) == 2)
    }

    /// OwnTracks' HTTP mode, from payloads as the apps send them: logged-in locations stored as USER/DEVICE and
    /// answered `[]`; other message types answered `[]` and not stored; a wrong password 403, none 401.
    @Test(.enabled(if: Tools.which("htpasswd") != nil, "needs htpasswd (apt install apache2-utils)"))
    func ownTracksOverHTTP() throws {
        let fleet = try FleetDatabase()
        let files = TemporaryDirectory("owntracks")
        let made = try ChildProcess.run(["htpasswd", "-cbB", files.file("users"), "anna", "s3cret pass"])
        #expect(made.status == 0, "\(made.error)")
        let collector = try Self.collector(fleet, users: try UserList.load(files.file("users")))
        defer { collector.stop() }
        let port = try #require(collector.boundAddress?.port)
        // A recorded set, as OwnTracks for Android 2.5 posts it (its own fields kept).
        let payloads = [
            #"{"_type":"location","BSSID":"aa:bb:cc:dd:ee:ff","SSID":"depot","acc":12,"alt":519,"batt":85,"bs":1,"conn":"w","created_at":1796025601,"lat":48.137411,"lon":11.575512,"m":1,"t":"u","tid":"an","tst":1796025600,"vac":3,"vel":37,"cog":270}"#,
            #"{"_type":"location","lat":48.14,"lon":11.58,"tst":1796025660,"tid":"an"}"#,
            #"{"_type":"lwt","tst":1796025000}"#,
            #"{"_type":"transition","event":"enter","desc":"depot","t":"c","tst":1796025600,"wtst":1796025000,"lat":48.1,"lon":11.5,"acc":10,"tid":"an"}"#,
            #"{"_type":"location","lat":48.14,"lon":11.58,"tst":1796025660,"tid":"an"}"#,
        ]
        func post(_ payload: String, credentials: String?) throws -> (code: String, body: String) {
            files.write(payload, to: "payload.json")
            var arguments = [
                "curl", "-s", "-H", "Content-Type: application/json", "-H", "X-Limit-U: anna", "-H",
                "X-Limit-D: phone", "--data-binary", "@" + files.file("payload.json"), "-w", "\n%{http_code}",
                "http://127.0.0.1:\(port)/owntracks",
            ]
            if let credentials { arguments += ["-u", credentials] }
            let lines = try ChildProcess.run(arguments).output.split(separator: "\n", omittingEmptySubsequences: false)
            return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
        }
        for payload in payloads {
            let answer = try post(payload, credentials: "anna:s3cret pass")
            #expect(answer.code == "200", "\(payload)")
            #expect(answer.body == "[]", "\(payload)")
        }
        #expect(try post(payloads[1], credentials: "anna:wrong").code == "403")
        #expect(try post(payloads[1], credentials: "bob:s3cret pass").code == "403")
        #expect(try post(payloads[1], credentials: nil).code == "401")
        let rows = try fleet.query(
            """
            SELECT vehicle || '|' || extract(epoch FROM time)::bigint || '|' || ST_Y(position::geometry) || '|' ||
                   ST_X(position::geometry) || '|' || coalesce(altitude::text, '') || '|' ||
                   coalesce(round(speed::numeric, 3)::text, '') || '|' || coalesce(accuracy::text, '')
            FROM nmea.positions ORDER BY time
            """)
        #expect(
            rows == ["anna/phone|1796025600|48.137411|11.575512|519|10.278|12", "anna/phone|1796025660|48.14|11.58|||"])
        let statistics = collector.statistics
        #expect(statistics.stored == 2)
        #expect(statistics.duplicates == 1)
        #expect(statistics.otherTypes == 2)
        #expect(statistics.failedLogins == 3)
    }
}
