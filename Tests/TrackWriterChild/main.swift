// A child process for the crash tests of the track writers: writes a deterministic simulated track and, after each
// flush, prints on standard output how many fixes had been given to the writer, so the parent knows what the file
// must hold when it kills the child. While a fix is being written (and perhaps flushed), the first byte of
// `OUTPUT.state` (a page shared with the parent through `mmap`) is 1, and 0 otherwise: a SIGKILL leaves it as it was,
// so the parent knows whether the child died inside a write.
//
//     TrackWriterChild gpx|kml|geojson OUTPUT FIXES everyfix|BATCHBYTES PAUSE_MICROSECONDS [points]
import Glibc
import NMEA
import Simulation
import Tracks

let arguments = CommandLine.arguments
guard arguments.count >= 6, let count = Int(arguments[3]), let pause = UInt32(arguments[5]) else {
    fail("usage: TrackWriterChild gpx|kml|geojson OUTPUT FIXES everyfix|BATCHBYTES PAUSE_US [points]", status: 64)
}
let flush: FlushPolicy = arguments[4] == "everyfix" ? .everyFix : .batch(bytes: Int(arguments[4]) ?? 65_536)
// Published at the first point, as a live logger's file is: the guarantee under test is that the file at its path is a
// valid document after every flush.
let track = TrackOptions(splitGapSeconds: 60, flush: flush, publication: .atFirstPoint)
let writer: any TrackWriter
do {
    if arguments[1] == "gpx" {
        writer = try GPXWriter(path: arguments[2], options: track)
    } else if arguments[1] == "kml" {
        writer = try KMLWriter(path: arguments[2], options: track)
    } else {
        writer = try GeoJSONWriter(
            path: arguments[2],
            options: .init(
                track: track, includePoints: arguments.count > 6 && arguments[6] == "points", pointsPerFeature: 50))
    }
} catch {
    fail("\(error)")
}

/// Prints `message` on standard error and exits.
func fail(_ message: String, status: Int32 = 1) -> Never {
    let line = Array("\(message)\n".utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(status)
}

/// Reports `given` fixes as flushed, with one `write(2)` so the parent sees whole lines.
func report(_ given: Int) {
    let line = Array("\(given)\n".utf8)
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

/// The shared page whose first byte says whether a write is in progress.
func mapState(_ path: String) -> UnsafeMutablePointer<UInt8> {
    let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0, ftruncate(fd, 4096) == 0,
        let page = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), page != MAP_FAILED
    else { fail("cannot map \(path): errno \(errno)") }
    close(fd)
    return page.assumingMemoryBound(to: UInt8.self)
}

let writing = mapState(arguments[2] + ".state")
var given = 0
var flushes = 0
for simulated in Scenario.crashTest().fixes().prefix(count) {
    writing.pointee = 1
    do {
        try writer.write(Fix(simulated))
    } catch {
        fail("\(error)")
    }
    writing.pointee = 0
    given += 1
    if writer.statistics.flushes != flushes {
        flushes = writer.statistics.flushes
        report(given)
    }
    if pause > 0 { usleep(pause) }  // pacing under test: a live logger's pause between fixes
}
writing.pointee = 1
do {
    try writer.finish()
} catch {
    fail("\(error)")
}
writing.pointee = 0
report(given)
exit(0)
