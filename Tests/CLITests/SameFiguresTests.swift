import Foundation
import TestSupport
import Testing

/// `nmea trips`, `nmea plot` and `nmea watch` report the same distance and the same stops for the same log: one trip
/// and stop rule, one distance (Trips' `TripLog`). Each log's figures are also given here, so that three commands
/// agreeing on nothing would not pass.
@Suite(.serialized) struct SameFiguresTests {
    /// A log, the date to give `nmea trips` when it has none, and the figures all three must print.
    struct Log: CustomTestStringConvertible, Sendable {
        var path: String
        var date: String?
        var distance: String
        var trips: Int
        var stops: Int
        var testDescription: String { URL(fileURLWithPath: path).lastPathComponent }
    }

    static let samples = ToolSupport.repository.appendingPathComponent("nmea-samples").path
    static let corpus = Locations.corpus ?? "/nonexistent"

    static let logs: [Log] = [
        Log(path: samples + "/drive.nmea", distance: "6.92 km", trips: 1, stops: 0),
        Log(path: samples + "/commute.nmea", distance: "68.33 km", trips: 2, stops: 1),
        Log(path: samples + "/faulty.nmea", distance: "4.08 km", trips: 1, stops: 0),
        // Logs without speeds (GGA only): slowness from the positions, as speeds would give it (issue 25, item 8).
        Log(path: samples + "/gga-only.nmea", date: "2026-06-21", distance: "4.08 km", trips: 1, stops: 0),
    ]

    /// Three real receivers': a drive with a stop (GP and GL talkers), a drive without checksums on its GGAs, and a
    /// GGA-only log that crosses midnight.
    static let corpusLogs: [Log] = [
        Log(path: corpus + "/aerorust-nmea/nmea1.log", distance: "14.31 km", trips: 2, stops: 1),
        Log(path: corpus + "/leaflet-nmealayer/test.nmea", distance: "2.32 km", trips: 1, stops: 0),
        Log(path: corpus + "/gpsbabel/adddate.nmea", date: "2004-01-01", distance: "7.28 km", trips: 1, stops: 0),
    ]

    /// What `nmea trips` printed: its summary line's figures, and each stop's start (seconds of the day) and
    /// duration.
    struct Figures: Equatable, CustomStringConvertible {
        var distance: String
        var trips: Int
        var stops: [StopFigure]
        var description: String { "\(trips) trips, \(distance), stops \(stops)" }
    }

    struct StopFigure: Equatable, CustomStringConvertible {
        var secondOfDay: Int
        var seconds: Double
        var description: String { "\(secondOfDay) s of the day for \(seconds) s" }
    }

    static func tripsFigures(_ log: Log) throws -> Figures {
        let dated = log.date.map { ["--date", $0] } ?? []
        let table = try ToolSupport.nmea(["trips", "--no-places", log.path] + dated)
        #expect(table.status == 0, "\(table.error)")
        let summary = table.text.split(separator: "\n").last.map(String.init) ?? ""
        // `2 trips, 68.33 km in 1:00:20; 1 stop between them`
        let words = summary.split(separator: " ")
        #expect(words.count >= 5, "\(summary)")
        let trips = Int(words.first ?? "") ?? -1
        let distance = words.count >= 4 ? "\(words[2]) \(words[3])" : ""
        let json = try ToolSupport.nmea(["trips", "--json", "--no-places", log.path] + dated)
        let object = try JSONSerialization.jsonObject(with: json.output) as? [String: Any]
        let stops = (object?["stops"] as? [[String: Any]] ?? []).map { stop in
            let start = stop["start"] as? String ?? ""
            let clock = start.dropFirst(11).prefix(8).split(separator: ":").compactMap { Int($0) }
            return StopFigure(
                secondOfDay: clock.count == 3 ? clock[0] * 3600 + clock[1] * 60 + clock[2] : -1,
                seconds: stop["duration_s"] as? Double ?? -1)
        }
        #expect((object?["trips"] as? [Any])?.count == trips)
        return Figures(distance: distance, trips: trips, stops: stops)
    }

    /// What `nmea plot` drew: the summary's distance, and the stop markers.
    static func plotFigures(_ log: Log, date: String?) throws -> (distance: String, stops: [StopFigure]) {
        let plotted = try ToolSupport.nmea(["plot", log.path, "-o", "-"] + (date.map { ["--date", $0] } ?? []))
        #expect(plotted.status == 0, "\(plotted.error)")
        let svg = plotted.text
        let summary = svg.components(separatedBy: "class=\"summary\">").dropFirst().first ?? ""
        let distance = summary.components(separatedBy: " · ").first ?? ""
        let stops = svg.components(separatedBy: "<circle class=\"stop\"").dropFirst().map { element in
            func value(_ name: String) -> Double {
                let rest = element.components(separatedBy: " \(name)=\"").dropFirst().first ?? ""
                return Double(rest.prefix { $0 != "\"" }) ?? -1
            }
            let start = Int(value("data-start"))
            return StopFigure(secondOfDay: (start % 86_400 + 86_400) % 86_400, seconds: value("data-duration"))
        }
        return (distance, stops)
    }

    func check(_ log: Log) throws {
        let trips = try Self.tripsFigures(log)
        #expect(trips.distance == log.distance)
        #expect(trips.trips == log.trips)
        #expect(trips.stops.count == log.stops)
        let plot = try Self.plotFigures(log, date: log.date)
        #expect(plot.distance == trips.distance)
        #expect(plot.stops == trips.stops)
        if log.date != nil {
            // Without the date the picture times the fixes by the time of day: the same figures.
            let undated = try Self.plotFigures(log, date: nil)
            #expect(undated.distance == trips.distance)
            #expect(undated.stops == trips.stops)
        }
    }

    @Test(arguments: logs) func tripsAndPlotAgreeOnTheSamples(_ log: Log) throws { try check(log) }

    @Test(
        .enabled(if: Locations.corpus != nil, "the shared NMEA corpus is absent (set NMEA_CORPUS)"),
        arguments: corpusLogs)
    func tripsAndPlotAgreeOnRealReceivers(_ log: Log) throws { try check(log) }

    /// The footer of `nmea watch LOG --speed max` once the log has ended: `… · 2 trips · 68.33 km · 1 stop`.
    static func watchFooter(_ log: Log) throws -> String {
        let directory = ToolSupport.temporaryDirectory("watch-figures")
        defer { try? FileManager.default.removeItem(at: directory) }
        let window = try TmuxWindow(
            columns: 120, rows: 30,
            command: WatchCommandTests.paneCommand(
                directory, "\(WatchCommandTests.nmea) watch \(shellQuoted(log.path)) --speed max --no-places"))
        defer { window.stop() }
        let screen = window.waitForScreen(timeout: 30) { $0.last?.contains("end of input") == true } ?? []
        return screen.last?.trimmingCharacters(in: .whitespaces) ?? ""
    }

    @Test(.enabled(if: TmuxWindow.available, "needs tmux (Debian tmux; scripts/test installs it)"))
    func watchAgreesWithTrips() throws {
        let corpus = Locations.corpus != nil ? Self.corpusLogs : []
        for log in Self.logs + corpus {
            let trips = try Self.tripsFigures(log)
            let footer = try Self.watchFooter(log)
            var expected = (trips.trips == 1 ? "1 trip" : "\(trips.trips) trips") + " · " + trips.distance
            if trips.trips > 1 {
                expected += " · " + (trips.stops.count == 1 ? "1 stop" : "\(trips.stops.count) stops")
            }
            #expect(footer.hasSuffix(" rejected · " + expected), "\(log.testDescription): \(footer)")
        }
    }
}
