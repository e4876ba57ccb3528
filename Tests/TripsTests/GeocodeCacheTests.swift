import Geodesy
import Glibc
import NMEA
import Simulation
import TestSupport
import Testing

@testable import Trips

/// A geocoder that counts what it is asked and answers "cell <n>" (or nothing, or fails, on request).
final class CountingGeocoder: Geocoder {
    let identifier: String
    var lookups = 0
    var answer: (Double, Double) throws -> PlaceName?

    init(identifier: String = "counting-test", answer: ((Double, Double) throws -> PlaceName?)? = nil) {
        self.identifier = identifier
        self.answer =
            answer ?? { latitude, longitude in
                PlaceName(
                    label: "near \(Int(latitude * 1000)),\(Int(longitude * 1000))", latitude: latitude,
                    longitude: longitude)
            }
    }

    func placeName(latitude: Double, longitude: Double) throws -> PlaceName? {
        lookups += 1
        return try answer(latitude, longitude)
    }
}

struct LookupFailed: Error {}

@Suite struct GeocodeCacheTests {
    /// 40 positions in 8 cells: 5 within metres of each other in each.
    static let positions: [(Double, Double)] = (0..<8).flatMap { cell in
        let cellCenter = Geohash(latitude: 48.1 + Double(cell) * 0.01, longitude: 11.5).center
        return (0..<5).map { (cellCenter.latitude + Double($0) * 0.00005, cellCenter.longitude - Double($0) * 0.00005) }
    }

    @Test func theSecondRunIsAnsweredFromTheFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("nmea/places-counting-test.tsv")
        var warnings: [String] = []

        let first = CountingGeocoder()
        let cached = CachedGeocoder(first, cachePath: path) { warnings.append($0) }
        let labels = Self.positions.map { cached.placeName(latitude: $0.0, longitude: $0.1)?.label }
        #expect(first.lookups == 8)  // once a cell, even in the first run
        #expect(cached.hits == 32 && cached.misses == 8)
        // Every position of a cell gets the cell's label.
        for cell in 0..<8 { #expect(Set(labels[(cell * 5)..<(cell * 5 + 5)]).count == 1) }
        cached.save()
        #expect(warnings == ["no place cache at \(path) yet; creating it"])
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(directory.file("nmea"), &info) == 0 && info.st_mode & 0o777 == 0o700)

        warnings = []
        let second = CountingGeocoder()
        let again = CachedGeocoder(second, cachePath: path) { warnings.append($0) }
        #expect(Self.positions.map { again.placeName(latitude: $0.0, longitude: $0.1)?.label } == labels)
        #expect(second.lookups == 0)
        #expect(again.hits == 40 && again.misses == 0)
        #expect(warnings.isEmpty)
        again.save()  // nothing changed: the file is left as it is
        let text = try #require(directory.read("nmea/places-counting-test.tsv"))
        #expect(text.hasPrefix("nmea-geocode-cache 1 counting-test\n"))
        #expect(text.split(separator: "\n").count == 9)
    }

    @Test(arguments: [
        ("garbage", Array("\u{1}\u{2}binary garbage\u{0}".utf8)),
        ("empty", []),
        ("cut short", Array("nmea-geocode-cache 1 counting-test\nu281z7j\t48.1\t11.5\tsomew".utf8)),
        ("bad line", Array("nmea-geocode-cache 1 counting-test\nu281z7j\t48.1\t11.5\tfine\nxx\n".utf8)),
        ("bad number", Array("nmea-geocode-cache 1 counting-test\nu281z7j\tnorth\t11.5\tlabel\n".utf8)),
        ("other geocoder", Array("nmea-geocode-cache 1 someone-else\nu281z7j\t48.1\t11.5\tlabel\n".utf8)),
        ("invalid UTF-8", [0xFF, 0xFE] + Array("\n".utf8)),
    ])
    func aDamagedCacheIsRebuiltWithAWarning(kind: String, content: [UInt8]) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("cache.tsv")
        try FileSystem.writeAtomically(content, to: path)
        var warnings: [String] = []
        let geocoder = CountingGeocoder()
        let cached = CachedGeocoder(geocoder, cachePath: path) { warnings.append($0) }
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("the place cache \(path) is damaged (") == true, "\(warnings)")
        #expect(warnings.first?.hasSuffix("); rebuilding it") == true)
        for position in Self.positions { _ = cached.placeName(latitude: position.0, longitude: position.1) }
        #expect(geocoder.lookups == 8)
        cached.save()
        // Rebuilt: read back without a warning, and every answer is there.
        warnings = []
        let second = CountingGeocoder()
        let again = CachedGeocoder(second, cachePath: path) { warnings.append($0) }
        for position in Self.positions { _ = again.placeName(latitude: position.0, longitude: position.1) }
        #expect(warnings.isEmpty)
        #expect(second.lookups == 0)
    }

    @Test func anUnwritableCacheIsAWarningNotAFailure() {
        var warnings: [String] = []
        let geocoder = CountingGeocoder()
        let cached = CachedGeocoder(geocoder, cachePath: "/dev/null/nmea/cache.tsv") { warnings.append($0) }
        #expect(cached.placeName(latitude: 1, longitude: 2) != nil)
        cached.save()
        #expect(warnings.count == 2)
        #expect(warnings.last?.hasPrefix("cannot save the place cache: /dev/null") == true, "\(warnings)")
    }

    @Test func aDirectoryInPlaceOfTheFileIsAWarning() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var warnings: [String] = []
        let cached = CachedGeocoder(CountingGeocoder(), cachePath: directory.path) { warnings.append($0) }
        #expect(cached.placeName(latitude: 1, longitude: 2) != nil)
        #expect(warnings.first?.hasPrefix("cannot read the place cache") == true, "\(warnings)")
    }

    @Test func noPlaceIsRememberedButFailuresAreNot() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("cache.tsv")
        var warnings: [String] = []
        let nowhere = CountingGeocoder { _, _ in nil }
        let cached = CachedGeocoder(nowhere, cachePath: path) { warnings.append($0) }
        #expect(cached.placeName(latitude: 0, longitude: -140) == nil)
        #expect(cached.placeName(latitude: 0, longitude: -140) == nil)
        #expect(nowhere.lookups == 1)
        cached.save()

        let failing = CountingGeocoder { _, _ in throw LookupFailed() }
        let second = CachedGeocoder(failing, cachePath: path) { warnings.append($0) }
        #expect(second.placeName(latitude: 0, longitude: -140) == nil)  // from the file
        #expect(failing.lookups == 0)
        #expect(second.placeName(latitude: 10, longitude: 10) == nil)
        #expect(second.placeName(latitude: 10, longitude: 10) == nil)
        #expect(failing.lookups == 2)  // asked again: failures are not remembered
        #expect(second.failures == 2)
        #expect(warnings.filter { $0.hasPrefix("place names unavailable") }.count == 1)
    }

    @Test func labelsWithTabsAndNewlinesSurvive() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("cache.tsv")
        let odd = "Line one\nline\ttwo \\ back\\slash\r, ÄÖ, 東京"
        let cached = CachedGeocoder(
            CountingGeocoder { la, lo in PlaceName(label: odd, latitude: la, longitude: lo) },
            cachePath: path
        ) { _ in }
        _ = cached.placeName(latitude: 35.68, longitude: 139.69)
        cached.save()
        var warnings: [String] = []
        let again = CachedGeocoder(CountingGeocoder(), cachePath: path) { warnings.append($0) }
        let name = again.placeName(latitude: 35.68, longitude: 139.69)
        #expect(name?.label == odd)
        #expect(warnings.isEmpty)
        #expect(try #require(directory.read("cache.tsv")).split(separator: "\n").count == 2)
    }

    @Test func theOldestCellsAreForgottenBeyondTheCapacity() {
        var cache = GeocodeCache(path: nil, identifier: "x", capacity: 3) { _ in }
        let cells = (0..<5).map { Geohash(latitude: Double($0), longitude: 0) }
        for (number, cell) in cells.enumerated() {
            cache.insert(.place(PlaceName(label: "\(number)", latitude: 0, longitude: 0)), for: cell)
        }
        #expect(cache.count == 3)
        #expect(cache.entry(for: cells[0]) == nil && cache.entry(for: cells[1]) == nil)
        #expect(cache.entry(for: cells[4]) == .place(PlaceName(label: "4", latitude: 0, longitude: 0)))
    }

    @Test func defaultPathFollowsXDG() {
        #expect(
            GeocodeCache.defaultPath(identifier: "geonames-a5ba49d8", cacheHome: "/var/cache/me", home: "/home/d")
                == "/var/cache/me/nmea/places-geonames-a5ba49d8.tsv")
        // A relative XDG_CACHE_HOME is ignored, as the specification asks.
        #expect(
            GeocodeCache.defaultPath(identifier: "a/b c", cacheHome: "relative", home: "/home/d")
                == "/home/d/.cache/nmea/places-a_b_c.tsv")
        #expect(
            GeocodeCache.defaultPath(identifier: "x", cacheHome: nil, home: "/home/d")
                == "/home/d/.cache/nmea/places-x.tsv")
        #expect(GeocodeCache.defaultPath(identifier: "x", cacheHome: nil, home: nil) == nil)
    }

    /// A real day: trips in and around Khimki, named from the place file through the cache; the second time round,
    /// the place file is not even loaded.
    @Test func aDayAroundKhimkiIsNamedFromTheCacheTheSecondTime() throws {
        let khimki = (latitude: 55.9001, longitude: 37.42848)
        let dolgoprudny = (latitude: 55.94958, longitude: 37.50183)
        // From Khimki 3 km north-east at 36 km/h; parked; on to Dolgoprudny; parked.
        let north = 3000 * cos(Double.pi / 4) / 111_195
        let east = 3000 * sin(Double.pi / 4) / (111_195 * cos(khimki.latitude * .pi / 180))
        let middle = (latitude: khimki.latitude + north, longitude: khimki.longitude + east)
        let leg = Geodesy.distanceMeters(middle.latitude, middle.longitude, dolgoprudny.latitude, dolgoprudny.longitude)
        let course = Geodesy.bearingDegrees(
            from: middle.latitude, middle.longitude, to: dolgoprudny.latitude,
            dolgoprudny.longitude)
        let scenario = Scenario(
            latitude: khimki.latitude, longitude: khimki.longitude,
            start: DateTime(2026, 6, 15, 5, 0, 0), courseDegrees: 45,
            legs: [
                .park(seconds: 600, jitterMeters: 5), .drive(seconds: 300, speedKmh: 36),
                .park(seconds: 1200, jitterMeters: 5), .course(degrees: course),
                .drive(seconds: leg / 10, speedKmh: 36), .park(seconds: 600, jitterMeters: 5),
            ])
        let outcome = Journey.detect(scenario, profile: .gps)
        #expect(outcome.trips.count == 2)

        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cachePath = directory.file("places.tsv")
        func names(_ geocoder: OfflineGeocoder) -> [String?] {
            let cached = CachedGeocoder(geocoder, cachePath: cachePath) { _ in }
            defer { cached.save() }
            return outcome.trips.flatMap { trip in
                [
                    cached.placeName(latitude: trip.start.latitude, longitude: trip.start.longitude)?.label,
                    cached.placeName(latitude: trip.end.latitude, longitude: trip.end.longitude)?.label,
                ]
            }
                + outcome.stopsBetweenTrips.map {
                    cached.placeName(latitude: $0.latitude, longitude: $0.longitude)?.label
                }
        }
        let first = try OfflineGeocoder(path: PlaceData.path)
        let expected = [
            "Khimki, Moscow Oblast, RU", "3 km NE of Khimki, Moscow Oblast, RU",
            "3 km NE of Khimki, Moscow Oblast, RU", "Dolgoprudnyy, Moscow Oblast, RU",
            "3 km NE of Khimki, Moscow Oblast, RU",
        ]
        #expect(names(first) == expected)
        #expect(first.lookups == 3 || first.lookups == 4)  // start, middle (one or two cells), Dolgoprudny
        #expect(first.loadSeconds > 0)

        let second = try OfflineGeocoder(path: PlaceData.path)
        #expect(names(second) == expected)
        #expect(second.lookups == 0)
        #expect(second.loadSeconds == 0)  // never loaded
    }
}
