import Trips

/// Draws one picture of a track: ``TrackPlot``'s work, one part per file (header here; map, markers, legend and
/// profile in their own).
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
}
