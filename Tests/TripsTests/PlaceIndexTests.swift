import Geodesy
import Glibc
import NMEA
import Simulation
import System
import TestSupport
import Testing

@testable import Trips

/// The committed place file, the k-d tree against brute force, labels of real places.
@Suite struct PlaceIndexTests {
    @Test func theCommittedFileIsCompleteAndSmall() throws {
        let bytes = try FileSystem.read(PlaceData.path)
        #expect(bytes.count <= 4_000_000)
        // How long it takes to load is a figure of `nmea trips --bench`, not a test's (a timed test fails on a busy
        // machine: 3.3 s once, in a debug build, beside three other test processes).
        let index = try PlaceIndex(bytes: bytes)
        #expect(index.count == 155_210)
        #expect(index.about.contains("GeoNames") && index.about.contains("CC BY 4.0"))
        #expect(try PlaceIndex.identity(ofFileAt: PlaceData.path) == index.identity)
        let khimki = (0..<index.count).map(index.place(at:)).first { $0.name == "Khimki" }
        #expect(
            khimki
                == Place(
                    name: "Khimki", admin1: "Moscow Oblast", admin2: "Khimki Urban Okrug",
                    countryCode: "RU",
                    latitude: 55.9001, longitude: 37.42848, population: 240_000))
    }

    /// Brute force: every place's unit vector, computed here from its coordinates; the straight-line nearest of
    /// those is the great-circle nearest.
    struct BruteForce {
        let vectors: [Double]

        init(_ index: PlaceIndex) {
            var vectors = [Double](repeating: 0, count: index.count * 3)
            for place in 0..<index.count {
                let position = index.coordinates(at: place)
                let latitude = position.latitude * .pi / 180
                let longitude = position.longitude * .pi / 180
                vectors[place * 3] = cos(latitude) * cos(longitude)
                vectors[place * 3 + 1] = cos(latitude) * sin(longitude)
                vectors[place * 3 + 2] = sin(latitude)
            }
            self.vectors = vectors
        }

        func nearest(_ latitude: Double, _ longitude: Double) -> Int {
            let x = cos(latitude * .pi / 180) * cos(longitude * .pi / 180)
            let y = cos(latitude * .pi / 180) * sin(longitude * .pi / 180)
            let z = sin(latitude * .pi / 180)
            return vectors.withUnsafeBufferPointer { vectors in
                var best = 0
                var bestDistance = Double.infinity
                var offset = 0
                for place in 0..<(vectors.count / 3) {
                    let dx = vectors[offset] - x
                    let dy = vectors[offset + 1] - y
                    let dz = vectors[offset + 2] - z
                    let distance = dx * dx + dy * dy + dz * dz
                    if distance < bestDistance {
                        bestDistance = distance
                        best = place
                    }
                    offset += 3
                }
                return best
            }
        }
    }

    @Test func nearestAgreesWithBruteForceOnThousandsOfPoints() {
        let index = PlaceData.index
        let brute = BruteForce(index)
        var random = SplitMix64(seed: 2026)
        var points: [(Double, Double)] = []
        // Uniform over the sphere, mostly sea: the hard case for the tree.
        for _ in 0..<1500 { points.append((asin(random.nextSigned()) * 180 / .pi, random.nextSigned() * 180)) }
        // Near places, where vehicles are (within ~20 km), and exactly on some.
        for step in 0..<1500 {
            let place = index.coordinates(at: Int(random.next() % UInt64(index.count)))
            if step % 10 == 0 {
                points.append(place)
                continue
            }
            points.append(
                (
                    max(-90, min(90, place.latitude + random.nextSigned() * 0.2)),
                    place.longitude + random.nextSigned() * 0.2
                ))
        }
        // Across the date line and near the poles.
        for _ in 0..<300 { points.append((random.nextSigned() * 60, 180 - random.nextUnit() * 1.5)) }
        for _ in 0..<300 { points.append((random.nextSigned() * 60, -180 + random.nextUnit() * 1.5)) }
        for _ in 0..<200 { points.append((90 - random.nextUnit() * 10, random.nextSigned() * 180)) }
        for _ in 0..<200 { points.append((-90 + random.nextUnit() * 10, random.nextSigned() * 180)) }
        var disagreements = 0
        for (latitude, var longitude) in points {
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            let found = index.nearest(latitude: latitude, longitude: longitude)
            let expected = brute.nearest(latitude, longitude)
            let expectedPlace = index.coordinates(at: expected)
            let expectedMeters = Geodesy.distanceMeters(
                latitude, longitude, expectedPlace.latitude,
                expectedPlace.longitude)
            // The same place, or one exactly as far (duplicates share coordinates).
            if found.index != expected && abs(found.distanceMeters - expectedMeters) > 1e-6 {
                disagreements += 1
                let message =
                    "(\(latitude), \(longitude)): tree \(found.index) at \(found.distanceMeters) m, "
                    + "brute force \(expected) at \(expectedMeters) m"
                Issue.record(Comment(rawValue: message))
                if disagreements > 5 { return }
            }
        }
        #expect(points.count == 4000)
    }

    /// Points a few centimetres nearer to one of two neighbouring places than to the other: closer than the tree's
    /// `Float` coordinates can tell apart, so only the exact check gets them right.
    @Test func nearTiesAreDecidedExactly() {
        let index = PlaceData.index
        let brute = BruteForce(index)
        // Neighbouring places: sorted by latitude, pairs within about 100 m of each other.
        let sorted = (0..<index.count).map { ($0, index.coordinates(at: $0)) }.sorted { $0.1.latitude < $1.1.latitude }
        var pairs: [(Int, Int)] = []
        for (position, (first, a)) in sorted.enumerated() {
            for (second, b) in sorted[(position + 1)...].prefix(while: { $0.1.latitude - a.latitude < 0.001 }) {
                let meters = Geodesy.distanceMeters(a.latitude, a.longitude, b.latitude, b.longitude)
                if meters > 5 && meters < 100 { pairs.append((first, second)) }
            }
            if pairs.count >= 300 { break }
        }
        #expect(pairs.count >= 100)
        var checked = 0
        for (first, second) in pairs {
            let a = index.coordinates(at: first)
            let b = index.coordinates(at: second)
            let va = Geodesy.unitVector(a.latitude, a.longitude)
            let vb = Geodesy.unitVector(b.latitude, b.longitude)
            // The midpoint, moved 3 cm towards `first` (3 cm is 4.7e-9 of the Earth's radius).
            let shift = 0.03 / Geodesy.earthRadiusMeters
            let difference = (va.x - vb.x, va.y - vb.y, va.z - vb.z)
            let length = (difference.0 * difference.0 + difference.1 * difference.1 + difference.2 * difference.2)
                .squareRoot()
            var point = (
                (va.x + vb.x) / 2 + difference.0 / length * shift,
                (va.y + vb.y) / 2 + difference.1 / length * shift,
                (va.z + vb.z) / 2 + difference.2 / length * shift
            )
            let norm = (point.0 * point.0 + point.1 * point.1 + point.2 * point.2).squareRoot()
            point = (point.0 / norm, point.1 / norm, point.2 / norm)
            let latitude = asin(point.2) * 180 / .pi
            let longitude = atan2(point.1, point.0) * 180 / .pi
            let expected = brute.nearest(latitude, longitude)
            guard expected == first else { continue }  // a third place is nearer still
            checked += 1
            let found = index.nearest(latitude: latitude, longitude: longitude).index
            #expect(found == first, "pair \(first), \(second): found \(found)")
        }
        #expect(checked >= 100)
    }

    @Test(arguments: [
        (55.9001, 37.42848, "Khimki, Moscow Oblast, RU"),
        (48.1374, 11.5755, "Munich, Bavaria, DE"),
        (-54.8019, -68.303, "1 km NE of Ushuaia, Tierra del Fuego, AR"),
        (25.07725, 55.30927, "Dubai, AE"),
        (12.55837, -70.03816, "Washington, AW"),
        (64.1355, -21.8954, "Reykjavík, Capital Region, IS"),
    ])
    func labelsOfRealPlaces(latitude: Double, longitude: Double, label: String) throws {
        let geocoder = OfflineGeocoder(index: PlaceData.index)
        #expect(try geocoder.placeName(latitude: latitude, longitude: longitude)?.label == label)
    }

    @Test func distanceAndDirectionBeyondAKilometre() throws {
        let geocoder = OfflineGeocoder(index: PlaceData.index)
        // 3 km north-east of Khimki (and nearer to it than to anything else).
        let north = 3000 * cos(Double.pi / 4) / 111_195
        let east = 3000 * sin(Double.pi / 4) / (111_195 * cos(55.9001 * .pi / 180))
        let name = try #require(try geocoder.placeName(latitude: 55.9001 + north, longitude: 37.42848 + east))
        #expect(name.label == "3 km NE of Khimki, Moscow Oblast, RU")
        // The coordinates beside the label are the named place's.
        #expect(name.latitude == 55.9001 && name.longitude == 37.42848)
        #expect(geocoder.lookups == 1)
    }

    @Test func labelFormatting() {
        let place = Place(
            name: "Sample", admin1: "Region", admin2: "", countryCode: "XX", latitude: 0, longitude: 0,
            population: 1000)
        #expect(OfflineGeocoder.label(place, distanceMeters: 999, bearingDegrees: 10) == "Sample, Region, XX")
        func label(_ meters: Double, _ bearing: Double) -> String {
            OfflineGeocoder.label(place, distanceMeters: meters, bearingDegrees: bearing)
        }
        #expect(label(1000, 10) == "1 km N of Sample, Region, XX")
        #expect(label(2499, 200) == "2 km S of Sample, Region, XX")
        #expect(label(2500, 250) == "3 km W of Sample, Region, XX")
        var same = place
        same.admin1 = "Sample"
        #expect(OfflineGeocoder.label(same, distanceMeters: 0, bearingDegrees: 0) == "Sample, XX")
        let points = stride(from: 0.0, to: 360, by: 22.5).map { Geodesy.compassPoint($0) }
        #expect(points == ["N", "NE", "NE", "E", "E", "SE", "SE", "S", "S", "SW", "SW", "W", "W", "NW", "NW", "N"])
        #expect(Geodesy.compassPoint(22.49) == "N" && Geodesy.compassPoint(-10) == "N")
        #expect(Geodesy.compassPoint(720) == "N")
    }

    @Test func geodesy() {
        // A degree of latitude, and London–Paris (343.6 km on the sphere).
        #expect(abs(Geodesy.distanceMeters(0, 0, 1, 0) - 111_195.08) < 0.01)
        #expect(abs(Geodesy.distanceMeters(51.5074, -0.1278, 48.8566, 2.3522) - 343_556) < 100)
        #expect(abs(Geodesy.distanceMeters(0, 179.9, 0, -179.9) - 22_239) < 1)
        #expect(abs(Geodesy.bearingDegrees(from: 0, 0, to: 1, 1) - 45) < 0.01)
        #expect(abs(Geodesy.bearingDegrees(from: 0, 0, to: -1, 0) - 180) < 1e-9)
        #expect(abs(Geodesy.bearingDegrees(from: 0, 179.9, to: 0, -179.9) - 90) < 1e-6)
    }

    @Test func geohash() {
        // The example of geohash.org's documentation: 57.64911, 10.40744 is u4pruydqqvj.
        #expect(Geohash(latitude: 57.64911, longitude: 10.40744, length: 11).description == "u4pruydqqvj")
        #expect(Geohash(latitude: 57.64911, longitude: 10.40744).description == "u4pruyd")
        #expect(Geohash(latitude: 42.6, longitude: -5.6, length: 5).description == "ezs42")
        #expect(Geohash(latitude: -90, longitude: -180).description == "0000000")
        #expect(Geohash(latitude: 90, longitude: 180).description == "zzzzzzz")
        let cell = Geohash(latitude: 55.9001, longitude: 37.42848)
        #expect(Geohash(cell.description) == cell)
        let bounds = cell.bounds
        #expect(bounds.south <= 55.9001 && 55.9001 < bounds.north && bounds.west <= 37.42848 && 37.42848 < bounds.east)
        #expect(abs((bounds.north - bounds.south) - 180.0 / 131_072) < 1e-12)
        #expect(abs((bounds.east - bounds.west) - 360.0 / 262_144) < 1e-12)
        // About 150 m at the equator.
        #expect(abs(Geodesy.distanceMeters(0, 0, 0, 360.0 / 262_144) - 152.7) < 0.1)
        #expect(Geohash("u4pru!d") == nil && Geohash("") == nil)
    }

    @Test func damagedPlaceFilesAreRefused() throws {
        let bytes = try FileSystem.read(PlaceData.path)
        #expect(throws: PlaceFileError.self) { try PlaceIndex(bytes: Array(bytes.prefix(1000))) }
        #expect(throws: PlaceFileError.self) { try PlaceIndex(bytes: Array(bytes.dropLast())) }
        #expect(throws: PlaceFileError.self) { try PlaceIndex(bytes: bytes + [0]) }
        #expect(throws: PlaceFileError.self) {
            try PlaceIndex(bytes: Array("not a place file at all, no".utf8) + bytes)
        }
        var wrongVersion = bytes
        wrongVersion[8] = 2
        #expect(throws: PlaceFileError.self) { try PlaceIndex(bytes: wrongVersion) }
    }

    /// Found by the `places` fuzz target (Fuzz/artifacts/places-crash-f76096b4…), byte for byte: a place whose
    /// latitude is `Int32.min` (bytes 0x80000000) trapped in `abs` while the coordinates were checked. It is refused.
    @Test func aCoordinateOfInt32MinIsRefusedNotACrash() {
        let bytes: [UInt8] = [
            0x4E, 0x4D, 0x45, 0x41, 0x50, 0x4C, 0x43, 0x31, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
            0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x66, 0x75, 0x7A, 0x7A, 0x20, 0x73, 0x65, 0x65,
            0x64, 0x44, 0x45, 0x4A, 0x52, 0x00, 0x07, 0x42, 0x61, 0x76, 0x61, 0x72, 0x69, 0x61, 0x0D, 0x49,
            0x6C, 0x65, 0x2D, 0x64, 0x65, 0x2D, 0x46, 0x72, 0x61, 0x6E, 0x63, 0x65, 0x00, 0x01, 0x00, 0x00,
            0x00, 0x02, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0xAF, 0x73, 0x49, 0x00, 0xAD, 0xA9,
            0x11, 0x00, 0x40, 0xE0, 0x48, 0x00, 0xD0, 0x18, 0x12, 0x00, 0x9D, 0x8C, 0x13, 0x00, 0x00, 0x00,
            0x00, 0x80, 0x00, 0x00, 0x32, 0x00, 0xB8, 0x0B, 0x06, 0x4D, 0x75, 0x6E, 0x69, 0x63, 0x68, 0x09,
            0x52, 0x6F, 0x73, 0x65, 0x96, 0x97, 0x9A, 0x96, 0x6D, 0x05, 0x28, 0x61, 0x72, 0x69, 0x73,
        ]
        #expect(throws: PlaceFileError.self) { try PlaceIndex(bytes: bytes) }
        #expect((try? PlaceIndex(bytes: bytes)) == nil)
    }

    @Test func searchPaths() {
        #expect(
            PlaceIndex.searchPaths(
                executable: "/opt/x/bin/nmea", environment: "/data/p.bin",
                sourceFile: "/src/Sources/Trips/Geocoder.swift") == ["/data/p.bin"])
        #expect(
            PlaceIndex.searchPaths(
                executable: "/opt/x/bin/nmea", environment: nil,
                sourceFile: "/src/Sources/Trips/Geocoder.swift")
                == ["/opt/x/share/nmea/places.bin", "/opt/x/bin/places.bin", "/src/Resources/places.bin"])
        // Built in this package: .build/<triple>/debug/nmea finds Resources/places.bin at the package root.
        let root = Locations.packageRoot
        let paths = PlaceIndex.searchPaths(
            executable: root + "/.build/x86_64-unknown-linux-gnu/debug/nmea",
            environment: nil, sourceFile: "/elsewhere/Sources/Trips/Geocoder.swift")
        #expect(paths[2] == root + "/Resources/places.bin")
        #expect(PlaceIndex.locate() == root + "/Resources/places.bin" || FileSystem.environment("NMEA_PLACES") != nil)
    }
}
