import Fleet
import Geodesy
import NMEA
import TestSupport
import Testing
import Trips

@Suite struct OwnTracksLocationTests {
    @Test func encodesEveryKnownField() {
        var fix = Support.drive(0)
        fix.vdop = 1.3
        let location = OwnTracksLocation(fix, trackerID: "v7")!
        #expect(
            String(decoding: location.json, as: UTF8.self)
                == #"{"_type":"location","tid":"v7","tst":1796025600,"lat":48.1374,"lon":11.5755,"alt":520,"vel":45,"#
                + #""cog":45,"acc":4,"vac":7}"#)
    }

    @Test func carriesTheSatellitesUsedBothWays() throws {
        var fix = Support.drive(0)
        fix.satellitesUsed = 9
        let json = OwnTracksLocation(fix, trackerID: "v7")!.json
        #expect(
            String(decoding: json, as: UTF8.self)
                == #"{"_type":"location","tid":"v7","tst":1796025600,"lat":48.1374,"lon":11.5755,"alt":520,"vel":45,"#
                + #""cog":45,"acc":4,"sat":9}"#)
        let decoded = try OwnTracksLocation(json: json)
        #expect(decoded.satellites == 9)
        #expect(decoded.fix.satellitesUsed == 9)
    }

    @Test func prefersTheReceiversOwnErrorEstimates() {
        var fix = Support.drive(0)
        fix.latitudeErrorMeters = 3
        fix.longitudeErrorMeters = 4
        #expect(OwnTracksLocation(fix)!.accuracyMeters == 5)
        fix.horizontalErrorMeters = 1.6
        fix.verticalErrorMeters = 2.4
        let location = OwnTracksLocation(fix)!
        #expect(location.accuracyMeters == 2)
        #expect(location.verticalAccuracyMeters == 2)
    }

    @Test func leavesOutWhatIsUnknown() {
        let fix = Support.fix(
            seconds: 1_796_025_601, latitude: -33.8688197, longitude: -151.20929,
            altitude: nil, speed: nil, course: nil, hdop: nil)
        #expect(
            String(decoding: OwnTracksLocation(fix)!.json, as: UTF8.self)
                == #"{"_type":"location","tst":1796025601,"lat":-33.8688197,"lon":-151.20929}"#)
    }

    @Test func needsAPositionAndATime() {
        var fix = Support.drive(0)
        fix.date = nil
        #expect(OwnTracksLocation(fix) == nil)
        fix = Support.drive(0)
        fix.mode = .none
        #expect(OwnTracksLocation(fix) == nil)
        fix = Support.drive(0)
        fix.isProvisional = true
        #expect(OwnTracksLocation(fix) == nil)
    }

    @Test func courseStaysWithinACircle() {
        var fix = Support.drive(0)
        fix.courseDegrees = 359.7
        #expect(OwnTracksLocation(fix)!.courseDegrees == 0)
    }

    @Test func decodesWhatTheAppsSend() throws {
        let text =
            #"{"_type":"location","acc":13,"alt":159,"batt":40,"conn":"w","lat":52.5200066,"lon":13.404954,"#
            + #""t":"u","tid":"JJ","tst":1700000000.9,"vac":7.6,"vel":0,"cog":-1}"#
        let location = try OwnTracksLocation(json: Array(text.utf8))
        #expect(
            location
                == OwnTracksLocation(
                    latitude: 52.5200066, longitude: 13.404954, timestamp: 1_700_000_000,
                    altitudeMeters: 159, speedKmh: 0, courseDegrees: -1,
                    accuracyMeters: 13, verticalAccuracyMeters: 8, trackerID: "JJ"))
    }

    @Test func roundTripsThroughJSONAndBackToAFix() throws {
        let location = OwnTracksLocation(Support.drive(7), trackerID: "ab")!
        let decoded = try OwnTracksLocation(json: location.json)
        #expect(decoded == location)
        let fix = decoded.fix
        #expect(fix.timestamp == (Support.start + 7) * 1_000_000_000)
        #expect(fix.latitude == location.latitude)
        #expect(fix.mode == .threeD)
        #expect(abs(fix.speed! - 45 / 3.6) < 1e-9)
    }

    @Test func rejectsWhatIsNotALocation() {
        #expect(throws: OwnTracksError.notALocation(type: "lwt")) {
            try OwnTracksLocation(json: Array(#"{"_type":"lwt","tst":1}"#.utf8))
        }
        #expect(throws: OwnTracksError.missingField("tst")) {
            try OwnTracksLocation(json: Array(#"{"_type":"location","lat":1,"lon":2}"#.utf8))
        }
        #expect(throws: OwnTracksError.missingField("lat")) {
            try OwnTracksLocation(json: Array(#"{"_type":"location","lat":91,"lon":2,"tst":3}"#.utf8))
        }
        #expect(throws: OwnTracksError.self) { try OwnTracksLocation(json: Array("{\"_type\":".utf8)) }
        #expect(throws: OwnTracksError.notAnObject) { try OwnTracksLocation(json: Array("[1]".utf8)) }
    }
}

@Suite struct TripSummaryTests {
    static let trip = TripSummary(
        start: .init(
            timestamp: (Support.start + 4) * 1_000_000_000, latitude: 55.9001, longitude: 37.42848,
            place: "Khimki, Moscow Oblast, RU"),
        end: .init(
            timestamp: (Support.start + 1800) * 1_000_000_000 + 250_000_000, latitude: 55.75,
            longitude: 37.6166, place: nil),
        distanceMeters: 21_834.4, durationSeconds: 1796.25, averageSpeedKmh: 43.76, maximumSpeedKmh: 90)

    @Test func encodesTheTripsFields() {
        #expect(
            String(decoding: Self.trip.json, as: UTF8.self)
                == #"{"_type":"trip","start":{"time":"2026-11-30T08:00:04Z","lat":55.900100,"lon":37.428480,"#
                + #""place":"Khimki, Moscow Oblast, RU"},"end":{"time":"2026-11-30T08:30:00.25Z","lat":55.750000,"#
                + #""lon":37.616600,"place":null},"distance_m":21834,"duration_s":1796.25,"avg_speed_kmh":43.8,"#
                + #""max_speed_kmh":90.0}"#)
    }

    @Test func decodesWhatItEncodes() throws {
        let decoded = try TripSummary(json: Self.trip.json)
        #expect(decoded.start == Self.trip.start)
        #expect(decoded.end == Self.trip.end)
        #expect(decoded.distanceMeters == 21_834)
        #expect(decoded.averageSpeedKmh == 43.8)
    }

    @Test func rejectsIncompleteTrips() {
        #expect(throws: TripSummaryError.self) { try TripSummary(json: Array(#"{"start":{}}"#.utf8)) }
        #expect(throws: TripSummaryError.self) { try TripSummary(json: Array(#"{"_type":"location"}"#.utf8)) }
    }

    @Test func isoTimes() {
        #expect(ISO8601.parse("2026-11-30T08:00:04Z") == (Support.start + 4) * 1_000_000_000)
        #expect(ISO8601.parse("2026-11-30T08:00:04.5+00:00") == (Support.start + 4) * 1_000_000_000 + 500_000_000)
        #expect(ISO8601.parse("2026-02-30T08:00:04Z") == nil)
        #expect(ISO8601.parse("2026-11-30 08:00") == nil)
        #expect(ISO8601.string(-1_000_000_000) == "1969-12-31T23:59:59Z")
    }
}

@Suite struct BrokerURLTests {
    @Test func readsEveryPart() throws {
        let url = try BrokerURL(parsing: "mqtt://fleet:s%40cret:x@broker.example:1884")
        #expect(url == BrokerURL(host: "broker.example", port: 1884, username: "fleet", password: "s@cret:x"))
        #expect(url.description == "mqtt://fleet@broker.example:1884")
        #expect(
            try BrokerURL(parsing: "mqtts://broker.example")
                == BrokerURL(
                    host: "broker.example", port: 8883,
                    usesTLS: true))
        #expect(try BrokerURL(parsing: "mqtt://[::1]:1999/").host == "::1")
        #expect(try BrokerURL(parsing: "mqtt://localhost").port == 1883)
    }

    @Test func saysWhatIsWrong() {
        for text in [
            "http://x", "mqtt://", "mqtt://host:0", "mqtt://host:99999", "mqtt://host/topic", "mqtt://:pw@h",
            "mqtt://[::1", "mqtt://u:%zz@h",
        ] {
            #expect(throws: BrokerURLError.self, "\(text)") { try BrokerURL(parsing: text) }
        }
    }
}

@Suite struct RateLimiterTests {
    func decide(_ limiter: inout PublishRateLimiter, _ second: Int64, _ metersNorth: Double)
        -> PublishRateLimiter.Decision
    {
        limiter.decide(timestamp: second * 1_000_000_000, latitude: 48 + metersNorth / 111_195, longitude: 11)
    }

    @Test func publishesAfterTheIntervalWhenMovedFarEnough() {
        var limiter = PublishRateLimiter(intervalSeconds: 5, minimumMoveMeters: 25, heartbeatSeconds: 300)
        #expect(decide(&limiter, 0, 0) == .publish)
        #expect(decide(&limiter, 3, 100) == .tooSoon)
        #expect(decide(&limiter, 5, 10) == .tooClose)
        #expect(decide(&limiter, 6, 30) == .publish)
        #expect(decide(&limiter, 11, 54) == .tooClose)
        #expect(decide(&limiter, 12, 56) == .publish)
    }

    @Test func aParkedVehicleSendsOnlyHeartbeats() {
        var limiter = PublishRateLimiter(intervalSeconds: 5, minimumMoveMeters: 25, heartbeatSeconds: 300)
        var published = 0
        for second in 0..<3600 where decide(&limiter, Int64(second), Double(second % 7)) == .publish {
            published += 1
        }
        #expect(published == 12)
        limiter.heartbeatSeconds = 0
        limiter.reset()
        published = 0
        for second in 0..<3600 where decide(&limiter, Int64(second), Double(second % 7)) == .publish {
            published += 1
        }
        #expect(published == 1)
    }

    @Test func zeroLimitsPublishEverythingAndTimeGoingBackStartsOver() {
        var limiter = PublishRateLimiter(intervalSeconds: 0, minimumMoveMeters: 0, heartbeatSeconds: 0)
        #expect((0..<10).allSatisfy { decide(&limiter, 100, 0) == .publish || $0 < 0 })
        limiter = PublishRateLimiter()
        #expect(decide(&limiter, 100, 0) == .publish)
        #expect(decide(&limiter, 50, 0) == .publish)
    }

    @Test func haversineDistance() {
        // Munich to Berlin: 504 km.
        #expect(abs(Geodesy.distanceMeters(48.1374, 11.5755, 52.5200, 13.4050) - 504_200) < 1_000)
    }
}
