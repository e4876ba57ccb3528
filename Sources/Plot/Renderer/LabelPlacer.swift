/// Places short labels beside markers without overlapping each other, the markers, or the map's edge, and out of
/// the boxes ``avoid(_:)`` names (the places' names) where there is room elsewhere.
struct LabelPlacer {
    let area: Box
    private var taken: [Box] = []
    private var avoided: [Box] = []

    init(area: Box) { self.area = area }

    mutating func reserve(_ box: Box) { taken.append(box) }

    /// A box a label stays out of when it can, but may cover when there is no other room.
    mutating func avoid(_ box: Box) { avoided.append(box) }

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
        let free = candidates.filter { area.contains($0.0) && !taken.contains(where: $0.0.intersects) }
        let best = free.first { candidate in !avoided.contains(where: candidate.0.intersects) } ?? free.first
        if let (box, x, y, anchor) = best {
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
