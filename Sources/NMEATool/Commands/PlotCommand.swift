import NMEA
import Plot
import Tracks
import Trips

/// `nmea plot`: a picture of a track as a self-contained SVG.
enum PlotCommand: Command {
    static let spec = CommandSpec(
        name: "plot",
        abstract: "Draw a track as an SVG picture: map and profile.",
        discussion: """
            Merges the sentences of each epoch into one fix and draws the fixes that have a position: the track on \
            a Web-Mercator map (north up) colored by speed or altitude with its legend, the start (green circle), \
            the end (dark square), the stops, a scale bar and a north arrow, and under the map the speed and \
            altitude over time with the stops shaded. The SVG is self-contained (no scripts, images or fonts to \
            fetch) and small: the track is thinned to the pixel grid, so a day of fixes draws in a few hundred \
            kilobytes at most. The map shows the offline places (cities first, more as the track is smaller: the \
            places the page's map shows for the same view), and each stop is named as 'nmea trips' names it; \
            --no-places leaves both out.
            The distance and the stops are the track's by the rule of 'nmea trips', with the same options and \
            defaults, so both commands give the same figures: a stop is where every fix of --min-stop seconds lay \
            within --min-distance, between two trips. The line breaks where the fix was lost or the time between \
            two fixes exceeds --split-gap. \
            Up to 100,000 points are kept for drawing; longer inputs are thinned evenly as they are read, while \
            totals, extremes and stops are computed from every fix.
            The SVG replaces the output file only once it is complete; an input that cannot be read writes nothing \
            (exit 1), and an input without a position is only a warning (exit 0) with nothing drawn or written.
            """,
        arguments: [SentenceInput.files],
        options: [output, color, width, title, splitGap, PlaceOptions.noPlaces] + TripRuleOptions.options
            + [SentenceInput.date]
            + CleaningOptions.options + SentenceInput.options,
        examples: [
            "nmea plot drive.nmea -o drive.svg",
            "nmea plot day.nmea --color altitude --width 1200 -o day.svg",
            "nmea simulate --duration 300 | nmea plot -o - > drive.svg",
        ])

    private static let output = Option<String>(
        required: "output", short: "o", valueName: "file", help: "Where to write the SVG, or '-' for standard output.",
        completion: .file)
    private static let color = Option<PlotOptions.Coloring>(
        long: "color", valueName: "mode", help: "What colors the track.", default: .speed)
    private static let width = Option<Int>(
        long: "width", valueName: "pixels", help: "Width of the picture (320 to 4000).", default: 800, in: 320...4000)
    private static let title = Option<String?>(
        long: "title", valueName: "text", help: "The picture's title instead of the date and times.")
    private static let splitGap = Option<Double>(
        long: "split-gap", valueName: "seconds", help: "Break the line after a gap longer than this.", default: 60,
        in: 0...1e9)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let output = try arguments.value(Self.output)
        let coloring = try arguments.value(color)
        let width = try arguments.value(Self.width)
        let splitGap = try arguments.value(Self.splitGap)
        let rule = try TripRuleOptions.parse(arguments)
        var cleaner = try CleaningOptions.parse(arguments, splitGapSeconds: splitGap)
        var input = try SentenceInput(arguments, readsSky: false)
        input.readsTracks = true
        try FileIdentity.refuseOverlaps(inputs: input.paths, outputs: [output], arguments)
        var track = PlotTrack(options: .init(splitGapSeconds: splitGap, trips: rule))
        try input.read { TrackCleaner.apply(&cleaner, $0) { track.add($0) } }
        cleaner?.finish { track.add($0) }
        track.finish()
        input.printSummary(command: "nmea plot")
        cleaner?.report(command: "nmea plot")

        guard input.failures.isEmpty else {
            // The picture would lack the unreadable input's track: nothing is written, the old file stays.
            Console.error("nmea plot: \(output): not written (an input could not be read)\n")
            return ExitStatus.failure
        }
        guard track.count > 0 else {
            // Empty input is no error (the rule of every command): one warning, exit 0; nothing to draw.
            let fixes = input.statistics.assembler.fixes
            Console.error(
                "nmea plot: warning: no fix with a position in the input (\(fixes) fix\(fixes == 1 ? "" : "es") "
                    + "without one); nothing to plot, no file written\n")
            return ExitStatus.success
        }
        if coloring == .altitude && track.lowestAltitude == nil {
            Console.error("nmea plot: warning: the input has no altitudes; the track is drawn in one color\n")
        }
        if coloring == .speed && track.fastest == nil {
            Console.error("nmea plot: warning: the input has no speeds or times; the track is drawn in one color\n")
        }
        var options = PlotOptions(width: width, coloring: coloring, title: try arguments.value(title))
        if !arguments.flag(PlaceOptions.noPlaces), let geocoder = PlaceOptions.geocoder(command: "nmea plot") {
            options.stopPlaces = track.stops.map {
                geocoder.placeName(latitude: $0.latitude, longitude: $0.longitude)?.label
            }
            geocoder.save()
            options.places = try? (geocoder.geocoder as? OfflineGeocoder)?.index()
        }
        let svg = TrackPlot.svg(track, options: options)
        try writeOutput(Array(svg.utf8), to: output)
        if input.verbose {
            Console.error(
                "nmea plot: \(output): \(track.count) fixes, \(track.points.count) kept for drawing, "
                    + "\(track.stops.count) stop\(track.stops.count == 1 ? "" : "s"), \(svg.utf8.count) bytes\n")
        }
        return ExitStatus.success
    }
}
