import AIS
import NMEA
import Tracks

/// `nmea convert --ais`: a track per vessel from the AIS position reports of the inputs.
///
/// Every position report (types 1–3, 9, 18, 19, 27; own ship's too) is a point of its station's track, at its
/// sentence's receive time when the log gives one (a TAG block's `c:`, a leading Unix timestamp), else with no time.
/// The points go through a ``TrackSorter``, which holds at most 262,144 of them (14 MiB) and keeps the rest in sorted
/// runs in unnamed files beside the output, so an archive of any length converts in bounded memory; what grows with
/// the input is one name per vessel (bounded by the number of stations, not of messages). The tracks come out in MMSI
/// order: GPX a `trk` per vessel named after it, GeoJSON features with its `mmsi` and `name`, CSV rows that begin
/// with them; with `{mmsi}` in an output's name, a file per vessel (``SplitWriter/Rule/track``), all put in place
/// at the end.
enum ConvertAIS {
    static let flag = Flag(
        long: "ais",
        help: "A track per vessel from the AIS position reports (!AIVDM, !AIVDO): GPX tracks named by vessel, GeoJSON "
            + "features and CSV rows with its mmsi and name.")

    static func run(_ arguments: ParsedArguments, outputs: [ConvertOutput], splitGap: Double) throws -> Int32 {
        if outputs.contains(where: { $0.format == .kml }) {
            throw arguments.usageError("'--ais' writes GPX, GeoJSON or CSV: a KML file holds one track")
        }
        if try arguments.value(SplitWriter.option) != nil {
            throw arguments.usageError(
                "'--ais' writes a track per vessel: for a file per vessel, put {mmsi} in the output's name")
        }
        var input = try SentenceInput(arguments, assemblesFixes: false)
        input.jobs = try arguments.value(ConvertCommand.jobs) ?? ConvertJobs.processorCount()
        try FileIdentity.refuseOverlaps(inputs: input.paths, outputs: outputs.map(\.path), arguments)
        let sorter = TrackSorter(
            beside: outputs[0].path, memoryPoints: TestSettings.sortPoints ?? TrackSorter.defaultMemoryPoints)
        var collector = Collector(sorter: sorter)
        // A run that cannot be written (a full disk) fails the command: the reading stops there.
        try input.read(handler: &collector, isCancelled: { sorter.failure != nil }, { _ in })
        if let error = sorter.failure { throw RuntimeError(error.description(fileIsInPlace: false)) }
        let track = TrackOptions(splitGapSeconds: splitGap, flush: .conversion, publication: input.publication)
        let columns = try arguments.value(ConvertOutput.columns)
        var writers: [any TrackWriter] = []
        for output in outputs {
            do {
                if output.path.contains("{mmsi}") {
                    writers.append(
                        SplitWriter(pattern: output.path, rule: .track) { path throws(TrackError) in
                            try ConvertOutput(path: path, format: output.format).makeWriter(
                                track: track, includePoints: false, columns: columns, labelKey: "mmsi")
                        })
                    continue
                }
                writers.append(
                    try output.makeWriter(track: track, includePoints: false, columns: columns, labelKey: "mmsi"))
            } catch {
                for writer in writers { writer.discard() }
                throw RuntimeError(error.description(fileIsInPlace: false))
            }
        }
        let files = TrackOutputs(writers)
        var vessels = 0
        var points = 0
        var current: UInt64?
        do {
            try sorter.finish { point in
                if point.track != current {
                    current = point.track
                    vessels += 1
                    let mmsi = Int(point.track)
                    files.beginTrack(TrackLabel(key: "mmsi", identifier: mmsi, name: collector.names[mmsi]))
                }
                points += 1
                files.write(Self.fix(point))
            }
        } catch {
            files.giveUp(because: "its points could not be read back")
            throw RuntimeError(error.description(fileIsInPlace: false))
        }
        let written = files.finish(inputFailed: !input.failures.isEmpty)
        Console.error("nmea convert: \(counted(vessels, "vessel")), \(counted(points, "position"))\n")
        collector.reading.ais.report(command: "nmea convert")
        input.printSummary(command: "nmea convert")
        return written && input.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// A point as a fix: its time when known, a 2D position, speed and course.
    static func fix(_ point: TrackSorter.Point) -> Fix {
        var fix = blank
        fix.latitude = point.latitude
        fix.longitude = point.longitude
        fix.speed = point.speed.isNaN ? nil : point.speed
        fix.courseDegrees = point.course.isNaN ? nil : point.course
        if point.receivedMilliseconds != .min {
            let nanoseconds = point.receivedMilliseconds * 1_000_000
            let moment = UTCDate.moment(nanosecondsSinceEpoch: nanoseconds, fractionDigits: 3)
            fix.date = moment.date
            fix.time = moment.time
        }
        return fix
    }

    /// What every point's fix starts from: copied, where making a fix anew fills its list of 64 satellites again.
    private static let blank = Fix(quality: .gps, mode: .twoD)

    /// Each station's positions into the sorter, its name when a message gives one: on every core, each message
    /// read into its station, name and point where it was assembled.
    struct Collector: AISMessageTaker {
        /// What a track wants of one message.
        struct Taken {
            let mmsi: Int
            let name: String?
            let point: TrackSorter.Point?
        }

        var reading = AISReading<Taken>()
        let sorter: TrackSorter
        var names: [Int: String] = [:]

        init(sorter: TrackSorter, reading: AISReading<Taken> = AISReading()) {
            self.sorter = sorter
            self.reading = reading
        }

        /// A worker's: it reads messages, and never adds to the sorter.
        func makePieceHandler() -> Self { Self(sorter: sorter, reading: .worker) }

        static func read(_ message: borrowing AISMessage, receivedMilliseconds: Int64?) -> Taken {
            let mmsi = message.mmsi
            let point = message.trackPoint.map { track in
                TrackSorter.Point(
                    track: UInt64(mmsi), latitude: track.latitude, longitude: track.longitude,
                    receivedMilliseconds: receivedMilliseconds, speed: track.speed, course: track.course)
            }
            return Taken(mmsi: mmsi, name: message.shipName, point: point)
        }

        mutating func take(_ taken: consuming Taken) {
            guard sorter.failure == nil else { return }
            if let name = taken.name { names[taken.mmsi] = name }
            guard let point = taken.point else { return }
            // A run that cannot be written is kept as the sorter's failure, which ends the reading.
            try? sorter.append(point)
        }
    }
}
