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
