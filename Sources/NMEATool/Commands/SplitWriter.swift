import NMEA
import Recording
import Tracks
import Trips

/// `convert --split day|gap:SECONDS|trip`, and `convert --ais -o vessels/{mmsi}.gpx`: one output pattern written as
/// several files, a new one for each UTC day
/// of the fixes (`-o out/%Y-%m-%d.gpx`; without `%Y`/`%m`/`%d`, `-YYYY-MM-DD` goes before the extension), after
/// each gap in the points longer than SECONDS (`-o out/part-%n.gpx`, numbered from 1; without `%n`, `-N` before the
/// extension), or for each trip (`-o out/trip-%n.gpx`, `%Y-%m-%d` the day it began): the fixes from its start to its
/// end, as `nmea trips` finds them, given as ``trips`` before the first fix; fixes outside every trip (at rest) are
/// left out and counted; or for each track of a file of several (``Rule/track``: `{mmsi}` replaced by the track's
/// identifier, at each ``beginTrack(_:)``). Each part is an ordinary writer of its own, finished when the next begins; made with
/// ``Publication/onRequest`` (converting files), the finished parts wait beside their paths and are all put in place
/// by ``publish()``, so a run that fails leaves every day's old file as it was. Memory: one part's writer, and a few
/// hundred bytes for each finished part.
final class SplitWriter: TrackWriter {
    enum Rule: Sendable, Hashable {
        case day
        case gap(seconds: Double)
        case trip
        /// A file per ``TrackLabel``: `{key}` in the pattern (`{mmsi}`) is the label's identifier.
        case track
    }

    let pattern: String
    let rule: Rule
    /// For ``Rule/trip``: the trips to write, in time order.
    var trips: [Trip] = []
    /// For ``Rule/trip``: fixes with a position left out, outside every trip.
    private(set) var fixesOutsideTrips = 0
    private let make: (String) throws(TrackError) -> any TrackWriter
    private var current: (key: String, writer: any TrackWriter)?
    /// Finished parts, to be put in place by ``publish()`` (or removed by ``discard()``).
    private var finishedWriters: [any TrackWriter] = []
    private var finishedStatistics = TrackStatistics()
    private var lastTimestamp: Int64?
    private var part = 0
    /// ``Rule/trip``: the trip whose file is open.
    private var currentTrip: Int?
    private(set) var paths: [String] = []

    init(pattern: String, rule: Rule, make: @escaping (String) throws(TrackError) -> any TrackWriter) {
        self.pattern = pattern
        self.rule = rule
        self.make = make
    }

    var path: String { current?.writer.path ?? pattern }

    var statistics: TrackStatistics {
        var total = finishedStatistics
        if let writer = current?.writer { total.add(writer.statistics) }
        return total
    }

    func write(_ fix: Fix) throws(TrackError) {
        guard fix.hasPosition, !fix.isProvisional else {
            // A break or a provisional fix goes to the part in progress, if any.
            try current?.writer.write(fix)
            return
        }
        let key: String
        switch rule {
        case .day:
            guard let day = OutputName.day(of: fix) else {
                try current?.writer.write(fix)
                return
            }
            key = OutputName.expand(pattern, day: day)
        case .gap(let seconds):
            if current == nil {
                part += 1
            } else if let timestamp = fix.timestamp, let lastTimestamp,
                Double(timestamp - lastTimestamp) / 1e9 > seconds
            {
                part += 1
            }
            if let timestamp = fix.timestamp { lastTimestamp = timestamp }
            key = Self.numbered(pattern, part)
        case .trip:
            try writeInTrip(fix)
            return
        case .track:
            try current?.writer.write(fix)
            return
        }
        try write(fix, to: key)
    }

    /// ``Rule/track``: finishes the part in progress and begins `label`'s file, named by the pattern with `{key}`
    /// replaced by its identifier (the writer gets the label too: a GPX track's name). Other rules hand the label on
    /// to the part in progress.
    func beginTrack(_ label: TrackLabel) throws(TrackError) -> Bool {
        guard rule == .track else { return try current?.writer.beginTrack(label) ?? false }
        try finishCurrent()
        let path = pattern.replacingAll("{\(label.key)}", with: String(label.identifier))
        let writer = try make(path)
        paths.append(path)
        current = (path, writer)
        _ = try writer.beginTrack(label)
        return true
    }

    /// ``Rule/trip``: `fix` into the file of its trip. Trips come in time order, and a trip's file is finished once a
    /// fix after its end arrives, never opened again: a fix older than the trip in progress (a receiver's clock
    /// stepping back) is outside it, and counted, not a reason to start its file afresh. A fix without a time goes to
    /// the trip in progress, as the other rules give it to the part in progress.
    private func writeInTrip(_ fix: Fix) throws(TrackError) {
        guard let timestamp = fix.timestamp else {
            try current?.writer.write(fix)
            return
        }
        while part < trips.count && trips[part].end.timestamp < timestamp { part += 1 }
        if let open = currentTrip, open < part {
            try finishCurrent()  // its trip is over
        }
        guard part < trips.count, timestamp >= trips[part].start.timestamp else {
            fixesOutsideTrips += 1
            return
        }
        if currentTrip != part {
            try write(fix, to: tripPath(part))
            currentTrip = part
        } else {
            try current!.writer.write(fix)
        }
    }

    /// The file of trip `index` (from 0): `%n` its number, `%Y-%m-%d` the day it began.
    private func tripPath(_ index: Int) -> String {
        let numbered = Self.numbered(pattern, index + 1)
        guard pattern.contains("%Y") || pattern.contains("%m") || pattern.contains("%d") else { return numbered }
        return OutputName.expand(numbered, day: UTCDate(containing: trips[index].start.timestamp))
    }

    /// Writes `fix` to the part `key` names. A part finished earlier is never begun again (that would replace it):
    /// fixes of a day that come back after a later day's (logs given out of time order) go to a part of their own,
    /// numbered `-2`, `-3`… before the extension, and ``repeatedParts`` lists it.
    private func write(_ fix: Fix, to key: String) throws(TrackError) {
        if current?.key != key {
            try finishCurrent()
            var path = key
            var again = 1
            while paths.contains(path) {
                again += 1
                path = Self.numbered(key, again)
            }
            if again > 1 { repeatedParts.append(path) }
            let writer = try make(path)
            paths.append(path)
            current = (key, writer)
        }
        try current!.writer.write(fix)
    }

    /// Parts written under a numbered name because their own name was finished already (see ``write(_:to:)``).
    private(set) var repeatedParts: [String] = []

    func flush() throws(TrackError) { try current?.writer.flush() }

    func finish() throws(TrackError) { try finishCurrent() }

    /// Puts every finished part in place, in the order they were written.
    func publish() throws(TrackError) {
        for writer in finishedWriters { try writer.publish() }
    }

    /// `true` once any part is in place.
    var isPublished: Bool { finishedWriters.contains { $0.isPublished } || current?.writer.isPublished == true }

    func discard() {
        current?.writer.discard()
        current = nil
        currentTrip = nil
        for writer in finishedWriters { writer.discard() }
        finishedWriters = []
    }

    private func finishCurrent() throws(TrackError) {
        guard let (_, writer) = current else { return }
        current = nil
        currentTrip = nil
        finishedWriters.append(writer)
        try writer.finish()
        finishedStatistics.add(writer.statistics)
    }

    /// `pattern` with `%n` replaced by `number`; without it, `-number` before the extension.
    static func numbered(_ pattern: String, _ number: Int) -> String {
        if pattern.contains("%n") { return pattern.replacingAll("%n", with: String(number)) }
        guard let dot = pattern.lastIndex(of: "."), !pattern[dot...].contains("/") else {
            return pattern + "-\(number)"
        }
        return String(pattern[..<dot]) + "-\(number)" + String(pattern[dot...])
    }

    /// `--split`'s declaration: a file per UTC day, per trip or after each gap.
    static let option = Option<Rule?>(
        long: "split", valueName: "rule",
        help: "A file per UTC day (day; -o out/%Y-%m-%d.gpx), per trip (trip; -o out/trip-%n.gpx) or after each "
            + "gap (gap:SECONDS; %n numbers)."
    ) { text throws(ValueError) in
        if text == "day" { return .day }
        if text == "trip" { return .trip }
        if text.hasPrefix("gap:"), let seconds = Double(text.dropFirst(4)), seconds > 0, seconds.isFinite {
            return .gap(seconds: seconds)
        }
        throw .invalid(text, because: "expected day, trip or gap:SECONDS (e.g. gap:600)")
    }
}

extension TrackStatistics {
    mutating func add(_ other: TrackStatistics) {
        fixes += other.fixes
        points += other.points
        segments += other.segments
        skipped += other.skipped
        flushes += other.flushes
    }
}
