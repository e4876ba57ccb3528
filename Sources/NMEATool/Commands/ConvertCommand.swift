import Glibc
import NMEA
import System
import Tracks
import Trips

/// `nmea convert`: NMEA logs to GPX, GeoJSON, KML or CSV tracks, several outputs in one pass.
enum ConvertCommand: Command {
    static let spec = CommandSpec(
        name: "convert",
        abstract: "Convert NMEA to GPX, GeoJSON, KML or CSV tracks.",
        discussion: """
            Merges the sentences of each epoch into one fix and writes the fixes that have a position as track \
            points. A new segment begins when the fix is lost or when the time between two fixes exceeds \
            --split-gap. The format follows each output's extension (.gpx, .geojson, .json, .kml, .csv); '-o -' \
            writes to standard output and needs --format. With '{name}' in the outputs' names \
            ('-o tracks/{name}.gpx'), each input gets outputs of its own, named after it without its extensions, \
            and the inputs are converted --jobs at a time, each output and message exactly as with --jobs 1. '--format gpx10' writes GPX 1.0, which keeps each \
            point's <speed> and <course> (GPX 1.1 has them only in an extension). KML has a gx:Track per segment \
            with each point's time, and placemarks for the start, the end and every stop, named by the offline \
            place file as 'nmea trips' names them. CSV has a header row and the --columns asked for. \
            '--split trip' writes each trip, from where it started to where the vehicle came to rest, to a file of \
            its own, found by the rule of 'nmea trips' (--min-distance, --min-stop, --max-gap; they also place the \
            KML's stops); it reads the input twice, so it takes files, not a stream.
            Cleaning (--max-hdop, --min-satellites, --fix, --since, --until, --bbox, --drop-outliers, --stationary, \
            --simplify) happens in the \
            fix stream before every output; what it dropped is summarised on standard error.
            Each output is written under a temporary name beside it (.NAME.partial-PID) and renamed into place: \
            when converting files, once every input has been read, so a failed run (an unreadable input, a full \
            disk, SIGINT or SIGTERM) leaves the old file byte for byte as it was and no temporary file behind; when \
            reading a pipe or a device (a live receiver), at the first fix, after which the file is a complete, \
            valid document after every fix, to be read while it grows. A GPX file killed at any moment holds every \
            fix flushed before; --fsync adds fdatasync after each flush against power cuts. An output that is the \
            same file as an input (or as another output, through links too) is refused. Long \
            GeoJSON tracks are split into line features of 500 points, each starting where the last one ended \
            ("continued": true); every geometry is valid (RFC 7946): a segment without two distinct positions (one \
            fix, or a receiver holding its position) is a Point or MultiPoint feature with its coordTimes, never a \
            line. Rejected lines are counted and summarised on standard error, never fatal.
            """,
        arguments: [SentenceInput.files],
        options: [
            ConvertOutput.outputs, ConvertOutput.format, ConvertOutput.columns, SentenceInput.date, splitGap,
            ConvertOutput.points, fsync, SplitWriter.option, jobs, ConvertAIS.flag,
        ] + TripRuleOptions.options + CleaningOptions.options + SentenceInput.options,
        examples: [
            "nmea convert drive.nmea -o drive.gpx",
            "nmea convert day1.nmea day2.nmea -o days.gpx -o days.geojson --points",
            "nmea convert - -o - --format geojson < capture.nmea > track.geojson",
            "cat /dev/ttyUSB0 | nmea convert -o live.gpx --fsync",
            "nmea convert drive.nmea -o drive.kml -o drive.csv --columns time,lat,lon,speed",
            "nmea convert drive.nmea -o small.gpx --format gpx10 --max-hdop 3 --simplify 5",
            "nmea convert logs/*.nmea.gz -o tracks/{name}.gpx --jobs 2",
            "nmea convert year.nmea -o days/%Y-%m-%d.gpx --split day",
            "nmea convert week.nmea -o trips/%Y-%m-%d-trip-%n.gpx --split trip --min-stop 300",
            "nmea convert --ais harbour.nmea -o vessels.geojson -o vessels.csv",
        ])

    private static let splitGap = Option<Double>(
        long: "split-gap", valueName: "seconds", help: "Start a new segment after a gap longer than this.",
        default: 60, in: 0...1e9)
    private static let fsync = Flag(
        long: "fsync", help: "Sync each flush to disk (fdatasync), for loggers facing power cuts.")
    /// `--jobs`, read by ``ConvertJobs``.
    static let jobs = Option<Int?>(
        long: "jobs", short: "j", valueName: "n",
        help: "Read one file on this many cores; with {name} outputs, convert this many inputs at once (default: "
            + "the number of cores). The outputs are the same.", in: 1...256)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let outputs = try ConvertOutput.parse(arguments)
        if arguments.flag(ConvertAIS.flag) {
            return try ConvertAIS.run(arguments, outputs: outputs, splitGap: try arguments.value(splitGap))
        }
        if outputs.contains(where: { $0.path.contains(ConvertJobs.namePlaceholder) }) {
            return try ConvertJobs.run(arguments, outputs: outputs)
        }
        return try convert(arguments, outputs: outputs)
    }

    /// Converts the inputs (the command's, or `paths`) to `outputs`; the progress bar only when `showsProgress`.
    /// Every input is admitted (``SentenceInput``) before any output is opened, and the outputs are put in place
    /// together (``TrackOutputs``).
    ///
    /// `jobs` is how many threads read one file (``SentenceInput/jobs``; default `--jobs`).
    ///
    /// With `completed`, the outputs are completed but not put in place: they are handed to `completed`, which puts
    /// them in place (or gives them up) with the other inputs' (`{name}` batches).
    static func convert(
        _ arguments: ParsedArguments, outputs: [ConvertOutput], paths: [String]? = nil, showsProgress: Bool = true,
        jobs: Int? = nil, completed: ((TrackOutputs) -> Void)? = nil
    ) throws -> Int32 {
        let splitGap = try arguments.value(Self.splitGap)
        var cleaner = try CleaningOptions.parse(arguments, splitGapSeconds: splitGap)
        var input = try SentenceInput(arguments, readsSky: false, paths: paths)
        input.readsTracks = true
        input.jobs = try jobs ?? arguments.value(Self.jobs) ?? ConvertJobs.processorCount()
        input.handsOffFixes = true
        try FileIdentity.refuseOverlaps(inputs: input.paths, outputs: outputs.map(\.path), arguments)
        let split = try arguments.value(SplitWriter.option)
        if split != nil && outputs.contains(where: { $0.path == "-" }) {
            throw arguments.usageError("'--split' writes files: it cannot write to standard output ('-o -')")
        }
        let tripRule = try TripRuleOptions.parse(arguments)
        let trips = try split == .trip ? findTrips(arguments, input: input, rule: tripRule, splitGap: splitGap) : []
        let files = TrackOutputs(try makeWriters(arguments, outputs, input: input, split: split, trips: trips))
        var marks = outputs.contains { $0.format == .kml } ? KMLMarks(rule: tripRule) : nil
        func write(_ fix: Fix) {
            marks?.add(fix)
            files.write(fix)
        }
        let progress = showsProgress ? makeProgressBar(input.paths) : nil
        if let progress { input.onChunk = progress.fileUpdater() }
        var navigation = Navigation()
        try input.read(handler: &navigation) { TrackCleaner.apply(&cleaner, $0, write) }
        cleaner?.finish(write)
        navigation.add(contentsOf: input.trackNavigation)
        let navigationLeftOut = navigation.isEmpty ? [] : files.writers.filter { !$0.setNavigation(navigation) }
        progress?.clear()
        if var marks, input.failures.isEmpty {
            let placemarks = marks.placemarks()
            for case let kml as KMLWriter in files.writers { placemarks.forEach(kml.addPlacemark) }
        }
        let written: Bool
        if let completed {
            written = files.complete(inputFailed: !input.failures.isEmpty)
            completed(files)
        } else {
            written = files.finish(inputFailed: !input.failures.isEmpty)
        }
        input.printSummary(command: "nmea convert")
        cleaner?.report(command: "nmea convert")
        if written {
            report(files.writers, verbose: input.verbose)
            reportNavigation(navigation, leftOutOf: navigationLeftOut.map(\.path))
            reportContent(input, cleaner: cleaner, outputs: files.writers, split: split, trips: trips)
        }
        return written ? ExitStatus.success : ExitStatus.failure
    }

    /// A writer for each output: one file, or a ``SplitWriter`` making a file per day, gap or trip.
    private static func makeWriters(
        _ arguments: ParsedArguments, _ outputs: [ConvertOutput], input: borrowing SentenceInput,
        split: SplitWriter.Rule?, trips: [Trip]
    ) throws -> [any TrackWriter] {
        let live = input.admission.hasLiveInput
        let track = TrackOptions(
            splitGapSeconds: try arguments.value(splitGap), flush: live ? .everyFix : .conversion,
            sync: arguments.flag(fsync), publication: input.publication)
        let columns = try arguments.value(ConvertOutput.columns)
        let points = arguments.flag(ConvertOutput.points)
        var writers: [any TrackWriter] = []
        for output in outputs {
            if let split {
                let writer = SplitWriter(pattern: output.path, rule: split) { path throws(TrackError) in
                    try ConvertOutput(path: path, format: output.format).makeWriter(
                        track: track, includePoints: points, columns: columns)
                }
                writer.trips = trips
                writers.append(writer)
                continue
            }
            do {
                writers.append(try output.makeWriter(track: track, includePoints: points, columns: columns))
            } catch {
                for writer in writers { writer.discard() }
                // A device or pipe is written in place; a file's temporary copy is gone, the path as it was.
                let status = try? FileStatus(path: output.path)
                throw RuntimeError(error.description(fileIsInPlace: status.map { $0.kind != .regular } ?? false))
            }
        }
        return writers
    }

    /// With `--verbose`: what each output holds.
    private static func report(_ writers: [any TrackWriter], verbose: Bool) {
        guard verbose else { return }
        for writer in writers {
            let statistics = writer.statistics
            var line = "nmea convert: \(writer.path): \(counted(statistics.points, "point")) in "
            line += counted(statistics.segments, "segment")
            if statistics.waypoints + statistics.routes > 0 {
                line += "; \(counted(statistics.waypoints, "waypoint")), \(counted(statistics.routes, "route"))"
            }
            Console.error(line + "\n")
        }
    }

    /// What a written track lacks, said so that an empty or timeless track is never a surprise: no position in the
    /// input, every fix dropped by cleaning, fixes without a date (written without a time, or, split by day, not
    /// written at all), parts of a day written apart.
    private static func reportContent(
        _ input: borrowing SentenceInput, cleaner: TrackCleaner?, outputs: [any TrackWriter], split: SplitWriter.Rule?,
        trips: [Trip]
    ) {
        if split == .trip, let writer = outputs.first as? SplitWriter { reportTrips(trips, writer) }
        for case let writer as SplitWriter in outputs {
            for part in writer.repeatedParts {
                Console.error(
                    "nmea convert: \(part): fixes of a part already written came again (inputs out of time order), "
                        + "so they have a file of their own\n")
            }
        }
        let assembled = input.statistics.assembler
        let points = outputs.map(\.statistics.points).max() ?? 0
        if points == 0 && split != .trip {
            let fixes = assembled.fixes
            let dropped = cleaner.map { $0.dropped.values.reduce(0, +) + $0.removedOutliers } ?? 0
            Console.error(
                dropped > 0 && fixes > 0
                    ? "nmea convert: warning: cleaning dropped every fix (see above); the track is empty\n"
                    : "nmea convert: warning: no fix with a position in the input (\(counted(fixes, "fix")) without "
                        + "one); the track is empty\n")
        }
        if assembled.undatedFixes > 0 && input.fallbackDate == nil {
            let undated = counted(assembled.undatedFixes, "fix")
            Console.error(
                split == .day || split == .trip
                    ? "nmea convert: \(undated) had no date, so no day to be written to, and were left out; "
                        + "--date YYYY-MM-DD gives them one\n"
                    : "nmea convert: \(undated) had no date and were written without a time; --date YYYY-MM-DD "
                        + "gives them one\n")
        }
    }

    /// `--split trip`'s first reading: the trips of `paths`, cleaned as the outputs will be, by the one rule
    /// (`TripLog`, as `nmea trips` finds them). Its messages are dropped: the second reading, which writes, says
    /// the same.
    private static func findTrips(
        _ arguments: ParsedArguments, input: borrowing SentenceInput, rule: TripDetector.Options, splitGap: Double
    ) throws -> [Trip] {
        // Standard input can be read once, even when it is a file.
        if let stream = input.admission.inputs.first(where: { $0.kind != .file || $0.path == "-" })?.path {
            throw arguments.usageError(
                "'--split trip' reads its input twice (to find the trips, then to write them), and '\(stream)' "
                    + "can be read only once: save it to a file first, or use '--split gap:SECONDS'")
        }
        let paths = input.paths
        return try Console.capturingErrors { () throws -> [Trip] in
            var cleaner = try CleaningOptions.parse(arguments, splitGapSeconds: splitGap)
            var input = try SentenceInput(arguments, readsSky: false, paths: paths)
            input.readsTracks = true
            var log = TripLog(options: rule)
            try input.read { TrackCleaner.apply(&cleaner, $0) { _ = log.add($0) } }
            cleaner?.finish { _ = log.add($0) }
            log.finish()
            return log.trips
        }.result
    }

    /// What became of the WPL waypoints and RTE routes: said only when some could not be written.
    private static func reportNavigation(_ navigation: Navigation, leftOutOf paths: [String]) {
        let waypoints = navigation.waypoints.count
        let routes = navigation.routes.count
        let what =
            "\(waypoints) waypoint\(waypoints == 1 ? "" : "s") and \(routes) route\(routes == 1 ? "" : "s")"
        for path in paths {
            let why =
                path.hasSuffix(".csv") ? "CSV holds track points" : "split files and streams hold the track only"
            Console.error("nmea convert: \(path): \(what) left out (\(why))\n")
        }
        if navigation.dropped > 0 {
            Console.error(
                "nmea convert: left out \(navigation.dropped) of the WPL waypoints, RTE routes and route points "
                    + "(no position, a route's sentences out of order, or past the limits)\n")
        }
    }

    /// One line on what `--split trip` wrote (or why nothing).
    private static func reportTrips(_ trips: [Trip], _ writer: SplitWriter) {
        let outside = writer.fixesOutsideTrips
        let left =
            outside == 0 ? "" : "; \(outside) fix\(outside == 1 ? "" : "es") at rest, outside the trips, left out"
        guard let first = writer.paths.first, let last = writer.paths.last else {
            Console.error(
                "nmea convert: warning: no trip in the input (by the trip rule: --min-distance, --min-stop, "
                    + "--max-gap), so no file was written\(left)\n")
            return
        }
        let files =
            writer.paths.count == 1
            ? "1 trip, to \(first)" : "\(trips.count) trips, a file each (\(first) … \(last))"
        Console.error("nmea convert: \(files)\(left)\n")
    }

    /// A progress bar when standard error is a terminal and the input is large enough to wait for.
    private static func makeProgressBar(_ paths: [String]) -> ProgressBar? {
        guard Console.standardErrorIsTerminal else { return nil }
        let bytes = regularFileBytes(paths)
        guard bytes >= 32 << 20 else { return nil }
        return ProgressBar(label: "nmea convert", totalBytes: bytes)
    }
}
