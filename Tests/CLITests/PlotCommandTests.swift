import Foundation
import TestSupport
import Testing

/// `nmea plot` run as a user would, its SVG checked by the tools that read SVG: xmllint (well-formed XML),
/// rsvg-convert (renders without error), and the pixels of the rendering (markers and track where the projection puts
/// them, in the legend's colors).
@Suite struct PlotCommandTests {
    static let hasRenderer = Tools.which("rsvg-convert") != nil && Tools.which("python3") != nil
    static let hasXMLLint = Tools.which("xmllint") != nil

    /// A simulated journey written as NMEA into `directory`.
    static func simulate(_ arguments: [String], in directory: URL, name: String = "log.nmea") throws -> String {
        let path = directory.appendingPathComponent(name).path
        let outcome = try ToolSupport.nmea(["simulate"] + arguments + ["-o", path])
        #expect(outcome.status == 0, "\(outcome.error)")
        return path
    }

    /// Plots `arguments` into `directory/name` and returns the SVG text.
    static func plot(_ arguments: [String], in directory: URL, name: String = "track.svg") throws -> (String, String) {
        let path = directory.appendingPathComponent(name).path
        let outcome = try ToolSupport.nmea(["plot"] + arguments + ["-o", path])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.text == "")
        return (try String(contentsOfFile: path, encoding: .utf8), path)
    }

    /// The fixes of a log, as `nmea parse --fixes` reports them.
    struct FixRecord {
        var latitude: Double
        var longitude: Double
        var speed: Double?
    }

    static func fixes(_ log: String) throws -> [FixRecord] {
        let outcome = try ToolSupport.nmea(["parse", "--fixes", log])
        #expect(outcome.status == 0)
        return outcome.text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let latitude = object["lat"] as? Double, let longitude = object["lon"] as? Double
            else { return nil }
            return FixRecord(latitude: latitude, longitude: longitude, speed: object["speed"] as? Double)
        }
    }

    /// The value of `attribute` on the element with `id`, or the first element that has it.
    static func attribute(_ attribute: String, in svg: String, id: String? = nil) -> String? {
        var text = Substring(svg)
        if let id, let range = svg.range(of: "id=\"\(id)\"") {
            // Back to the element's start, so attributes before the id are found too.
            let start = svg[..<range.lowerBound].lastIndex(of: "<") ?? range.lowerBound
            text = svg[start...]
            text = text[..<(text.firstIndex(of: ">") ?? text.endIndex)]
        }
        guard let range = text.range(of: " \(attribute)=\"") else { return nil }
        let rest = text[range.upperBound...]
        return String(rest[..<rest.firstIndex(of: "\"")!])
    }

    /// Every value of `attribute` in the document.
    static func allValues(of attribute: String, in svg: String) -> [String] {
        svg.components(separatedBy: " \(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// The projection the map group declares: pixel = offset + scale × Web-Mercator world coordinate.
    struct Projection {
        var scale: Double
        var x: Double
        var y: Double

        init(_ svg: String) throws {
            scale = try #require(Double(attribute("data-mercator-scale", in: svg, id: "map") ?? ""))
            x = try #require(Double(attribute("data-mercator-x", in: svg, id: "map") ?? ""))
            y = try #require(Double(attribute("data-mercator-y", in: svg, id: "map") ?? ""))
        }

        /// Web Mercator computed here, independently of the Plot module.
        func pixel(latitude: Double, longitude: Double) -> (Int, Int) {
            let worldX = (longitude + 180) / 360
            let phi = latitude * .pi / 180
            let worldY = 0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)
            return (Int((x + scale * worldX).rounded(.down)), Int((y + scale * worldY).rounded(.down)))
        }
    }

    struct Pixel: Equatable, CustomStringConvertible {
        var red: Int
        var green: Int
        var blue: Int

        init(_ red: Int, _ green: Int, _ blue: Int) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        init?(hex: String) {
            guard hex.hasPrefix("#"), hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) else { return nil }
            self.init(value >> 16, (value >> 8) & 255, value & 255)
        }

        func isClose(to other: Pixel, tolerance: Int = 24) -> Bool {
            abs(red - other.red) <= tolerance && abs(green - other.green) <= tolerance
                && abs(blue - other.blue) <= tolerance
        }

        var description: String { "rgb(\(red), \(green), \(blue))" }
    }

    /// Reads pixels of a PNG with a Python standard-library decoder (zlib, the five PNG filters).
    static let pngReader = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'not a PNG'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            pos += 12 + length
            if kind == b'IHDR':
                width, height, depth, color, _, _, interlace = struct.unpack('>IIBBBBB', body)
                assert depth == 8 and color in (2, 6) and interlace == 0, 'unsupported PNG'
                channels = 4 if color == 6 else 3
            elif kind == b'IDAT':
                idat += body
            elif kind == b'IEND':
                break
        raw = zlib.decompress(idat)
        stride = width * channels
        wanted = [tuple(map(int, a.split(','))) for a in sys.argv[2:]]
        last_row = max([y for _, y in wanted] + [0])
        rows, previous, i = [], bytearray(stride), 0
        for y in range(min(height, last_row + 1)):
            kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
            i += 1 + stride
            for x in range(stride):
                a = line[x - channels] if x >= channels else 0
                b = previous[x]
                c = previous[x - channels] if x >= channels else 0
                if kind == 1: line[x] = (line[x] + a) & 255
                elif kind == 2: line[x] = (line[x] + b) & 255
                elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line)
            previous = line
        print(width, height)
        for x, y in wanted:
            if 0 <= x < width and 0 <= y < height:
                print(*rows[y][x * channels:x * channels + 3])
            else:
                print(-1, -1, -1)
        """

    /// Renders `svg` to PNG with rsvg-convert and returns its size and the colors at `points`.
    static func render(_ svgPath: String, sampling points: [(Int, Int)]) throws
        -> (width: Int, height: Int, pixels: [Pixel])
    {
        let png = svgPath + ".png"
        let rendering = try ToolSupport.run("rsvg-convert", ["-f", "png", "-o", png, svgPath])
        #expect(rendering.status == 0)
        #expect(rendering.error == "", "rsvg-convert: \(rendering.error)")
        let script = svgPath + ".pixels.py"
        try Data(pngReader.utf8).write(to: URL(fileURLWithPath: script))
        let outcome = try ToolSupport.run("python3", [script, png] + points.map { "\($0.0),\($0.1)" })
        #expect(outcome.status == 0, "\(outcome.error)")
        let lines = outcome.text.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        let size = try #require(lines.first)
        let pixels = lines.dropFirst().map { Pixel($0[0], $0[1], $0[2]) }
        return (size[0], size[1], pixels)
    }

    static func validateXML(_ path: String) throws {
        guard hasXMLLint else { return }
        let outcome = try ToolSupport.run("xmllint", ["--noout", path])
        #expect(outcome.status == 0)
        #expect(outcome.error == "", "xmllint: \(outcome.error)")
    }

    // MARK: - Pictures

    @Test(.enabled(if: hasRenderer, "needs rsvg-convert (librsvg2-bin) and python3"))
    func markersAndTrackAreWhereTheProjectionPutsThem() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try Self.simulate(["--duration", "600"], in: directory)
        let (svg, path) = try Self.plot([log], in: directory)
        try Self.validateXML(path)
        let projection = try Projection(svg)
        let fixes = try Self.fixes(log)
        #expect(fixes.count == 600)
        let start = projection.pixel(latitude: fixes[0].latitude, longitude: fixes[0].longitude)
        let end = projection.pixel(latitude: fixes[599].latitude, longitude: fixes[599].longitude)

        // The legend says which color each speed gets.
        let high = try #require(Double(Self.attribute("data-high", in: svg, id: "legend") ?? ""))
        let bins = try #require(Int(Self.attribute("data-bins", in: svg, id: "legend") ?? ""))
        var binColors: [Int: Pixel] = [:]
        for piece in svg.components(separatedBy: "<rect ").dropFirst() where piece.contains("data-bin=\"") {
            let element = String(piece.prefix { $0 != ">" })
            if let bin = Self.attribute("data-bin", in: " " + element).flatMap(Int.init),
                let fill = Self.attribute("fill", in: " " + element).flatMap(Pixel.init(hex:))
            {
                binColors[bin] = fill
            }
        }
        #expect(binColors.count == bins)

        // Fixes well inside the driving legs (45, 50, 70 and 55 km/h), away from the leg ends.
        let samples =
            Array(stride(from: 20, to: 85, by: 8)) + Array(stride(from: 115, to: 160, by: 8))
            + Array(stride(from: 205, to: 310, by: 8)) + Array(stride(from: 470, to: 595, by: 8))
        var points = [start, end]
        points += samples.map { projection.pixel(latitude: fixes[$0].latitude, longitude: fixes[$0].longitude) }
        // Just inside the map's top left corner: nothing drawn there but the map.
        let pieces = svg.components(separatedBy: "<rect ")
        let mapRect = try #require(pieces.first { $0.contains("fill=\"#f4f2ec\"") })
        let mapX = try #require(Self.attribute("x", in: " " + mapRect).flatMap(Double.init))
        let mapY = try #require(Self.attribute("y", in: " " + mapRect).flatMap(Double.init))
        points.append((Int(mapX) + 4, Int(mapY) + 4))
        let rendering = try Self.render(path, sampling: points)
        #expect(rendering.width == 800)
        try #require(rendering.pixels.count == points.count)

        #expect(rendering.pixels[0].isClose(to: Pixel(0x1a, 0x98, 0x50)), "start marker: \(rendering.pixels[0])")
        #expect(rendering.pixels[1].isClose(to: Pixel(0x1b, 0x1b, 0x1b)), "end marker: \(rendering.pixels[1])")
        #expect(rendering.pixels.last!.isClose(to: Pixel(0xf4, 0xf2, 0xec), tolerance: 2), "map background")
        var matches = 0
        var misses: [String] = []
        for (offset, index) in samples.enumerated() {
            let speedKmh = (fixes[index].speed ?? 0) * 3.6
            let bin = min(bins - 1, Int(speedKmh / high * Double(bins)))
            let expected = try #require(binColors[bin])
            let pixel = rendering.pixels[2 + offset]
            if pixel.isClose(to: expected, tolerance: 40) {
                matches += 1
            } else {
                misses.append(
                    "fix \(index) (\(Int(speedKmh)) km/h) at \(points[2 + offset]): \(pixel), "
                        + "expected \(expected)")
            }
        }
        // A label may sit on the odd sample; the track must be under nearly all of them.
        #expect(matches >= samples.count * 9 / 10, "\(misses)")
    }

    @Test(.enabled(if: hasRenderer, "needs rsvg-convert (librsvg2-bin) and python3"))
    func aMinuteAndADayAreBothReadable() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let minute = try Self.simulate(["--duration", "60"], in: directory, name: "minute.nmea")
        let day = try Self.simulate(["--route", "commute", "--profile", "rmc-gga"], in: directory, name: "day.nmea")
        // The day's one stop is the one between its two trips, at work (`nmea trips` lists the same): the hour
        // at home before and the half hour after are where the track begins and ends.
        for (log, scaleBars, stopCount) in [(minute, ["50 m", "100 m", "200 m"], 0), (day, ["5 km", "10 km"], 1)] {
            let (svg, path) = try Self.plot(
                [log], in: directory,
                name: URL(fileURLWithPath: log).lastPathComponent
                    + ".svg")
            try Self.validateXML(path)
            // Text never shrinks below 11 px, whatever the track's length.
            let sizes = Self.allValues(of: "font-size", in: svg).compactMap(Double.init)
            #expect(!sizes.isEmpty && sizes.allSatisfy { $0 >= 11 }, "\(sizes)")
            // A round scale bar that fits the map.
            let scaleLabel = svg.components(separatedBy: "id=\"scale-bar\"")[1]
                .components(separatedBy: "</text>")[0].split(separator: ">").last.map(String.init)
            #expect(scaleBars.contains(scaleLabel ?? ""), "scale bar \(scaleLabel ?? "none")")
            // A handful of time labels, never a crowd.
            let timeLabels = svg.components(separatedBy: "class=\"time-label\"").count - 1
            #expect((3...12).contains(timeLabels), "\(timeLabels) time labels")
            #expect(svg.components(separatedBy: "class=\"stop\"").count - 1 == stopCount)
            // Small, whatever the number of fixes.
            #expect(svg.utf8.count < 200_000, "\(svg.utf8.count) bytes")
            let rendering = try Self.render(path, sampling: [])
            #expect(rendering.width == 800)
            #expect((600...1500).contains(rendering.height), "height \(rendering.height)")
        }
    }

    @Test func stopsAndTimesOfADrive() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try Self.simulate(["--duration", "600"], in: directory)
        // The drive parks for 120 s from 08:05:15 and for 30 s from 08:02:45: by the trip rule's default (every fix
        // of 180 s within 200 m, as `nmea trips`), neither is a stop. (The plot's own rule, gone, marked the first.)
        let (svg, _) = try Self.plot([log], in: directory)
        #expect(Self.allValues(of: "data-duration", in: svg).isEmpty)
        #expect(svg.contains(">6.92 km · 9 min 59 s · max 70 km/h · altitude 520–535 m · 0 stops · 600 fixes</text>"))
        // With --min-stop 120 the first is one, from the first fix at rest to the last (119 s), as `nmea trips
        // --min-stop 120` lists it.
        let (shorter, _) = try Self.plot([log, "--min-stop", "120"], in: directory, name: "shorter.svg")
        #expect(Self.allValues(of: "data-duration", in: shorter) == ["119"])
        #expect(
            Self.allValues(of: "data-start", in: shorter).compactMap(Double.init)
                == [Double(Self.epoch(2026, 11, 30, 8, 5, 15))])
        // Named as nmea trips --min-stop 120 names it, and how long.
        #expect(shorter.contains(">2 km S of Bogenhausen, Bavaria, DE · 1 min 59 s</text>"))
        #expect(shorter.contains(">Stop ≥ 2 min</text>"))
        #expect(
            shorter.contains(">6.73 km · 9 min 59 s · max 70 km/h · altitude 520–535 m · 1 stop · 600 fixes</text>"))
        #expect(svg.contains("<title>Track 2026-11-30, 08:00:00–08:09:59 UTC</title>"))
        #expect(svg.contains(">Start 08:00:00</text>"))
        #expect(svg.contains(">End 08:09:59</text>"))
        #expect(svg.contains("max 70 km/h"))
        // With a longer minimum there is none again.
        let (longer, _) = try Self.plot([log, "--min-stop", "300"], in: directory, name: "longer.svg")
        #expect(Self.allValues(of: "data-duration", in: longer).isEmpty)
    }

    static func epoch(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Int {
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return Int(calendar.date(from: components)!.timeIntervalSince1970)
    }

    @Test func ggaOnlyLogsPlotByTimeOfDay() throws {
        // GGA sends no date and no speed: times are of the day, speeds come from the positions.
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try Self.simulate(["--duration", "300", "--profile", "gga"], in: directory)
        let (svg, path) = try Self.plot([log], in: directory)
        try Self.validateXML(path)
        #expect(svg.contains("<title>Track 08:00:00–08:04:59 UTC</title>"))
        #expect(svg.contains("id=\"speed-line\""))
        #expect(svg.contains("Speed (km/h)"))
        let (dated, _) = try Self.plot([log, "--date", "2026-06-21"], in: directory, name: "dated.svg")
        #expect(dated.contains("<title>Track 2026-06-21, 08:00:00–08:04:59 UTC</title>"))
    }

    @Test func colorModes() throws {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try Self.simulate(["--duration", "300"], in: directory)
        let (altitude, _) = try Self.plot([log, "--color", "altitude"], in: directory, name: "altitude.svg")
        #expect(altitude.contains(">Altitude (m)</text>"))
        #expect(Self.attribute("data-high", in: altitude, id: "legend") != nil)
        let (plain, _) = try Self.plot(
            [log, "--color", "none", "--title", "A <plain> & \"simple\" track"],
            in: directory, name: "plain.svg")
        #expect(Self.attribute("data-high", in: plain, id: "legend") == nil)
        let trackPart = plain.components(separatedBy: "id=\"track\"")[1].components(separatedBy: "</g>")[0]
        #expect(trackPart.components(separatedBy: "<path ").count - 1 == 2)  // the white casing and the line
        #expect(plain.contains("<title>A &lt;plain&gt; &amp; &quot;simple&quot; track</title>"))

        // RMC alone has no altitude: altitude coloring falls back to one color, with a warning.
        let rmc =
            try String(contentsOfFile: log, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { $0.contains("RMC,") }.joined(separator: "\r\n") + "\r\n"
        let outcome = try ToolSupport.nmea(["plot", "-", "--color", "altitude", "-o", "-"], input: Data(rmc.utf8))
        #expect(outcome.status == 0)
        #expect(outcome.error == "nmea plot: warning: the input has no altitudes; the track is drawn in one color\n")
        #expect(outcome.text.hasPrefix("<?xml"))
        #expect(!outcome.text.contains("Altitude (m)"))
    }

    @Test func writesToStandardOutput() throws {
        let simulated = try ToolSupport.nmea(["simulate", "--duration", "120"])
        let outcome = try ToolSupport.nmea(["plot", "-o", "-", "--width", "320"], input: simulated.output)
        #expect(outcome.status == 0)
        #expect(outcome.error == "")
        #expect(outcome.text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
        #expect(outcome.text.contains(" width=\"320\" "))
        #expect(outcome.text.hasSuffix("</svg>\n"))
    }

    @Test func usageAndRuntimeErrors() throws {
        let usage =
            "Usage: nmea plot [<files> ...] -o <file> [--color <mode>] [--width <pixels>] "
            + "[--title <text>] [--split-gap <seconds>] [--no-places] [--min-distance <meters>] [--min-stop <seconds>] "
            + "[--max-gap <seconds>] [--date <YYYY-MM-DD>] " + CleaningUsage.text
            + "[--allow-missing-checksum] [--max-length <n>] [--own-ship] [-v]\n"
            + "  See 'nmea plot --help' for more information.\n"
        let missing = try ToolSupport.nmea(["plot", "log.nmea"])
        #expect(missing.status == 64)
        #expect(missing.error == "Error: Missing expected argument '-o <file>'\n" + usage)
        let color = try ToolSupport.nmea(["plot", "-o", "-", "--color", "rainbow"])
        #expect(color.status == 64)
        #expect(
            color.error.hasPrefix(
                "Error: The value 'rainbow' is invalid for '--color <mode>'. "
                    + "Please provide one of 'speed', 'altitude', 'none'.\n"))
        let width = try ToolSupport.nmea(["plot", "-o", "-", "--width", "100"])
        #expect(width.status == 64)
        #expect(
            width.error.hasPrefix(
                "Error: The value '100' is out of range for '--width <pixels>': expected 320 to 4000\n"))
        let date = try ToolSupport.nmea(["plot", "-o", "-", "--date", "2026-02-30"])
        #expect(date.status == 64)

        let empty = try ToolSupport.nmea(["plot", "-o", "-"], input: Data("\n".utf8))
        // Empty input is no error, in plot as in convert and trips (issue 12, item 15): a warning, exit 0.
        #expect(empty.status == 0)
        #expect(empty.text == "")
        #expect(
            empty.error.hasSuffix(
                "nmea plot: warning: no fix with a position in the input (0 fixes without one); "
                    + "nothing to plot, no file written\n"))
        // Input that is no log at all is (issue 25, item 2): exit 1, nothing written.
        let notALog = try ToolSupport.nmea(["plot", "-o", "-"], input: Data("not nmea\n".utf8))
        #expect(notALog.status == 1)
        #expect(notALog.text == "")
        #expect(
            notALog.error.hasPrefix(
                "Error: <stdin>: not an NMEA log, nor a GPX, GeoJSON, KML or CSV track: no NMEA found (no sentence "
                    + "starting with '$' or '!')\n"))
        let unreadable = try ToolSupport.nmea(["plot", "/nonexistent/log.nmea", "-o", "-"])
        #expect(unreadable.status == 1)
        #expect(unreadable.text == "")

        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try Self.simulate(["--duration", "60"], in: directory)
        let unwritable = try ToolSupport.nmea(["plot", log, "-o", log + "/track.svg"])
        #expect(unwritable.status == 1)
        #expect(unwritable.error.hasPrefix("Error: cannot create '\(log)/track.svg': Not a directory"))
        let full = try ToolSupport.nmea(["plot", log, "-o", "/dev/full"])
        #expect(full.status == 1)
        #expect(full.error.hasPrefix("Error: cannot write '/dev/full': "))
    }

    @Test func helpDescribesTheCommand() throws {
        let outcome = try ToolSupport.nmea(["plot", "--help"])
        #expect(outcome.status == 0)
        #expect(outcome.text.hasPrefix("OVERVIEW: Draw a track as an SVG picture"))
        #expect(
            outcome.text.contains("  --color <mode>          What colors the track. (values: speed, altitude, none)"))
        #expect(try ToolSupport.nmea(["help", "plot"]).text == outcome.text)
    }
}
