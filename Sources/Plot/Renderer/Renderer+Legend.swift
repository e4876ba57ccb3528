extension Renderer {
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
        if let ramp { (bottom, symbolsLeft) = drawColorBar(ramp, top: top) }
        bottom = drawSymbols(top: top, left: symbolsLeft, bottom: bottom)
        svg.close("g")
        return bottom
    }

    /// The caption, the bar of colors and its values; returns the y below it and the x right of it.
    private mutating func drawColorBar(_ ramp: ColorRamp, top: Double) -> (bottom: Double, right: Double) {
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
        return (barTop + barHeight + small * 1.5, margin + barWidth + font * 2)
    }

    /// The marker symbols, right-aligned when there is room right of `left`, else on a line of their own below
    /// `bottom`; returns the y below the legend.
    private mutating func drawSymbols(top: Double, left symbolsLeft: Double, bottom: Double) -> Double {
        var bottom = bottom
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
            drawSymbol(item.0, cx: x + small * 0.5, cy: baseline - small * 0.35)
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(x + small * 1.3)), ("y", SVGWriter.number(baseline)),
                    ("font-size", SVGWriter.number(small)),
                ], content: item.1)
            x += itemWidths[index] + small
        }
        return bottom
    }

    /// The legend's symbol of a start (a circle), an end (a square) or a stop (a smaller circle).
    private mutating func drawSymbol(_ kind: String, cx: Double, cy: Double) {
        switch kind {
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
    }
}
