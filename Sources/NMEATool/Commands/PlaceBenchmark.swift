import Glibc
import JSON
import NMEA
import Simulation
import System
import Trips

/// `nmea trips --bench`: how long the place file takes to load, how fast lookups are, and the memory it takes.
enum PlaceBenchmark {
    /// What was measured.
    struct Result {
        var path: String
        var places: Int
        var loadSeconds: Double
        var globeRate = 0.0
        var nearRate = 0.0
        var labelRate = 0.0
        var cachedRate = 0.0
        var residentBefore: Int?
        var residentAfter: Int?
        var resident: Int?
        var peak: Int?
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
    }

    static func run(json: Bool) throws -> Int32 {
        guard let path = PlaceIndex.locate() else {
            throw RuntimeError("no place file (looked for \(PlaceIndex.searchPaths().joined(separator: ", ")))")
        }
        let residentBefore = memory("VmRSS")
        let start = MonotonicTime.now().seconds
        let index: PlaceIndex
        do {
            index = try PlaceIndex(path: path)
        } catch {
            throw RuntimeError("\(error)")
        }
        var result = Result(
            path: path, places: index.count, loadSeconds: MonotonicTime.now().seconds - start,
            residentBefore: residentBefore, residentAfter: memory("VmRSS"))
        let sink = measure(index, into: &result)
        result.peak = memory("VmHWM")
        result.resident = memory("VmRSS")
        Console.standardOutput.write(json ? jsonText(result) : table(result))
        if sink == 42 { Console.error("") }
        return ExitStatus.success
    }

    /// Lookups uniform over the globe (mostly sea: the far-from-everything case) and near places (where vehicles
    /// are: within 20 km of a random place), labels, and labels from the cache; returns a value that depends on
    /// every answer, so that none is optimized away.
    private static func measure(_ index: PlaceIndex, into result: inout Result) -> Int {
        let (globe, near) = samplePoints(index)
        var sink = 0
        func measure(_ points: [(Double, Double)]) -> Double {
            let begin = MonotonicTime.now().seconds
            for point in points { sink &+= index.nearest(latitude: point.0, longitude: point.1).index }
            return Double(points.count) / (MonotonicTime.now().seconds - begin)
        }
        result.globeRate = measure(globe)
        result.nearRate = measure(near)
        let geocoder = OfflineGeocoder(index: index)
        let labelStart = MonotonicTime.now().seconds
        for point in near.prefix(100_000) {
            sink &+= (try? geocoder.placeName(latitude: point.0, longitude: point.1))?.label.utf8.count ?? 0
        }
        result.labelRate = 100_000 / (MonotonicTime.now().seconds - labelStart)
        let cached = CachedGeocoder(
            geocoder,
            cache: GeocodeCache(
                path: nil, identifier: geocoder.identifier,
                warning: { _ in }), warning: { _ in })
        for point in near.prefix(10_000) {
            sink &+= cached.placeName(latitude: point.0, longitude: point.1) == nil ? 0 : 1
        }
        let cachedStart = MonotonicTime.now().seconds
        for _ in 0..<10 {
            for point in near.prefix(10_000) {
                sink &+= cached.placeName(latitude: point.0, longitude: point.1) == nil ? 0 : 1
            }
        }
        result.cachedRate = 100_000 / (MonotonicTime.now().seconds - cachedStart)
        return sink
    }

    /// A million points uniform over the globe, and a million within 20 km of a random place (seeded).
    private static func samplePoints(_ index: PlaceIndex) -> (globe: [(Double, Double)], near: [(Double, Double)]) {
        var random = SplitMix64(seed: 42)
        let count = 1_000_000
        var globe: [(Double, Double)] = []
        var near: [(Double, Double)] = []
        globe.reserveCapacity(count)
        near.reserveCapacity(count)
        for _ in 0..<count {
            globe.append((asin(random.nextSigned()) * 180 / .pi, random.nextSigned() * 180))
            let place = index.coordinates(at: Int(random.next() % UInt64(index.count)))
            let latitude = max(-90, min(90, place.latitude + random.nextSigned() * 0.18))
            var longitude = place.longitude + random.nextSigned() * 0.18 / max(0.05, cos(latitude * .pi / 180))
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            near.append((latitude, longitude))
        }
        return (globe, near)
    }

    /// `--json`: one object and a line ending.
    private static func jsonText(_ result: Result) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("place_file", result.path)
        writer.field("build", result.build)
        writer.field("places", result.places)
        writer.field("file_bytes", fileSize(result.path))
        writer.field("load_ms", result.loadSeconds * 1000, decimals: 1)
        writer.field("lookups_per_second_globe", result.globeRate, decimals: 0)
        writer.field("lookups_per_second_near_places", result.nearRate, decimals: 0)
        writer.field("labels_per_second", result.labelRate, decimals: 0)
        writer.field("cached_labels_per_second", result.cachedRate, decimals: 0)
        writer.field("rss_before_load_kb", result.residentBefore)
        writer.field("rss_after_load_kb", result.residentAfter)
        writer.field("rss_kb", result.resident)
        writer.field("peak_rss_kb", result.peak)
        writer.endObject()
        return writer.string + "\n"
    }

    /// A row per figure.
    private static func table(_ result: Result) -> String {
        func row(_ name: String, _ value: String) -> String {
            name + String(repeating: " ", count: max(1, 34 - name.count)) + value + "\n"
        }
        let path = result.path
        var out = row("place file", "\(path) (\(fileSize(path) ?? 0) bytes, \(result.places) places)")
        out += row("build", result.build)
        out += row("load and tree", DecimalFormatter.string(result.loadSeconds * 1000, decimals: 1) + " ms")
        out += row("lookups/s, random on the globe", rate(result.globeRate))
        out += row("lookups/s, within 20 km of places", rate(result.nearRate))
        out += row("labels/s (lookup + label)", rate(result.labelRate))
        out += row("labels/s from the cache", rate(result.cachedRate))
        out += row("resident before load", kilobytes(result.residentBefore))
        out += row(
            "resident after load",
            kilobytes(result.residentAfter)
                + " (+\(kilobytes((result.residentAfter ?? 0) - (result.residentBefore ?? 0))))")
        out += row("resident at end (test points too)", kilobytes(result.resident))
        return out
    }

    private static func rate(_ perSecond: Double) -> String {
        DecimalFormatter.string(perSecond, decimals: 0) + " ("
            + DecimalFormatter.string(1e6 / perSecond, decimals: 2) + " µs each)"
    }

    private static func kilobytes(_ value: Int?) -> String {
        guard let value else { return "?" }
        return DecimalFormatter.string(Double(value) / 1024, decimals: 1) + " MiB"
    }

    /// A `kB` line of /proc/self/status (`VmRSS`, `VmHWM`).
    static func memory(_ key: String) -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(key + ":") else { continue }
            return Int(text.dropFirst(key.count + 1).filter(\.isNumber))
        }
        return nil
    }

    private static func fileSize(_ path: String) -> Int? {
        (try? FileStatus(path: path))?.size
    }
}
