extension Renderer {
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
        let places = drawPlaces(frame: frame, scale: scale, offsetX: offsetX, offsetY: offsetY, project: project)
        var labels = LabelPlacer(
            area: Box(
                x: frame.x + 2, y: frame.y + 2, width: frame.width - 4,
                height: frame.height - 4))
        let decorations = drawDecorations(frame: frame, metersPerPixel: metersPerPixel)
        for box in decorations { labels.reserve(box) }
        for box in places { labels.avoid(box) }
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
            let keptBins = colorBins(of: kept, in: segment, ramp: ramp, lastValue: &lastValue)
            Self.addRuns(keptPixels, bins: keptBins, to: &bins)
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

    /// The color bin of each kept point (`kept`, indices into `segment`): the mean value of the points it stands
    /// for, else the last value before it (`lastValue`, carried from segment to segment).
    private func colorBins(
        of kept: [Int], in segment: ArraySlice<PlotTrack.Point>, ramp: ColorRamp?, lastValue: inout Double?
    ) -> [Int] {
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
        return keptBins
    }

    /// Adds a segment's kept pixels to the paths of their colors: runs of edges with the same color, each
    /// simplified; edge j → j+1 takes the color of point j+1.
    private static func addRuns(_ keptPixels: [PixelPoint], bins keptBins: [Int], to bins: inout [PathData]) {
        if keptPixels.count == 1 {
            bins[keptBins[0]].addLine(keptPixels)
            return
        }
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
}
