/// A point on the drawing, in pixels.
public struct PixelPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Line simplification for drawing: fewer vertices, the same picture.
public enum Simplify {
    /// The indices of the points Douglas–Peucker keeps at `tolerance` pixels: the first and last always, and every
    /// point farther than `tolerance` from the line through the points kept around it.
    ///
    /// Iterative (an explicit stack), so a day of points cannot overflow the call stack.
    /// - Complexity: O(*n* log *n*) typically, O(*n*²) at worst.
    public static func douglasPeucker(_ points: [PixelPoint], tolerance: Double) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        let squaredTolerance = tolerance * tolerance
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first
            var farthestDistance = -1.0
            for index in (first + 1)..<last {
                let distance = squaredDistance(points[index], toSegment: points[first], points[last])
                if distance > farthestDistance {
                    farthestDistance = distance
                    farthest = index
                }
            }
            if farthestDistance > squaredTolerance {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    /// The indices of the points left after dropping each point closer than `spacing` pixels to the last one kept;
    /// the last point is always kept (it may then be closer than `spacing` to the one before).
    /// - Complexity: O(*n*).
    public static func thin(_ points: [PixelPoint], spacing: Double) -> [Int] {
        guard let lastIndex = points.indices.last else { return [] }
        var kept = [0]
        let squaredSpacing = spacing * spacing
        var anchor = points[0]
        for index in 1..<points.count where index < lastIndex {
            let dx = points[index].x - anchor.x
            let dy = points[index].y - anchor.y
            if dx * dx + dy * dy >= squaredSpacing {
                kept.append(index)
                anchor = points[index]
            }
        }
        if lastIndex > 0 { kept.append(lastIndex) }
        return kept
    }

    /// The squared distance from `point` to the segment `a`–`b`.
    @inlinable
    static func squaredDistance(_ point: PixelPoint, toSegment a: PixelPoint, _ b: PixelPoint) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        var t = 0.0
        if lengthSquared > 0 {
            t = ((point.x - a.x) * dx + (point.y - a.y) * dy) / lengthSquared
            t = min(1, max(0, t))
        }
        let nearestX = a.x + t * dx - point.x
        let nearestY = a.y + t * dy - point.y
        return nearestX * nearestX + nearestY * nearestY
    }
}
