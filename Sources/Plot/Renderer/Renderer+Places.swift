import Glibc
import Trips

extension Renderer {
    // MARK: - Places

    /// The offline places under the track: the labels ``Trips/PlaceIndex/labels(in:)`` keeps for the map's view
    /// (its corners, and the zoom whose 256-pixel tiles have this scale), so the page shows the same places for
    /// the same view. The group carries the view as `data-bbox` (west, south, east, north) and `data-zoom`.
    /// Returns the labels' boxes, which the markers' labels keep out of.
    mutating func drawPlaces(
        frame: Box, scale: Double, offsetX: Double, offsetY: Double, project: (Double, Double) -> PixelPoint
    ) -> [Box] {
        guard let index = options.places else { return [] }
        let west = ((frame.x - offsetX) / scale) * 360 - 180
        let east = ((frame.x + frame.width - offsetX) / scale) * 360 - 180
        let north = WebMercator.latitude(y: (frame.y - offsetY) / scale)
        let south = WebMercator.latitude(y: (frame.y + frame.height - offsetY) / scale)
        // Rounded as written, so that the view in the file is the view drawn.
        func rounded(_ value: Double, _ decimals: Double) -> Double {
            (value * pow(10, decimals)).rounded() / pow(10, decimals)
        }
        let zoom = rounded(log2(scale / 256), 3)
        let view = MapView(
            west: rounded(max(-180, west), 5), south: rounded(max(-85, south), 5), east: rounded(min(180, east), 5),
            north: rounded(min(85, north), 5), zoom: zoom)
        let labels = index.labels(in: view)
        svg.open(
            "g",
            [
                ("id", "places"), ("class", "halo"), ("fill", Palette.mutedText),
                (
                    "data-bbox",
                    [view.west, view.south, view.east, view.north].map { SVGWriter.number($0, maximumDecimals: 5) }
                        .joined(separator: ",")
                ),
                ("data-zoom", SVGWriter.number(zoom, maximumDecimals: 3)),
            ])
        var boxes: [Box] = []
        for label in labels {
            let point = project(label.latitude, label.longitude)
            let size = label.labelRank == 1 ? small * 1.15 : label.labelRank == 2 ? small : max(11, small * 0.9)
            let width = textWidth(label.name, size: size)
            boxes.append(Box(x: point.x - width / 2, y: point.y - 6 - size, width: width, height: size + 8))
            svg.open(
                "g",
                [
                    ("class", "place"), ("data-name", label.name),
                    ("data-lat", SVGWriter.number(label.latitude, maximumDecimals: 5)),
                    ("data-lon", SVGWriter.number(label.longitude, maximumDecimals: 5)),
                ])
            svg.element(
                "circle",
                [
                    ("cx", SVGWriter.number(point.x)), ("cy", SVGWriter.number(point.y)), ("r", "2"),
                    ("fill", Palette.frame), ("stroke", "none"),
                ])
            var attributes = [
                ("x", SVGWriter.number(point.x)), ("y", SVGWriter.number(point.y - 6)),
                ("text-anchor", "middle"), ("font-size", SVGWriter.number(size)),
            ]
            if label.labelRank == 1 { attributes.append(("font-weight", "bold")) }
            svg.element("text", attributes, content: label.name)
            svg.close("g")
        }
        svg.close("g")
        return boxes
    }
}
