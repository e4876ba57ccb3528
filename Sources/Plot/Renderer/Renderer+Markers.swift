import Trips

extension Renderer {
    // MARK: - Decorations and markers

    /// North arrow and scale bar; returns the boxes they cover (labels keep out of them).
    mutating func drawDecorations(frame: Box, metersPerPixel: Double) -> [Box] {
        [drawNorthArrow(frame: frame), drawScaleBar(frame: frame, metersPerPixel: metersPerPixel)]
    }

    /// The north arrow, top right (Web Mercator keeps north straight up everywhere); returns the box it covers.
    private mutating func drawNorthArrow(frame: Box) -> Box {
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
        return Box(x: centerX - font, y: frame.y, width: 2 * font, height: baseY - frame.y + 4)
    }

    /// The scale bar, bottom left: the longest round distance up to a quarter of the map's width; returns the box
    /// it covers.
    private mutating func drawScaleBar(frame: Box, metersPerPixel: Double) -> Box {
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
        return backing
    }

    /// Stops, then the start and end markers, each labelled where there is room.
    mutating func drawMarkers(project: (Double, Double) -> PixelPoint, labels: inout LabelPlacer) {
        guard let first = track.first, let last = track.last else { return }
        let start = project(first.latitude, first.longitude)
        let end = project(last.latitude, last.longitude)
        let sizes = MarkerSizes(
            startRadius: (font * 0.6).rounded(), endSide: (font * 1.0).rounded(), stopRadius: (font * 0.5).rounded())
        labels.reserve(
            Box(
                x: start.x - sizes.startRadius, y: start.y - sizes.startRadius, width: 2 * sizes.startRadius,
                height: 2 * sizes.startRadius))
        labels.reserve(
            Box(x: end.x - sizes.endSide / 2, y: end.y - sizes.endSide / 2, width: sizes.endSide, height: sizes.endSide)
        )
        let withSeconds = (track.latestTime ?? 0) - (track.earliestTime ?? 0) < 3600
        let stops = track.stops.map { ($0, project($0.latitude, $0.longitude)) }
        drawStops(stops, radius: sizes.stopRadius, labels: &labels)
        svg.open("g", [("id", "markers")])
        drawEnds(start: start, end: end, sizes)
        var startText = "Start" + (first.time.map { " " + TimeText.clock($0, withSeconds: withSeconds) } ?? "")
        let endText = "End" + (last.time.map { " " + TimeText.clock($0, withSeconds: withSeconds) } ?? "")
        // Back where it started (the end a ring around the start): one label for both.
        let backAtStart = Self.isBackAtStart(start: start, end: end, sizes)
        if backAtStart { startText += " · " + endText }
        if let placed = labels.place(startText, at: start, clearance: sizes.startRadius + 4, size: small) {
            svg.element(
                "text",
                placed.attributes + [
                    ("font-weight", "bold"), ("fill", Palette.start.hex),
                    ("class", "halo"),
                ], content: startText)
        }
        if !backAtStart, let placed = labels.place(endText, at: end, clearance: sizes.endSide / 2 + 4, size: small) {
            svg.element(
                "text",
                placed.attributes + [
                    ("font-weight", "bold"), ("fill", Palette.end.hex),
                    ("class", "halo"),
                ], content: endText)
        }
        // Stop labels where room is left, longer stops first: the place (as `nmea trips` names it) and how long.
        let named = stops.enumerated().map { index, stop in
            (stop.0, stop.1, index < options.stopPlaces.count ? options.stopPlaces[index] : nil)
        }
        for (stop, point, place) in named.sorted(by: { $0.0.durationSeconds > $1.0.durationSeconds }) {
            let duration = NiceScale.durationLabel(stop.durationSeconds)
            let text = place.map { "\($0) · \(duration)" } ?? duration
            if let placed = labels.place(text, at: point, clearance: sizes.stopRadius + 3, size: small) {
                svg.element(
                    "text", placed.attributes + [("fill", Palette.stop.hex), ("class", "halo stop-label")],
                    content: text)
            }
        }
        svg.close("g")
    }

    /// The markers' sizes in pixels.
    private struct MarkerSizes {
        let startRadius: Double
        let endSide: Double
        let stopRadius: Double
    }

    /// A circle at each stop, its place reserved from the labels.
    private mutating func drawStops(_ stops: [(Stop, PixelPoint)], radius stopRadius: Double, labels: inout LabelPlacer)
    {
        svg.open("g", [("id", "stops")])
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
    }

    /// Whether the end is drawn as a ring around the start: it is closer than the two markers' sizes.
    private static func isBackAtStart(start: PixelPoint, end: PixelPoint, _ sizes: MarkerSizes) -> Bool {
        let dx = end.x - start.x
        let dy = end.y - start.y
        return (dx * dx + dy * dy).squareRoot() < sizes.startRadius + sizes.endSide / 2
    }

    /// The start's circle, and the end's square (or, back where it started, a ring around the start).
    private mutating func drawEnds(start startPoint: PixelPoint, end endPoint: PixelPoint, _ sizes: MarkerSizes) {
        let startRadius = sizes.startRadius
        let endSide = sizes.endSide
        svg.element(
            "circle",
            [
                ("id", "start"), ("cx", SVGWriter.number(startPoint.x)),
                ("cy", SVGWriter.number(startPoint.y)), ("r", SVGWriter.number(startRadius)),
                ("fill", Palette.start.hex), ("stroke", "#ffffff"), ("stroke-width", "2"),
            ])
        if Self.isBackAtStart(start: startPoint, end: endPoint, sizes) {
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
    }
}
