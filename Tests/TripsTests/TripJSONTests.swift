import JSON
import NMEA
import Testing

@testable import Trips

@Suite struct TripJSONTests {
    static let start = Int64(1_796_025_600) * 1_000_000_000  // 2026-11-30T08:00:00Z

    @Test func tripAndStopObjects() {
        let trip = Trip(
            start: TripPoint(timestamp: Self.start, latitude: 55.9001, longitude: 37.42848),
            end: TripPoint(
                timestamp: Self.start + 1_800_250_000_000, latitude: -33.8678512,
                longitude: -151.2073199),
            distanceMeters: 34_166.67, maximumSpeed: 25, fixes: 1801, ending: .stop)
        var json = JSONWriter()
        TripJSON.write(
            trip,
            startPlace: PlaceName(
                label: "Khimki, Moscow Oblast, RU", latitude: 55.9001,
                longitude: 37.42848),
            endPlace: nil, into: &json)
        #expect(
            json.string == """
                {"start":{"time":"2026-11-30T08:00:00Z","lat":55.900100,"lon":37.428480,\
                "place":"Khimki, Moscow Oblast, RU"},"end":{"time":"2026-11-30T08:30:00.25Z","lat":-33.867851,\
                "lon":-151.207320,"place":null},"distance_m":34167,"duration_s":1800.25,"avg_speed_kmh":68.3,\
                "max_speed_kmh":90.0}
                """)
        json.reset()
        let stop = Stop(
            start: TripPoint(timestamp: Self.start, latitude: 1.5, longitude: 2),
            endTimestamp: Self.start + 3_600_000_000_000, openStart: false, openEnd: true)
        let cache = GeocodeCache(path: nil, identifier: "t") { _ in }
        let places = CachedGeocoder(CountingGeocoder(), cache: cache) { _ in }
        TripJSON.write(stop, places: places, into: &json)
        #expect(
            json.string == """
                {"start":"2026-11-30T08:00:00Z","end":"2026-11-30T09:00:00Z","duration_s":3600,"lat":1.500000,\
                "lon":2.000000,"place":"near 1500,2000","open_end":true}
                """)
    }

    @Test func times() {
        #expect(ISO8601.string(0) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.string(-1_000_000_000) == "1969-12-31T23:59:59Z")
        #expect(ISO8601.string(Self.start + 120_000_000) == "2026-11-30T08:00:00.12Z")
        #expect(ISO8601.string(Self.start + 1_500_000) == "2026-11-30T08:00:00.002Z")  // to the millisecond
        #expect(ISO8601.string(Self.start + 999_600_000) == "2026-11-30T08:00:01Z")
        #expect(ISO8601.string(Int64(951_782_400) * 1_000_000_000) == "2000-02-29T00:00:00Z")
    }
}
