extension Renderer {
    // MARK: - Profile

    /// Where the profile is drawn: its box in pixels, its time span and its scales.
    struct ProfileFrame {
        let start: Double
        let end: Double
        let hasAltitude: Bool
        let left: Double
        let right: Double
        let plotTop: Double
        let plotHeight: Double
        let bottom: Double
        let plotWidth: Double
        let speedTicks: [Double]
        let altitudeLow: Double
        let altitudeHigh: Double

        /// The x of a time (seconds of the track).
        func x(_ time: Double) -> Double { left + (time - start) / (end - start) * plotWidth }

        /// The y of a speed in km/h.
        func speedY(_ kmh: Double) -> Double { bottom - kmh / speedTicks.last! * plotHeight }

        /// The y of an altitude in metres.
        func altitudeY(_ meters: Double) -> Double {
            bottom - (meters - altitudeLow) / (altitudeHigh - altitudeLow) * plotHeight
        }
    }

    /// Speed and altitude over time, with the stops shaded; returns the y below it.
    mutating func drawProfile(top: Double) -> Double {
        guard let frame = profileFrame(top: top) else { return top }
        svg.open(
            "g",
            [
                ("id", "profile"), ("data-time-start", SVGWriter.exact(frame.start)),
                ("data-time-end", SVGWriter.exact(frame.end)), ("data-left", SVGWriter.number(frame.left)),
                ("data-width", SVGWriter.number(frame.plotWidth)),
            ])
        drawProfileTitles(frame, top: top)
        drawProfileGrid(frame)
        drawTimeAxis(frame)
        drawProfileSeries(frame)
        svg.element(
            "rect",
            [
                ("x", SVGWriter.number(frame.left)), ("y", SVGWriter.number(frame.plotTop)),
                ("width", SVGWriter.number(frame.plotWidth)), ("height", SVGWriter.number(frame.plotHeight)),
                ("fill", "none"), ("stroke", Palette.frame),
            ])
        svg.close("g")
        return frame.bottom + small * 3.1
    }

    /// The profile's box and scales below `top`; `nil` for a track without times.
    private func profileFrame(top: Double) -> ProfileFrame? {
        guard let start = track.earliestTime, let latest = track.latestTime else { return nil }
        let hasAltitude = track.lowestAltitude != nil
        let left = margin + font * 3.2
        let right = width - margin - (hasAltitude ? font * 3.6 : font * 0.5)
        let plotTop = top + font * 1.6
        let plotHeight = min(320, max(120, width * 0.24)).rounded()
        let (altitudeLow, altitudeHigh) = altitudeRange
        return ProfileFrame(
            start: start, end: max(latest, start + 1), hasAltitude: hasAltitude, left: left, right: right,
            plotTop: plotTop, plotHeight: plotHeight, bottom: plotTop + plotHeight, plotWidth: right - left,
            speedTicks: NiceScale.ticks(from: 0, to: max(1, (track.fastest?.speed ?? 0) * 3.6), count: 4).values,
            altitudeLow: altitudeLow, altitudeHigh: altitudeHigh)
    }

    /// "Speed (km/h)" over the left axis, "Altitude (m)" over the right one.
    private mutating func drawProfileTitles(_ frame: ProfileFrame, top: Double) {
        svg.element(
            "text",
            [
                ("x", SVGWriter.number(frame.left)), ("y", SVGWriter.number(top + font)),
                ("fill", Palette.speedLine), ("font-weight", "bold"),
            ], content: "Speed (km/h)")
        if frame.hasAltitude {
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(frame.right)), ("y", SVGWriter.number(top + font)),
                    ("fill", Palette.altitudeLine), ("font-weight", "bold"), ("text-anchor", "end"),
                ],
                content: "Altitude (m)")
        }
    }

    /// The speed grid with its labels on the left; the altitude labels on the right.
    private mutating func drawProfileGrid(_ frame: ProfileFrame) {
        for value in frame.speedTicks {
            let y = frame.speedY(value)
            svg.element(
                "line",
                [
                    ("x1", SVGWriter.number(frame.left)), ("x2", SVGWriter.number(frame.right)),
                    ("y1", SVGWriter.number(y)), ("y2", SVGWriter.number(y)), ("stroke", Palette.grid),
                ])
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(frame.left - font * 0.4)), ("y", SVGWriter.number(y + small * 0.35)),
                    ("text-anchor", "end"), ("font-size", SVGWriter.number(small)),
                    ("fill", Palette.speedLine),
                ], content: SVGWriter.number(value, maximumDecimals: 1))
        }
        guard frame.hasAltitude else { return }
        for value in NiceScale.ticks(from: frame.altitudeLow, to: frame.altitudeHigh, count: 4).values {
            let y = frame.altitudeY(value)
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(frame.right + font * 0.4)),
                    ("y", SVGWriter.number(y + small * 0.35)), ("font-size", SVGWriter.number(small)),
                    ("fill", Palette.altitudeLine),
                ],
                content: SVGWriter.number(value, maximumDecimals: 1))
        }
    }

    /// The time ticks with their labels (clock times, or days), and "Time (UTC)" under them.
    private mutating func drawTimeAxis(_ frame: ProfileFrame) {
        let span = frame.end - frame.start
        let step = NiceScale.timeStep(span: span, maximumTicks: max(2, Int(frame.plotWidth / (small * 7.5))))
        let withSeconds = step < 60
        let multiDay = step >= 86_400
        var tick = (frame.start / step).rounded(.up) * step
        svg.open("g", [("id", "time-axis"), ("data-step", SVGWriter.number(step, maximumDecimals: 0))])
        while tick <= frame.end + 1e-6 {
            let tx = frame.x(tick)
            svg.element(
                "line",
                [
                    ("x1", SVGWriter.number(tx)), ("x2", SVGWriter.number(tx)),
                    ("y1", SVGWriter.number(frame.plotTop)), ("y2", SVGWriter.number(frame.bottom + 4)),
                    ("stroke", Palette.grid),
                ])
            let label =
                multiDay
                ? (track.hasDate ? TimeText.monthDay(tick) : "day \(Int(tick / 86_400) + 1)")
                : TimeText.clock(tick, withSeconds: withSeconds)
            svg.element(
                "text",
                [
                    ("x", SVGWriter.number(tx)), ("y", SVGWriter.number(frame.bottom + small * 1.3)),
                    ("text-anchor", "middle"), ("font-size", SVGWriter.number(small)),
                    ("class", "time-label"),
                ], content: label)
            tick += step
        }
        svg.close("g")
        svg.element(
            "text",
            [
                ("x", SVGWriter.number(frame.left + frame.plotWidth / 2)),
                ("y", SVGWriter.number(frame.bottom + small * 2.7)), ("text-anchor", "middle"),
                ("font-size", SVGWriter.number(small)), ("fill", Palette.mutedText),
            ],
            content: "Time (UTC)")
    }

    /// The series, thinned to at most two points (the lowest and highest) per pixel column; the stops shaded
    /// over the altitude area and under the lines.
    private mutating func drawProfileSeries(_ frame: ProfileFrame) {
        var altitudeLine = PathData()
        if frame.hasAltitude {
            let series = columnSeries {
                $0.altitudeMeters.map(frame.altitudeY)
            } x: {
                $0.time.map(frame.x)
            }
            var area = PathData()
            for part in series {
                area.addArea(part, baseline: frame.bottom)
                altitudeLine.addLine(part)
            }
            svg.element(
                "path",
                [
                    ("id", "altitude-area"), ("d", area.text), ("fill", Palette.altitudeFill),
                    ("fill-opacity", "0.6"),
                ])
        }
        drawStopSpans(frame)
        if frame.hasAltitude {
            svg.element(
                "path",
                [
                    ("id", "altitude-line"), ("class", "line"), ("d", altitudeLine.text),
                    ("stroke", Palette.altitudeLine), ("stroke-width", "1.5"),
                ])
        }
        let speedSeries = columnSeries {
            $0.speed.map { frame.speedY($0 * 3.6) }
        } x: {
            $0.time.map(frame.x)
        }
        var speedPath = PathData()
        for part in speedSeries { speedPath.addLine(part) }
        svg.element(
            "path",
            [
                ("id", "speed-line"), ("class", "line"), ("d", speedPath.text),
                ("stroke", Palette.speedLine), ("stroke-width", "1.5"),
            ])
    }

    /// A shaded span over the profile's height for each stop, at least a pixel wide.
    private mutating func drawStopSpans(_ frame: ProfileFrame) {
        svg.open("g", [("id", "stop-spans"), ("fill", Palette.stopSpan), ("fill-opacity", "0.5")])
        for stop in track.stops {
            let x0 = frame.x(track.seconds(stop.start.timestamp))
            let x1 = max(frame.x(track.seconds(stop.endTimestamp)), x0 + 1)
            svg.element(
                "rect",
                [
                    ("x", SVGWriter.number(x0)), ("y", SVGWriter.number(frame.plotTop)),
                    ("width", SVGWriter.number(x1 - x0)), ("height", SVGWriter.number(frame.plotHeight)),
                ])
        }
        svg.close("g")
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
        /// Ends the line in hand: at a segment start or a point without a value.
        func endPart() {
            flushColumn()
            low = nil
            high = nil
            column = nil
            if !current.isEmpty { parts.append(current) }
            current = []
        }
        for (index, point) in track.points.enumerated() {
            guard let y = value(point), let x = position(point) else {
                endPart()
                continue
            }
            if point.startsSegment { endPart() }
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
