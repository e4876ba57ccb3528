import Glibc
import NMEA
import System

/// When a recording starts new files.
public enum Rotation: Sendable, Hashable {
    /// One set of files for the whole run, named as given and opened at the start.
    case none
    /// A new set of files for each UTC day, each opened when the first fix of its day arrives (never before: a
    /// receiver's fix, not the system clock, names the day). The date goes into every name: `%Y`, `%m` and `%d` in
    /// it are replaced, or `-YYYY-MM-DD` goes before the extension.
    case daily
}

/// The name of one output of a recording: a path, or with ``Rotation/daily`` a pattern that each day fills in.
public struct OutputName: Sendable, Hashable {
    /// The path as given; with rotation it may hold `%Y`, `%m` and `%d`.
    public var pattern: String
    public var rotation: Rotation

    public init(_ pattern: String, rotation: Rotation = .none) {
        self.pattern = pattern
        self.rotation = rotation
    }

    /// The path for `day`: the pattern itself without rotation.
    public func path(for day: UTCDate) -> String {
        rotation == .daily ? OutputName.expand(pattern, day: day) : pattern
    }

    /// The day a fix opens files for (and, rotated, names them after): its date, for a final fix with a position.
    /// Provisional and position-less fixes (a receiver's default date before it knows the time) never name a day.
    public static func day(of fix: Fix) -> UTCDate? {
        fix.isProvisional || !fix.hasPosition ? nil : fix.date
    }

    /// `pattern` with `%Y`, `%m`, `%d` replaced by `day`; without them, `-YYYY-MM-DD` before the extension.
    public static func expand(_ pattern: String, day: UTCDate) -> String {
        let year = String(day.year)
        let month = (day.month < 10 ? "0" : "") + String(day.month)
        let dayOfMonth = (day.day < 10 ? "0" : "") + String(day.day)
        if pattern.contains("%Y") || pattern.contains("%m") || pattern.contains("%d") {
            return pattern.replacing("%Y", with: year).replacing("%m", with: month).replacing("%d", with: dayOfMonth)
        }
        let stamp = "\(year)-\(month)-\(dayOfMonth)"
        guard let dot = pattern.lastIndex(of: "."), !pattern[dot...].contains("/") else { return pattern + "-" + stamp }
        return String(pattern[..<dot]) + "-" + stamp + String(pattern[dot...])
    }

    /// `path`, or `path` with `-1`, `-2`… before its extension when a regular file is already there: a logger
    /// never overwrites a track (a restart on the same day starts a new file). Devices are written as named.
    public static func freshPath(_ path: String) -> String {
        guard (try? FileStatus(path: path))?.kind == .regular else { return path }
        let dot = path.lastIndex(of: ".").flatMap { path[$0...].contains("/") ? nil : $0 } ?? path.endIndex
        var number = 1
        while true {
            let candidate = String(path[..<dot]) + "-\(number)" + String(path[dot...])
            if (try? FileStatus(path: candidate, followingSymbolicLinks: false)) == nil { return candidate }
            number += 1
        }
    }

    /// Why files could not be made in the pattern's directory, when that directory does not depend on the day
    /// (checked at the start, since rotated files are only opened with the first fix); `nil` when they can.
    public var directoryProblem: String? {
        guard rotation == .daily else { return nil }
        let slash = pattern.lastIndex(of: "/")
        let directory = slash.map { $0 == pattern.startIndex ? "/" : String(pattern[..<$0]) } ?? "."
        guard !directory.contains("%") else { return nil }
        guard (try? FileStatus(path: directory))?.kind == .directory else {
            return "cannot create '\(pattern)': \(Errno.noSuchFileOrDirectory) ('\(directory)')"
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            return "cannot create '\(pattern)': \(Errno.current) ('\(directory)')"
        }
        return nil
    }
}
