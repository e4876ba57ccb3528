import Foundation
import NMEA
import TestSupport
import Testing

/// Our fixes give the same points, times and dates as GPSBabel's reference outputs for its NMEA test inputs
/// (`gpsbabel/` in the shared corpus; the commands are in GPSBabel's `testo.d/nmea.test`).
@Suite(.enabled(if: Locations.corpus != nil, "the shared NMEA corpus is absent (set NMEA_CORPUS)"))
struct GoldenGpsbabelTests {
    struct Point: Equatable, CustomStringConvertible {
        var latitude: String
        var longitude: String
        var altitude: String?
        var time: String
        var description: String { "\(time) \(latitude),\(longitude) \(altitude ?? "-")" }
    }

    static var directory: URL { URL(fileURLWithPath: Locations.corpus! + "/gpsbabel") }

    /// Our fixes with a position, formatted as GPSBabel formats them: `decimals` places for coordinates.
    static func ourPoints(
        _ name: String, date: UTCDate? = nil, decimals: Int, altitudeDecimals: Int,
        timeFormat: (Fix) -> String
    ) throws -> [Point] {
        let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
        var framer = Framer()
        var assembler = FixAssembler(options: .init(fallbackDate: date))
        var points: [Point] = []
        func take(_ fix: Fix) {
            guard fix.hasPosition else { return }
            points.append(
                Point(
                    latitude: String(format: "%.\(decimals)f", fix.latitude!),
                    longitude: String(format: "%.\(decimals)f", fix.longitude!),
                    altitude: fix.altitudeMeters.map { String(format: "%.\(altitudeDecimals)f", $0) },
                    time: timeFormat(fix)))
        }
        let handle = { (event: FramerEvent) in
            guard case .sentence(let sentence) = event, let parsed = decodedKeepingFields(sentence) else { return }
            assembler.add(parsed, take)
        }
        framer.feed(bytes, handle)
        framer.finish(handle)
        assembler.finish(take)
        return points
    }

    /// Milliseconds, rounded as GPSBabel rounds them.
    static func milliseconds(_ time: UTCTime) -> Int { Int((Double(time.nanoseconds) / 1e6).rounded()) }

    /// `2004-08-07T03:29:08.379Z`, with milliseconds when they are not zero, as GPSBabel's GPX has it.
    static func gpxTime(_ fix: Fix) -> String {
        guard let date = fix.date, let time = fix.time else { return "-" }
        let fraction = milliseconds(time) > 0 ? String(format: ".%03d", milliseconds(time)) : ""
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(date.year), Int(date.month), Int(date.day),
            Int(time.hour), Int(time.minute), Int(time.second)) + fraction + "Z"
    }

    /// `2019/03/08,23:56:00` with `.mmm` when the time has milliseconds, as GPSBabel's unicsv has it.
    static func csvTime(_ fix: Fix) -> String {
        guard let date = fix.date, let time = fix.time else { return "-" }
        let milliseconds = milliseconds(time)
        return String(
            format: "%04d/%02d/%02d,%02d:%02d:%02d", Int(date.year), Int(date.month), Int(date.day),
            Int(time.hour), Int(time.minute), Int(time.second))
            + (milliseconds > 0 ? String(format: ".%03d", milliseconds) : "")
    }

    static func gpxPoints(_ name: String) throws -> [Point] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        var points: [Point] = []
        for block in text.components(separatedBy: "<trkpt ").dropFirst() {
            func capture(_ pattern: String) -> String? {
                guard let range = block.range(of: pattern, options: .regularExpression) else { return nil }
                let match = String(block[range])
                return match.split(separator: ">").dropFirst().first.map { String($0.split(separator: "<")[0]) }
                    ?? match
            }
            let lat = block.range(of: #"lat="[^"]*""#, options: .regularExpression)
                .map { String(block[$0].dropFirst(5).dropLast()) }!
            let lon = block.range(of: #"lon="[^"]*""#, options: .regularExpression)
                .map { String(block[$0].dropFirst(5).dropLast()) }!
            points.append(
                Point(
                    latitude: lat, longitude: lon, altitude: capture("<ele>[^<]*<"),
                    time: capture("<time>[^<]*<") ?? "-"))
        }
        return points
    }

    static func csvPoints(_ name: String) throws -> [Point] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let rows = text.split(whereSeparator: \.isNewline)
            .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = rows[0].map(String.init)
        func column(_ name: String) -> Int { header.firstIndex(of: name)! }
        return rows.dropFirst().map { row in
            let altitude = header.contains("Altitude") ? String(row[column("Altitude")]) : ""
            return Point(
                latitude: String(row[column("Latitude")]), longitude: String(row[column("Longitude")]),
                altitude: altitude.isEmpty ? nil : altitude,
                time: "\(row[column("Date")]),\(row[column("Time")])")
        }
    }

    /// Differences beyond the last printed digit of each value (coordinates ±1 in the last place; altitudes
    /// ±half a unit, since GPSBabel and printf round halves differently).
    static func compare(_ ours: [Point], _ theirs: [Point]) -> [String] {
        var problems: [String] = []
        if ours.count != theirs.count { problems.append("\(ours.count) points, GPSBabel has \(theirs.count)") }
        func close(_ a: String?, _ b: String?, _ tolerance: (String) -> Double) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            guard let x = Double(a), let y = Double(b) else { return a == b }
            return abs(x - y) <= tolerance(b)
        }
        func lastPlace(_ text: String) -> Double {
            let decimals = text.split(separator: ".").dropFirst().first?.count ?? 0
            return 1.01 * pow(10, -Double(decimals))
        }
        for (index, (mine, expected)) in zip(ours, theirs).enumerated() {
            let same =
                mine.time == expected.time && close(mine.latitude, expected.latitude, lastPlace)
                && close(mine.longitude, expected.longitude, lastPlace)
                && close(mine.altitude, expected.altitude, { lastPlace($0) / 2 + 1e-9 })
            if !same { problems.append("point \(index + 1): ours \(mine) vs GPSBabel \(expected)") }
        }
        return problems
    }

    @Test func nmeaToGPX() throws {
        let ours = try Self.ourPoints("nmea", decimals: 9, altitudeDecimals: 3, timeFormat: Self.gpxTime)
        let problems = Self.compare(ours, try Self.gpxPoints("nmea.gpx"))
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    /// GPSBabel merges each GGA with the RMC that follows it even when the RMC is stamped a quarter or half second
    /// later, so its 26 points carry the GGA's position under the RMC's time. We keep each time's own epoch
    /// (37 fixes, the log's own times, which run backwards twice); every GPSBabel position is one of ours.
    @Test func subSecondTimesKeepTheirOwnEpochs() throws {
        let ours = try Self.ourPoints("nmea+ms.txt", decimals: 9, altitudeDecimals: 3, timeFormat: Self.gpxTime)
            .map {
                Point(
                    latitude: String(format: "%.9f", Double($0.latitude)!),
                    longitude: String(format: "%.9f", Double($0.longitude)!), altitude: $0.altitude,
                    time: $0.time)
            }
        let theirs = try Self.gpxPoints("nmea+ms.gpx")
        #expect(ours.count == 37)
        for point in theirs {
            #expect(
                ours.contains {
                    $0.latitude == point.latitude && $0.longitude == point.longitude
                        && $0.altitude == point.altitude
                }, "GPSBabel's \(point) is not among ours")
        }
    }

    @Test func amodLoggerToGPX() throws {
        let ours = try Self.ourPoints("amod-nmea", decimals: 9, altitudeDecimals: 3, timeFormat: Self.gpxTime)
        let problems = Self.compare(ours, try Self.gpxPoints("amod.gpx"))
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    @Test(arguments: [
        ("adddate.nmea", UTCDate(year: 2019, month: 3, day: 8) as UTCDate?, "adddate.csv"),
        ("backfilldate.nmea", nil, "backfilldate.csv"),
        ("backfilldate2.nmea", nil, "backfilldate2.csv"),
        ("addmultipledaysfwd.nmea", UTCDate(year: 2019, month: 3, day: 8), "addmultipledays.csv"),
        ("addmultipledaysbkw.nmea", nil, "addmultipledays.csv"),
        ("addmultipledaysmid.nmea", nil, "addmultipledays.csv"),
    ])
    func datesToCSV(input: String, date: UTCDate?, expected: String) throws {
        let ours = try Self.ourPoints(input, date: date, decimals: 9, altitudeDecimals: 3, timeFormat: Self.csvTime)
        let problems = Self.compare(ours, try Self.csvPoints(expected))
        #expect(problems.isEmpty, "\(input): \(problems.prefix(5))")
    }

    /// Times written every odd way (`hhmmss`, `hhmmss.`, one to four decimals, padded with spaces) read as GPSBabel
    /// reads them. Two differences, named: GPSBabel writes 00:00:00 for the unreadable times `222515.x`,
    /// `222523.0x` and `.1`, where we reject those sentences (and count them); and GPSBabel's first point is the
    /// first RMC alone and each later point carries the GGA of the second before (its altitude and position lag one
    /// point), where we merge RMC and GGA of the same second. Positions are compared once they stop changing.
    @Test func oddTimeFormats() throws {
        let ours = try Self.ourPoints("nmeadatetime.nmea", decimals: 9, altitudeDecimals: 3, timeFormat: Self.csvTime)
        let theirs = try Self.csvPoints("nmeadatetime.csv").filter { !$0.time.hasSuffix(",00:00:00") }
        #expect(ours.map(\.time) == theirs.map(\.time))
        let problems = Self.compare(Array(ours.dropFirst(6)), Array(theirs.dropFirst(6)))
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
}
