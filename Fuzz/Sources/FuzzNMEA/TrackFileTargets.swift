import NMEA
import Tracks

#if canImport(Glibc)
    import Glibc
#endif

/// The readers of other apps' track files (GPX, GeoJSON, KML, CSV), the inputs that could destroy a user's file by
/// a wrong reading. Each input is read whole and in chunks (of a size from its hash): the same fixes, waypoints and
/// error either way, every position in range. Then the publication rule, as `nmea convert` applies it: the fixes
/// go to a GPX output that replaces a file holding `keep`, completed beside it and put in place only when the
/// reading succeeded; a reading that failed leaves `keep` byte for byte, one that succeeded leaves a document with
/// exactly its points.
func fuzzTrackFile(_ format: TrackFileReader.Format, _ input: UnsafeRawBufferPointer) {
    let whole = readTrack(format, input, chunk: max(input.count, 1))
    let chunk = 1 + Int(fnv1a(input) % 97)
    let chunked = readTrack(format, input, chunk: chunk)
    require(whole == chunked, "\(format.rawValue): chunks of \(chunk) read differently:\n\(whole)\nvs\n\(chunked)")
    for fix in whole.fixes where fix.latitude != nil {
        require(
            fix.latitude!.isFinite && fix.longitude!.isFinite && abs(fix.latitude!) <= 90
                && abs(fix.longitude!) <= 180, "\(format.rawValue): a position out of range")
    }
    publish(whole, format)
}

/// What a reading gave: its fixes, its waypoint names, its counters, and its error.
struct TrackReading: Equatable, CustomStringConvertible {
    var fixes: [Fix] = []
    var waypoints: [String] = []
    var statistics = TrackReadStatistics()
    var error: TrackReadError?

    var description: String {
        "\(fixes.count) fixes, waypoints \(waypoints), \(statistics), error \(error.map(String.init(describing:)) ?? "none")"
    }
}

func readTrack(_ format: TrackFileReader.Format, _ input: UnsafeRawBufferPointer, chunk: Int) -> TrackReading {
    var reading = TrackReading()
    var reader = TrackFileReader(format: format)
    do throws(TrackReadError) {
        var offset = 0
        while offset < input.count {
            let end = min(offset + chunk, input.count)
            try reader.read(UnsafeRawBufferPointer(rebasing: input[offset..<end])) { reading.fixes.append($0) }
            offset = end
        }
        try reader.finish { reading.fixes.append($0) }
    } catch {
        reading.error = error
    }
    reading.statistics = reader.statistics
    reading.waypoints = reader.navigation.waypoints.map(\.name)
    let positioned = reading.fixes.filter(\.hasPosition).count
    require(
        reading.error != nil || positioned == reading.statistics.points,
        "\(format.rawValue): \(positioned) fixes with a position, \(reading.statistics.points) counted")
    return reading
}

/// The directory of this process's outputs.
let outputDirectory: String = {
    let path = "/tmp/nmea-fuzz-\(getpid())"
    mkdir(path, 0o700)
    return path
}()

/// The publication rule over `reading`'s outcome (see ``fuzzTrackFile(_:_:)``).
func publish(_ reading: TrackReading, _ format: TrackFileReader.Format) {
    let path = outputDirectory + "/out.gpx"
    let keep: [UInt8] = Array("keep\n".utf8)
    writeFile(path, keep)
    do throws(TrackError) {
        let writer = try GPXWriter(path: path, options: TrackOptions(publication: .onRequest))
        for fix in reading.fixes { try writer.write(fix) }
        if reading.error != nil {
            writer.discard()
            require(readFile(path) == keep, "\(format.rawValue): a failed reading replaced the output")
            return
        }
        try writer.finish()
        require(readFile(path) == keep, "\(format.rawValue): the output was replaced before it was published")
        try writer.publish()
        let text = readFile(path)
        let points = occurrences(of: Array("<trkpt ".utf8), in: text)
        require(points == writer.statistics.points, "\(format.rawValue): \(points) points written, not all")
        require(text.suffix(7) == Array("</gpx>\n".utf8), "\(format.rawValue): the document is not complete")
    } catch {
        fail("\(format.rawValue): writing the track failed: \(error)")
    }
}

func readFile(_ path: String) -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return [] }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { return bytes }
        bytes += buffer[..<count]
    }
}

func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
    guard haystack.count >= needle.count else { return 0 }
    var count = 0
    var index = 0
    while index <= haystack.count - needle.count {
        if haystack[index] == needle[0] && Array(haystack[index..<index + needle.count]) == needle {
            count += 1
            index += needle.count
        } else {
            index += 1
        }
    }
    return count
}
