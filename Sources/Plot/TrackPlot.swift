import Glibc
import Trips

/// How a picture is drawn.
public struct PlotOptions: Sendable {
    /// What colors the track.
    public enum Coloring: String, Sendable, CaseIterable {
        case speed, altitude, none
    }

    /// The picture's width in pixels; the height follows from the track's shape.
    public var width: Int
    public var coloring: Coloring
    /// The first line of the picture; by default the date and times of the track.
    public var title: String?

    public init(width: Int = 800, coloring: Coloring = .speed, title: String? = nil) {
        self.width = width
        self.coloring = coloring
        self.title = title
    }
}

/// Draws a ``PlotTrack`` as a self-contained SVG document: a header, the map (Web Mercator, north up) with the track
/// colored by speed or altitude, start, end and stop markers, a scale bar and a north arrow, a legend, and a profile
/// of speed and altitude over time.
///
/// The SVG uses no scripts, images, external fonts or references. The map group carries its projection as
/// `data-mercator-scale`, `data-mercator-x` and `data-mercator-y`: a point at world coordinates (x, y) of
/// ``WebMercator`` is drawn at pixel (`data-mercator-x` + scale·x, `data-mercator-y` + scale·y).
public enum TrackPlot {
    /// The SVG text. The track should have been ``PlotTrack/finish()``ed.
    public static func svg(_ track: PlotTrack, options: PlotOptions = PlotOptions()) -> String {
        var renderer = Renderer(track: track, options: options)
        return renderer.render()
    }
}

/// Colors and sizes shared by the parts of the picture.
enum Palette {
    static let background = "#ffffff"
    static let map = "#f4f2ec"
    static let mapBorder = "#c9c4b6"
    static let text = "#222222"
    static let mutedText = "#5c5c5c"
    static let grid = "#e4e4e4"
    static let frame = "#9a9a9a"
    static let start = RGB(0x1a, 0x98, 0x50)
    static let end = RGB(0x1b, 0x1b, 0x1b)
    static let stop = RGB(0x7b, 0x32, 0x94)
    static let stopSpan = "#d9c2e8"
    static let plainTrack = RGB(0x1f, 0x5f, 0xa8)
    static let speedLine = "#2c7bb6"
    static let altitudeLine = "#8c6d31"
    static let altitudeFill = "#e3d6bb"
}

/// An axis-aligned rectangle in pixels.
struct Box {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    var right: Double { x + width }
    var bottom: Double { y + height }

    func intersects(_ other: Box) -> Bool {
        x < other.right && other.x < right && y < other.bottom && other.y < bottom
    }

    func contains(_ other: Box) -> Bool {
        other.x >= x && other.right <= right && other.y >= y && other.bottom <= bottom
    }
}

struct Renderer {
    let track: PlotTrack
    let options: PlotOptions
    let width: Double
    /// The base font size; every size is a multiple of it, so a wide picture is not a picture of tiny text.
    let font: Double
    let small: Double
    let margin: Double
    let coloring: PlotOptions.Coloring
    var svg = SVGWriter()

    init(track: PlotTrack, options: PlotOptions) {
        self.track = track
        self.options = options
        width = Double(min(max(options.width, 200), 10_000))
        font = min(18, max(11, width / 64))
        small = max(11, font * 0.88)
        margin = (font * 1.2).rounded()
        var coloring = options.coloring
        if coloring == .altitude && track.lowestAltitude == nil { coloring = .none }
        if coloring == .speed && track.fastest == nil { coloring = .none }
        self.coloring = coloring
    }

    /// Estimated width of `text` at `size`: DejaVu Sans averages a little under 0.6 em per character.
    func textWidth(_ text: String, size: Double) -> Double { Double(text.unicodeScalars.count) * size * 0.6 }

    var hasTimes: Bool { track.earliestTime != nil && track.latestTime != nil }

    mutating func render() -> String {
        var y = margin
        y = drawHeader(top: y)
        let map = drawMap(top: y)
        y = map.bottom + font * 0.9
        y = drawLegend(top: y)
        if hasTimes { y = drawProfile(top: y + font * 0.6) }
        let height = (y + margin).rounded(.up)

        var document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let w = SVGWriter.number(width)
        let h = SVGWriter.number(height)
        document +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(w)\" height=\"\(h)\" "
            + "viewBox=\"0 0 \(w) \(h)\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" "
            + "font-size=\"\(SVGWriter.number(font))\" fill=\"\(Palette.text)\">\n"
        document += " <title>" + SVGWriter.escape(titleText) + "</title>\n"
        document +=
            " <style>.halo{paint-order:stroke;stroke:#ffffff;stroke-width:3px;stroke-linejoin:round}"
            + ".line{fill:none;stroke-linecap:round;stroke-linejoin:round}</style>\n"
        document += " <rect width=\"100%\" height=\"100%\" fill=\"\(Palette.background)\"/>\n"
        document += svg.text
        document += "</svg>\n"
        return document
    }

    // MARK: - Header

    var titleText: String {
        if let title = options.title { return title }
        guard let start = track.earliestTime, let end = track.latestTime else { return "Track" }
        let withSeconds = end - start < 600
        let startClock = TimeText.clock(start, withSeconds: withSeconds)
        let endClock = TimeText.clock(end, withSeconds: withSeconds)
        guard track.hasDate else { return "Track \(startClock)–\(endClock) UTC" }
        let startDate = TimeText.date(start)
        let endDate = TimeText.date(end)
        if startDate == endDate { return "Track \(startDate), \(startClock)–\(endClock) UTC" }
        return "Track \(startDate) \(startClock) – \(endDate) \(endClock) UTC"
    }

    var summaryParts: [String] {
        var parts = [TripText.distance(track.distanceMeters)]
        if let start = track.earliestTime, let end = track.latestTime {
            parts.append(NiceScale.durationLabel(end - start))
        }
        if let fastest = track.fastest?.speed {
            parts.append(
                "max " + SVGWriter.number(fastest * 3.6, maximumDecimals: fastest * 3.6 < 10 ? 1 : 0)
                    + " km/h")
        }
        if let low = track.lowestAltitude, let high = track.highestAltitude {
            parts.append(
                "altitude " + SVGWriter.number(low, maximumDecimals: 0) + "–"
                    + SVGWriter.number(high, maximumDecimals: 0) + " m")
        }
        if hasTimes { parts.append("\(track.stops.count) stop" + (track.stops.count == 1 ? "" : "s")) }
        parts.append("\(track.count) fix" + (track.count == 1 ? "" : "es"))
        return parts
    }

    /// Title and summary lines; returns the y below them.
    mutating func drawHeader(top: Double) -> Double {
        let titleSize = (font * 1.35).rounded()
        var baseline = top + titleSize * 0.8
        // The title wrapped at spaces (at most three lines), the summary at its separators.
        let titleWords = titleText.split(separator: " ").map(String.init)
        let titleLines = wrapped(titleWords, separator: " ", size: titleSize).prefix(3)
        for (index, line) in titleLines.enumerated() {
            if index > 0 { baseline += titleSize * 1.2 }
            var attributes = [
                ("x", SVGWriter.number(margin)), ("y", SVGWriter.number(baseline)),
                ("font-size", SVGWriter.number(titleSize)), ("font-weight", "bold"),
            ]
            if index == 0 { attributes.append(("id", "title")) }
            svg.element("text", attributes, content: fitted(line, size: titleSize, width: width - 2 * margin))
        }
        for line in wrapped(summaryParts, separator: " · ", size: font) {
            baseline += font * 1.45
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(margin)), ("y", SVGWriter.number(baseline)),
                    ("fill", Palette.mutedText), ("class", "summary"),
                ], content: line)
        }
        return baseline + font * 0.9
    }

    /// `parts` joined with `separator` into as few lines as fit the picture's width.
    func wrapped(_ parts: [String], separator: String, size: Double) -> [String] {
        var lines: [String] = []
        var current = ""
        for part in parts {
            let candidate = current.isEmpty ? part : current + separator + part
            if !current.isEmpty && textWidth(candidate, size: size) > width - 2 * margin {
                lines.append(current)
                current = part
            } else {
                current = candidate
            }
        }
        lines.append(current)
        return lines
    }

    /// `text`, cut with an ellipsis when it would be wider than `width`.
    func fitted(_ text: String, size: Double, width: Double) -> String {
        let maximum = Int(width / (size * 0.6))
        guard text.unicodeScalars.count > maximum, maximum > 1 else { return text }
        return String(text.prefix(maximum - 1)) + "…"
    }

    // MARK: - Map

    /// World bounds of the track, widened to at least `minimumMeters` each way.
    func worldBounds(minimumMeters: Double) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for point in track.points {
            let x = WebMercator.x(longitude: point.longitude)
            let y = WebMercator.y(latitude: point.latitude)
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = max(maxY, y)
        }
        let centerLatitude = WebMercator.latitude(y: (minY + maxY) / 2)
        let minimum = minimumMeters / WebMercator.metersPerUnit(atLatitude: centerLatitude)
        if maxX - minX < minimum {
            let center = (minX + maxX) / 2
            minX = center - minimum / 2
            maxX = center + minimum / 2
        }
        if maxY - minY < minimum {
            let center = (minY + maxY) / 2
            minY = center - minimum / 2
            maxY = center + minimum / 2
        }
        return (minX, minY, maxX, maxY)
    }

    /// The map with everything on it; returns its frame.
    mutating func drawMap(top: Double) -> Box {
        let mapWidth = width - 2 * margin
        // Room around the track for markers and labels; the strips at the top and bottom also hold the north
        // arrow and the scale bar, so the track never runs under them.
        let padding = max(24, font * 2.6)
        let verticalPadding = max(padding, font * 4.2)
        let bounds = worldBounds(minimumMeters: 200)
        let spanX = bounds.maxX - bounds.minX
        let spanY = bounds.maxY - bounds.minY
        let innerWidth = mapWidth - 2 * padding
        let mapHeight = min(mapWidth, max(mapWidth * 0.5, innerWidth * spanY / spanX + 2 * verticalPadding))
            .rounded()
        let frame = Box(x: margin, y: top, width: mapWidth, height: mapHeight)
        let scale = min(innerWidth / spanX, (mapHeight - 2 * verticalPadding) / spanY)
        let offsetX = frame.x + mapWidth / 2 - scale * (bounds.minX + bounds.maxX) / 2
        let offsetY = frame.y + mapHeight / 2 - scale * (bounds.minY + bounds.maxY) / 2
        func project(_ latitude: Double, _ longitude: Double) -> PixelPoint {
            PixelPoint(
                x: offsetX + scale * WebMercator.x(longitude: longitude),
                y: offsetY + scale * WebMercator.y(latitude: latitude))
        }
        let centerLatitude = WebMercator.latitude(y: (bounds.minY + bounds.maxY) / 2)
        let metersPerPixel = WebMercator.metersPerUnit(atLatitude: centerLatitude) / scale

        svg.open(
            "g",
            [
                ("id", "map"), ("data-projection", "web-mercator"), ("data-mercator-scale", SVGWriter.exact(scale)),
                ("data-mercator-x", SVGWriter.exact(offsetX)), ("data-mercator-y", SVGWriter.exact(offsetY)),
            ])
        svg.element(
            "rect",
            [
                ("x", SVGWriter.number(frame.x)), ("y", SVGWriter.number(frame.y)),
                ("width", SVGWriter.number(frame.width)), ("height", SVGWriter.number(frame.height)),
                ("fill", Palette.map), ("stroke", Palette.mapBorder),
            ])
        svg.open("clipPath", [("id", "map-clip")])
        svg.element(
            "rect",
            [
                ("x", SVGWriter.number(frame.x)), ("y", SVGWriter.number(frame.y)),
                ("width", SVGWriter.number(frame.width)), ("height", SVGWriter.number(frame.height)),
            ])
        svg.close("clipPath")
        svg.open("g", [("clip-path", "url(#map-clip)")])
        drawTrack(project: project)
        var labels = LabelPlacer(
            area: Box(
                x: frame.x + 2, y: frame.y + 2, width: frame.width - 4,
                height: frame.height - 4))
        let decorations = drawDecorations(frame: frame, metersPerPixel: metersPerPixel)
        for box in decorations { labels.reserve(box) }
        drawMarkers(project: project, labels: &labels)
        svg.close("g")
        svg.close("g")
        return frame
    }

    /// The value that colors a point, in legend units (km/h or metres).
    func colorValue(_ point: PlotTrack.Point) -> Double? {
        switch coloring {
        case .speed: point.speed.map { $0 * 3.6 }
        case .altitude: point.altitudeMeters
        case .none: nil
        }
    }

    var ramp: ColorRamp? {
        switch coloring {
        case .speed:
            let top = NiceScale.ticks(from: 0, to: max(1, (track.fastest?.speed ?? 0) * 3.6), count: 5).values.last!
            return ColorRamp(stops: ColorRamp.speedStops, binCount: 10, low: 0, high: top)
        case .altitude:
            let (low, high) = altitudeRange
            return ColorRamp(stops: ColorRamp.altitudeStops, binCount: 10, low: low, high: high)
        case .none:
            return nil
        }
    }

    /// Round altitude limits around the track's range, at least 10 m apart.
    var altitudeRange: (Double, Double) {
        var low = track.lowestAltitude ?? 0
        var high = track.highestAltitude ?? 10
        if high - low < 10 {
            let middle = (low + high) / 2
            low = middle - 5
            high = middle + 5
        }
        let ticks = NiceScale.ticks(from: low, to: high, count: 4).values
        return (ticks.first!, ticks.last!)
    }

    /// The track: a white casing, then one path per color bin, each segment thinned to the pixel grid and
    /// simplified (Douglas–Peucker, 0.3 px) so the file stays small whatever the number of fixes.
    mutating func drawTrack(project: (Double, Double) -> PixelPoint) {
        let lineWidth = max(3, font * 0.28)
        let ramp = self.ramp
        let binCount = ramp?.binCount ?? 1
        var bins = [PathData](repeating: PathData(), count: binCount)
        var casing = PathData()
        var segmentStart = 0
        let points = track.points
        var lastValue: Double?
        while segmentStart < points.count {
            var segmentEnd = segmentStart + 1
            while segmentEnd < points.count && !points[segmentEnd].startsSegment { segmentEnd += 1 }
            let segment = points[segmentStart..<segmentEnd]
            let pixels = segment.map { project($0.latitude, $0.longitude) }
            let kept = Simplify.thin(pixels, spacing: 0.75)
            let keptPixels = kept.map { pixels[$0] }
            casing.addLine(Simplify.douglasPeucker(keptPixels, tolerance: 0.3).map { keptPixels[$0] })
            // The color of each kept point: the mean value of the points it stands for.
            var keptBins: [Int] = []
            keptBins.reserveCapacity(kept.count)
            var previousKept = -1
            for index in kept {
                var sum = 0.0
                var n = 0.0
                for raw in (previousKept + 1)...index {
                    if let value = colorValue(segment[segment.startIndex + raw]) {
                        sum += value
                        n += 1
                    }
                }
                if n > 0 { lastValue = sum / n }
                keptBins.append(ramp.map { ramp in lastValue.map(ramp.bin) ?? 0 } ?? 0)
                previousKept = index
            }
            if keptPixels.count == 1 {
                bins[keptBins[0]].addLine(keptPixels)
            } else {
                // Runs of edges with the same color; edge j → j+1 takes the color of point j+1.
                var runStart = 0
                while runStart < keptPixels.count - 1 {
                    let bin = keptBins[runStart + 1]
                    var runEnd = runStart + 1
                    while runEnd + 1 < keptPixels.count && keptBins[runEnd + 1] == bin { runEnd += 1 }
                    let run = Array(keptPixels[runStart...runEnd])
                    bins[bin].addLine(Simplify.douglasPeucker(run, tolerance: 0.3).map { run[$0] })
                    runStart = runEnd
                }
            }
            segmentStart = segmentEnd
        }
        svg.open("g", [("id", "track"), ("class", "line")])
        svg.element(
            "path",
            [
                ("stroke", "#ffffff"), ("stroke-width", SVGWriter.number(lineWidth + 3)),
                ("stroke-opacity", "0.9"), ("d", casing.text),
            ])
        for (index, path) in bins.enumerated() where !path.isEmpty {
            let color = ramp?.color(ofBin: index) ?? Palette.plainTrack
            var attributes = [("stroke", color.hex), ("stroke-width", SVGWriter.number(lineWidth))]
            if ramp != nil { attributes.append(("data-bin", "\(index)")) }
            svg.element("path", attributes + [("d", path.text)])
        }
        svg.close("g")
    }

    /// North arrow and scale bar; returns the boxes they cover (labels keep out of them).
    mutating func drawDecorations(frame: Box, metersPerPixel: Double) -> [Box] {
        var boxes: [Box] = []
        // North arrow, top right. Web Mercator keeps north straight up everywhere.
        let arrowHeight = font * 2.2
        let centerX = frame.right - font * 1.6
        let arrowTop = frame.y + font * 1.9
        let half = font * 0.55
        svg.open("g", [("id", "north-arrow")])
        svg.element(
            "text",
            [
                ("x", SVGWriter.number(centerX)), ("y", SVGWriter.number(arrowTop - font * 0.25)),
                ("text-anchor", "middle"), ("font-weight", "bold"), ("class", "halo"),
            ], content: "N")
        let tip = PixelPoint(x: centerX, y: arrowTop)
        let baseY = arrowTop + arrowHeight * 0.75
        let notchY = arrowTop + arrowHeight * 0.55
        let left = "\(SVGWriter.number(centerX - half)) \(SVGWriter.number(baseY))"
        let right = "\(SVGWriter.number(centerX + half)) \(SVGWriter.number(baseY))"
        let notch = "\(SVGWriter.number(centerX)) \(SVGWriter.number(notchY))"
        let tipText = "\(SVGWriter.number(tip.x)) \(SVGWriter.number(tip.y))"
        svg.element(
            "path",
            [
                ("d", "M\(tipText)L\(right) \(notch)Z"), ("fill", "#333333"), ("stroke", "#333333"),
                ("stroke-linejoin", "round"),
            ])
        svg.element(
            "path",
            [
                ("d", "M\(tipText)L\(left) \(notch)Z"), ("fill", "#ffffff"), ("stroke", "#333333"),
                ("stroke-linejoin", "round"),
            ])
        svg.close("g")
        boxes.append(Box(x: centerX - font, y: frame.y, width: 2 * font, height: baseY - frame.y + 4))

        // Scale bar, bottom left: the longest round distance up to a quarter of the map's width.
        let meters = NiceScale.scaleBarMeters(atMost: frame.width * 0.25 * metersPerPixel)
        let length = meters / metersPerPixel
        let barHeight = max(4, font * 0.42)
        let x = frame.x + font
        let barY = frame.bottom - font * 1.1 - barHeight
        let label = NiceScale.distanceLabel(meters)
        svg.open(
            "g",
            [
                ("id", "scale-bar"), ("data-meters", SVGWriter.number(meters, maximumDecimals: 3)),
                ("data-pixels", SVGWriter.number(length)),
            ])
        let backing = Box(
            x: x - font * 0.5, y: barY - font * 1.6,
            width: max(length, textWidth(label, size: small))
                + font, height: barHeight + font * 2.3)
        svg.element(
            "rect",
            [
                ("x", SVGWriter.number(backing.x)), ("y", SVGWriter.number(backing.y)),
                ("width", SVGWriter.number(backing.width)), ("height", SVGWriter.number(backing.height)),
                ("rx", "3"), ("fill", "#ffffff"), ("fill-opacity", "0.8"),
            ])
        svg.element(
            "rect",
            [
                ("x", SVGWriter.number(x)), ("y", SVGWriter.number(barY)),
                ("width", SVGWriter.number(length / 2)), ("height", SVGWriter.number(barHeight)),
                ("fill", "#333333"),
            ])
        svg.element(
            "rect",
            [
                ("x", SVGWriter.number(x + length / 2)), ("y", SVGWriter.number(barY)),
                ("width", SVGWriter.number(length / 2)), ("height", SVGWriter.number(barHeight)),
                ("fill", "#ffffff"),
            ])
        svg.element(
            "rect",
            [
                ("x", SVGWriter.number(x)), ("y", SVGWriter.number(barY)),
                ("width", SVGWriter.number(length)), ("height", SVGWriter.number(barHeight)),
                ("fill", "none"), ("stroke", "#333333"),
            ])
        svg.element(
            "text",
            [
                ("x", SVGWriter.number(x)), ("y", SVGWriter.number(barY - font * 0.45)),
                ("font-size", SVGWriter.number(small)),
            ], content: label)
        svg.close("g")
        boxes.append(backing)
        return boxes
    }

    /// Stops, then the start and end markers, each labelled where there is room.
    mutating func drawMarkers(project: (Double, Double) -> PixelPoint, labels: inout LabelPlacer) {
        guard let first = track.first, let last = track.last else { return }
        let startPoint = project(first.latitude, first.longitude)
        let endPoint = project(last.latitude, last.longitude)
        let startRadius = (font * 0.6).rounded()
        let endSide = (font * 1.0).rounded()
        let stopRadius = (font * 0.5).rounded()
        labels.reserve(
            Box(
                x: startPoint.x - startRadius, y: startPoint.y - startRadius, width: 2 * startRadius,
                height: 2 * startRadius))
        labels.reserve(Box(x: endPoint.x - endSide / 2, y: endPoint.y - endSide / 2, width: endSide, height: endSide))
        let withSeconds = (track.latestTime ?? 0) - (track.earliestTime ?? 0) < 3600

        svg.open("g", [("id", "stops")])
        let stops = track.stops.map { ($0, project($0.latitude, $0.longitude)) }
        for (stop, point) in stops {
            svg.element(
                "circle",
                [
                    ("class", "stop"), ("cx", SVGWriter.number(point.x)),
                    ("cy", SVGWriter.number(point.y)), ("r", SVGWriter.number(stopRadius)),
                    ("fill", Palette.stop.hex), ("stroke", "#ffffff"), ("stroke-width", "1.5"),
                    ("data-start", SVGWriter.exact(track.seconds(stop.start.timestamp))),
                    ("data-duration", SVGWriter.exact(stop.durationSeconds)),
                ])
            labels.reserve(
                Box(
                    x: point.x - stopRadius, y: point.y - stopRadius, width: 2 * stopRadius,
                    height: 2 * stopRadius))
        }
        svg.close("g")

        svg.open("g", [("id", "markers")])
        svg.element(
            "circle",
            [
                ("id", "start"), ("cx", SVGWriter.number(startPoint.x)),
                ("cy", SVGWriter.number(startPoint.y)), ("r", SVGWriter.number(startRadius)),
                ("fill", Palette.start.hex), ("stroke", "#ffffff"), ("stroke-width", "2"),
            ])
        let dx = endPoint.x - startPoint.x
        let dy = endPoint.y - startPoint.y
        if (dx * dx + dy * dy).squareRoot() < startRadius + endSide / 2 {
            // Back where it started: the end becomes a ring around the start.
            svg.element(
                "circle",
                [
                    ("id", "end"), ("cx", SVGWriter.number(endPoint.x)),
                    ("cy", SVGWriter.number(endPoint.y)),
                    ("r", SVGWriter.number(startRadius + 3.5)), ("fill", "none"),
                    ("stroke", Palette.end.hex), ("stroke-width", "3"),
                ])
        } else {
            svg.element(
                "rect",
                [
                    ("id", "end"), ("x", SVGWriter.number(endPoint.x - endSide / 2)),
                    ("y", SVGWriter.number(endPoint.y - endSide / 2)),
                    ("width", SVGWriter.number(endSide)), ("height", SVGWriter.number(endSide)),
                    ("fill", Palette.end.hex), ("stroke", "#ffffff"), ("stroke-width", "1.5"),
                ])
        }
        let startText = "Start" + (first.time.map { " " + TimeText.clock($0, withSeconds: withSeconds) } ?? "")
        if let placed = labels.place(startText, at: startPoint, clearance: startRadius + 4, size: small) {
            svg.element(
                "text",
                placed.attributes + [
                    ("font-weight", "bold"), ("fill", Palette.start.hex),
                    ("class", "halo"),
                ], content: startText)
        }
        let endText = "End" + (last.time.map { " " + TimeText.clock($0, withSeconds: withSeconds) } ?? "")
        if let placed = labels.place(endText, at: endPoint, clearance: endSide / 2 + 4, size: small) {
            svg.element(
                "text",
                placed.attributes + [
                    ("font-weight", "bold"), ("fill", Palette.end.hex),
                    ("class", "halo"),
                ], content: endText)
        }
        // Stop labels where room is left, longer stops first.
        for (stop, point) in stops.sorted(by: { $0.0.durationSeconds > $1.0.durationSeconds }) {
            let text = NiceScale.durationLabel(stop.durationSeconds)
            if let placed = labels.place(text, at: point, clearance: stopRadius + 3, size: small) {
                svg.element(
                    "text", placed.attributes + [("fill", Palette.stop.hex), ("class", "halo stop-label")],
                    content: text)
            }
        }
        svg.close("g")
    }

    // MARK: - Legend

    /// The color scale (when the track is colored) and the marker symbols; returns the y below them.
    mutating func drawLegend(top: Double) -> Double {
        var legendAttributes = [("id", "legend")]
        if let ramp {
            legendAttributes += [
                ("data-low", SVGWriter.exact(ramp.low)), ("data-high", SVGWriter.exact(ramp.high)),
                ("data-bins", "\(ramp.binCount)"),
            ]
        }
        svg.open("g", legendAttributes)
        var bottom = top + font * 1.6
        var symbolsLeft = margin
        if let ramp {
            let caption = coloring == .speed ? "Speed (km/h)" : "Altitude (m)"
            svg.element(
                "text", [("x", SVGWriter.number(margin)), ("y", SVGWriter.number(top + font))],
                content: caption)
            let barWidth = min(width * 0.45, 360)
            let barTop = top + font * 1.5
            let barHeight = font * 0.8
            let binWidth = barWidth / Double(ramp.binCount)
            for bin in 0..<ramp.binCount {
                svg.element(
                    "rect",
                    [
                        ("x", SVGWriter.number(margin + Double(bin) * binWidth)),
                        ("y", SVGWriter.number(barTop)), ("width", SVGWriter.number(binWidth + 0.3)),
                        ("height", SVGWriter.number(barHeight)),
                        ("fill", ramp.color(ofBin: bin).hex), ("data-bin", "\(bin)"),
                    ])
            }
            svg.element(
                "rect",
                [
                    ("x", SVGWriter.number(margin)), ("y", SVGWriter.number(barTop)),
                    ("width", SVGWriter.number(barWidth)), ("height", SVGWriter.number(barHeight)),
                    ("fill", "none"), ("stroke", Palette.frame), ("stroke-width", "0.5"),
                ])
            let ticks = NiceScale.ticks(from: ramp.low, to: ramp.high, count: barWidth < 250 ? 3 : 5).values
            for value in ticks where value >= ramp.low - 1e-9 && value <= ramp.high + 1e-9 {
                let x = margin + (value - ramp.low) / (ramp.high - ramp.low) * barWidth
                svg.element(
                    "text",
                    [
                        ("x", SVGWriter.number(x)),
                        ("y", SVGWriter.number(barTop + barHeight + small * 1.15)),
                        ("text-anchor", "middle"), ("font-size", SVGWriter.number(small)),
                        ("fill", Palette.mutedText),
                    ],
                    content: SVGWriter.number(value, maximumDecimals: 1))
            }
            bottom = barTop + barHeight + small * 1.5
            symbolsLeft = margin + barWidth + font * 2
        }
        // Symbols, right-aligned when there is room beside the color bar, else on a line of their own.
        let minimum = NiceScale.durationLabel(track.options.trips.stopSeconds)
        let items: [(String, String)] = [("start", "Start"), ("end", "End"), ("stop", "Stop ≥ \(minimum)")]
        let itemWidths = items.map { textWidth($0.1, size: small) + small * 1.6 }
        let total = itemWidths.reduce(0, +) + small * Double(items.count - 1)
        var x: Double
        var baseline: Double
        if width - margin - total >= symbolsLeft {
            x = width - margin - total
            baseline = top + font * 1.5 + font * 0.4 + small * 0.35
        } else {
            x = margin
            baseline = bottom + small
            bottom = baseline + small * 0.6
        }
        for (index, item) in items.enumerated() {
            let cx = x + small * 0.5
            let cy = baseline - small * 0.35
            switch item.0 {
            case "start":
                svg.element(
                    "circle",
                    [
                        ("cx", SVGWriter.number(cx)), ("cy", SVGWriter.number(cy)),
                        ("r", SVGWriter.number(small * 0.45)), ("fill", Palette.start.hex),
                    ])
            case "end":
                svg.element(
                    "rect",
                    [
                        ("x", SVGWriter.number(cx - small * 0.4)), ("y", SVGWriter.number(cy - small * 0.4)),
                        ("width", SVGWriter.number(small * 0.8)), ("height", SVGWriter.number(small * 0.8)),
                        ("fill", Palette.end.hex),
                    ])
            default:
                svg.element(
                    "circle",
                    [
                        ("cx", SVGWriter.number(cx)), ("cy", SVGWriter.number(cy)),
                        ("r", SVGWriter.number(small * 0.4)), ("fill", Palette.stop.hex),
                    ])
            }
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(x + small * 1.3)), ("y", SVGWriter.number(baseline)),
                    ("font-size", SVGWriter.number(small)),
                ], content: item.1)
            x += itemWidths[index] + small
        }
        svg.close("g")
        return bottom
    }

    // MARK: - Profile

    /// Speed and altitude over time, with the stops shaded; returns the y below it.
    mutating func drawProfile(top: Double) -> Double {
        guard let start = track.earliestTime, let latest = track.latestTime else { return top }
        let end = max(latest, start + 1)
        let hasAltitude = track.lowestAltitude != nil
        let left = margin + font * 3.2
        let right = width - margin - (hasAltitude ? font * 3.6 : font * 0.5)
        let plotTop = top + font * 1.6
        let plotHeight = min(320, max(120, width * 0.24)).rounded()
        let bottom = plotTop + plotHeight
        let plotWidth = right - left
        func x(_ time: Double) -> Double { left + (time - start) / (end - start) * plotWidth }

        let speedTicks = NiceScale.ticks(from: 0, to: max(1, (track.fastest?.speed ?? 0) * 3.6), count: 4).values
        let speedTop = speedTicks.last!
        func speedY(_ kmh: Double) -> Double { bottom - kmh / speedTop * plotHeight }
        let (altitudeLow, altitudeHigh) = altitudeRange
        func altitudeY(_ meters: Double) -> Double {
            bottom - (meters - altitudeLow) / (altitudeHigh - altitudeLow) * plotHeight
        }

        svg.open(
            "g",
            [
                ("id", "profile"), ("data-time-start", SVGWriter.exact(start)), ("data-time-end", SVGWriter.exact(end)),
                ("data-left", SVGWriter.number(left)), ("data-width", SVGWriter.number(plotWidth)),
            ])
        svg.element(
            "text",
            [
                ("x", SVGWriter.number(left)), ("y", SVGWriter.number(top + font)),
                ("fill", Palette.speedLine), ("font-weight", "bold"),
            ], content: "Speed (km/h)")
        if hasAltitude {
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(right)), ("y", SVGWriter.number(top + font)),
                    ("fill", Palette.altitudeLine), ("font-weight", "bold"), ("text-anchor", "end"),
                ],
                content: "Altitude (m)")
        }
        // Grid and axis labels.
        for value in speedTicks {
            let y = speedY(value)
            svg.element(
                "line",
                [
                    ("x1", SVGWriter.number(left)), ("x2", SVGWriter.number(right)),
                    ("y1", SVGWriter.number(y)), ("y2", SVGWriter.number(y)), ("stroke", Palette.grid),
                ])
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(left - font * 0.4)), ("y", SVGWriter.number(y + small * 0.35)),
                    ("text-anchor", "end"), ("font-size", SVGWriter.number(small)),
                    ("fill", Palette.speedLine),
                ], content: SVGWriter.number(value, maximumDecimals: 1))
        }
        if hasAltitude {
            for value in NiceScale.ticks(from: altitudeLow, to: altitudeHigh, count: 4).values {
                let y = altitudeY(value)
                svg.element(
                    "text",
                    [
                        ("x", SVGWriter.number(right + font * 0.4)),
                        ("y", SVGWriter.number(y + small * 0.35)), ("font-size", SVGWriter.number(small)),
                        ("fill", Palette.altitudeLine),
                    ],
                    content: SVGWriter.number(value, maximumDecimals: 1))
            }
        }
        let span = end - start
        let step = NiceScale.timeStep(span: span, maximumTicks: max(2, Int(plotWidth / (small * 7.5))))
        let withSeconds = step < 60
        let multiDay = step >= 86_400
        var tick = (start / step).rounded(.up) * step
        var timeLabels = 0
        svg.open("g", [("id", "time-axis"), ("data-step", SVGWriter.number(step, maximumDecimals: 0))])
        while tick <= end + 1e-6 {
            let tx = x(tick)
            svg.element(
                "line",
                [
                    ("x1", SVGWriter.number(tx)), ("x2", SVGWriter.number(tx)),
                    ("y1", SVGWriter.number(plotTop)), ("y2", SVGWriter.number(bottom + 4)),
                    ("stroke", Palette.grid),
                ])
            let label =
                multiDay
                ? (track.hasDate ? TimeText.monthDay(tick) : "day \(Int(tick / 86_400) + 1)")
                : TimeText.clock(tick, withSeconds: withSeconds)
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(tx)), ("y", SVGWriter.number(bottom + small * 1.3)),
                    ("text-anchor", "middle"), ("font-size", SVGWriter.number(small)),
                    ("class", "time-label"),
                ], content: label)
            timeLabels += 1
            tick += step
        }
        svg.close("g")
        svg.element(
            "text",
            [
                ("x", SVGWriter.number(left + plotWidth / 2)),
                ("y", SVGWriter.number(bottom + small * 2.7)), ("text-anchor", "middle"),
                ("font-size", SVGWriter.number(small)), ("fill", Palette.mutedText),
            ],
            content: "Time (UTC)")

        // The series, thinned to at most two points (the lowest and highest) per pixel column; the stops shaded
        // over the altitude area and under the lines.
        var altitudeLine = PathData()
        if hasAltitude {
            let series = columnSeries {
                $0.altitudeMeters.map(altitudeY)
            } x: {
                $0.time.map(x)
            }
            var area = PathData()
            for part in series {
                area.addArea(part, baseline: bottom)
                altitudeLine.addLine(part)
            }
            svg.element(
                "path",
                [
                    ("id", "altitude-area"), ("d", area.text), ("fill", Palette.altitudeFill),
                    ("fill-opacity", "0.6"),
                ])
        }
        svg.open("g", [("id", "stop-spans"), ("fill", Palette.stopSpan), ("fill-opacity", "0.5")])
        for stop in track.stops {
            let x0 = x(track.seconds(stop.start.timestamp))
            let x1 = max(x(track.seconds(stop.endTimestamp)), x0 + 1)
            svg.element(
                "rect",
                [
                    ("x", SVGWriter.number(x0)), ("y", SVGWriter.number(plotTop)),
                    ("width", SVGWriter.number(x1 - x0)), ("height", SVGWriter.number(plotHeight)),
                ])
        }
        svg.close("g")
        if hasAltitude {
            svg.element(
                "path",
                [
                    ("id", "altitude-line"), ("class", "line"), ("d", altitudeLine.text),
                    ("stroke", Palette.altitudeLine), ("stroke-width", "1.5"),
                ])
        }
        let speedSeries = columnSeries {
            $0.speed.map { speedY($0 * 3.6) }
        } x: {
            $0.time.map(x)
        }
        var speedPath = PathData()
        for part in speedSeries { speedPath.addLine(part) }
        svg.element(
            "path",
            [
                ("id", "speed-line"), ("class", "line"), ("d", speedPath.text),
                ("stroke", Palette.speedLine), ("stroke-width", "1.5"),
            ])
        svg.element(
            "rect",
            [
                ("x", SVGWriter.number(left)), ("y", SVGWriter.number(plotTop)),
                ("width", SVGWriter.number(plotWidth)), ("height", SVGWriter.number(plotHeight)),
                ("fill", "none"), ("stroke", Palette.frame),
            ])
        svg.close("g")
        return bottom + small * 3.1
    }

    /// The track's points as lines in pixels, broken at segment starts and missing values, with at most the
    /// lowest and highest point of each pixel column (in time order), so spikes survive thinning.
    func columnSeries(_ value: (PlotTrack.Point) -> Double?, x position: (PlotTrack.Point) -> Double?)
        -> [[PixelPoint]]
    {
        var parts: [[PixelPoint]] = []
        var current: [PixelPoint] = []
        var column: Int?
        var low: (Int, PixelPoint)?
        var high: (Int, PixelPoint)?
        func flushColumn() {
            guard let low, let high else { return }
            if low.0 == high.0 {
                current.append(low.1)
            } else if low.0 < high.0 {
                current.append(low.1)
                current.append(high.1)
            } else {
                current.append(high.1)
                current.append(low.1)
            }
        }
        for (index, point) in track.points.enumerated() {
            guard let y = value(point), let x = position(point) else {
                flushColumn()
                low = nil
                high = nil
                column = nil
                if !current.isEmpty { parts.append(current) }
                current = []
                continue
            }
            if point.startsSegment {
                flushColumn()
                low = nil
                high = nil
                column = nil
                if !current.isEmpty { parts.append(current) }
                current = []
            }
            let pixel = PixelPoint(x: x, y: y)
            let thisColumn = Int(x.rounded(.down))
            if thisColumn != column {
                flushColumn()
                column = thisColumn
                low = (index, pixel)
                high = (index, pixel)
                continue
            }
            // In pixels y grows downwards: the lowest value has the largest y.
            if y > low!.1.y { low = (index, pixel) }
            if y < high!.1.y { high = (index, pixel) }
        }
        flushColumn()
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}

/// Places short labels beside markers without overlapping each other, the markers, or the map's edge.
struct LabelPlacer {
    let area: Box
    private var taken: [Box] = []

    init(area: Box) { self.area = area }

    mutating func reserve(_ box: Box) { taken.append(box) }

    struct Placement {
        var attributes: [(String, String)]
    }

    /// Tries right, left, above and below `point`; returns the text attributes, or `nil` when there is no room.
    mutating func place(_ text: String, at point: PixelPoint, clearance: Double, size: Double) -> Placement? {
        let width = Double(text.unicodeScalars.count) * size * 0.6
        let height = size * 1.1
        let candidates: [(Box, Double, Double, String)] = [
            (
                Box(x: point.x + clearance, y: point.y - height / 2, width: width, height: height),
                point.x + clearance, point.y + size * 0.35, "start"
            ),
            (
                Box(x: point.x - clearance - width, y: point.y - height / 2, width: width, height: height),
                point.x - clearance, point.y + size * 0.35, "end"
            ),
            (
                Box(x: point.x - width / 2, y: point.y - clearance - height, width: width, height: height),
                point.x, point.y - clearance - size * 0.25, "middle"
            ),
            (
                Box(x: point.x - width / 2, y: point.y + clearance, width: width, height: height),
                point.x, point.y + clearance + size * 0.85, "middle"
            ),
            // Near the map's edges: above or below, running away from the edge.
            (
                Box(x: point.x - clearance / 2, y: point.y - clearance - height, width: width, height: height),
                point.x - clearance / 2, point.y - clearance - size * 0.25, "start"
            ),
            (
                Box(x: point.x - clearance / 2, y: point.y + clearance, width: width, height: height),
                point.x - clearance / 2, point.y + clearance + size * 0.85, "start"
            ),
            (
                Box(x: point.x + clearance / 2 - width, y: point.y - clearance - height, width: width, height: height),
                point.x + clearance / 2, point.y - clearance - size * 0.25, "end"
            ),
            (
                Box(x: point.x + clearance / 2 - width, y: point.y + clearance, width: width, height: height),
                point.x + clearance / 2, point.y + clearance + size * 0.85, "end"
            ),
        ]
        for (box, x, y, anchor) in candidates where area.contains(box) && !taken.contains(where: box.intersects) {
            taken.append(box)
            var attributes = [
                ("x", SVGWriter.number(x)), ("y", SVGWriter.number(y)),
                ("font-size", SVGWriter.number(size)),
            ]
            if anchor != "start" { attributes.append(("text-anchor", anchor)) }
            return Placement(attributes: attributes)
        }
        return nil
    }
}
