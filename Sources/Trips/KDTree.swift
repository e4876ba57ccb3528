/// A static 3-d tree over points, stored implicitly: each range of the arrays is a subtree whose middle element
/// splits the rest along one axis (the one with the widest spread), the lower half before it and the upper after.
/// Ranges of ``leafSize`` points or fewer are scanned.
///
/// - Complexity: building O(n log n); a nearest-neighbour query O(log n) on average.
struct KDTree: Sendable {
    static let leafSize = 8

    /// x, y, z of each point, in tree order.
    private let points: [Double]
    /// The caller's index of the point in each tree slot.
    private let order: [Int32]
    /// The split axis (0, 1, 2) of the subtree whose middle is this slot.
    private let axes: [UInt8]

    var count: Int { order.count }

    /// Builds the tree over `points` (x, y, z of each, in the caller's order).
    init(points source: [Double]) {
        precondition(source.count % 3 == 0)
        let count = source.count / 3
        var points = source
        var order = (0..<count).map { Int32($0) }
        var axes = [UInt8](repeating: 0, count: count)
        points.withUnsafeMutableBufferPointer { points in
            order.withUnsafeMutableBufferPointer { order in
                axes.withUnsafeMutableBufferPointer { axes in
                    var builder = Builder(points: points, order: order, axes: axes)
                    builder.build(0, count)
                }
            }
        }
        self.points = points
        self.order = order
        self.axes = axes
    }

    /// The caller's index of the point nearest to (x, y, z) in straight-line distance.
    func nearest(_ x: Double, _ y: Double, _ z: Double) -> Int {
        precondition(!order.isEmpty)
        return points.withUnsafeBufferPointer { points in
            order.withUnsafeBufferPointer { order in
                axes.withUnsafeBufferPointer { axes in
                    var search = Search(points: points, axes: axes, query: (x, y, z))
                    search.visit(0, order.count)
                    return Int(order[search.best])
                }
            }
        }
    }

    private struct Builder {
        let points: UnsafeMutableBufferPointer<Double>
        let order: UnsafeMutableBufferPointer<Int32>
        let axes: UnsafeMutableBufferPointer<UInt8>

        mutating func build(_ low: Int, _ high: Int) {
            guard high - low > KDTree.leafSize else { return }
            var minimum = (Double.infinity, Double.infinity, Double.infinity)
            var maximum = (-Double.infinity, -Double.infinity, -Double.infinity)
            for index in low..<high {
                let x = points[index * 3], y = points[index * 3 + 1], z = points[index * 3 + 2]
                minimum = (min(minimum.0, x), min(minimum.1, y), min(minimum.2, z))
                maximum = (max(maximum.0, x), max(maximum.1, y), max(maximum.2, z))
            }
            let spread = (maximum.0 - minimum.0, maximum.1 - minimum.1, maximum.2 - minimum.2)
            let axis = spread.0 >= spread.1 && spread.0 >= spread.2 ? 0 : (spread.1 >= spread.2 ? 1 : 2)
            let middle = (low + high) / 2
            select(middle, in: low, high, axis: axis)
            axes[middle] = UInt8(axis)
            build(low, middle)
            build(middle + 1, high)
        }

        /// Reorders `low..<high` so that slot `k` holds the point that sorting by `axis` would put there, with no
        /// larger value before it and no smaller one after (quickselect, median-of-three pivots).
        func select(_ k: Int, in low: Int, _ high: Int, axis: Int) {
            var low = low
            var high = high - 1
            while high > low {
                let middle = (low + high) / 2
                // Median of three to slot `high`, as the pivot.
                if value(middle, axis) < value(low, axis) { swapAt(middle, low) }
                if value(high, axis) < value(low, axis) { swapAt(high, low) }
                if value(middle, axis) < value(high, axis) { swapAt(middle, high) }
                let pivot = value(high, axis)
                var store = low
                for index in low..<high where value(index, axis) < pivot {
                    swapAt(index, store)
                    store += 1
                }
                swapAt(store, high)
                // Equal values: gather them after the pivot so ranges of duplicates cannot stall the search.
                var equalEnd = store + 1
                for index in (store + 1)...high where value(index, axis) == pivot {
                    swapAt(index, equalEnd)
                    equalEnd += 1
                }
                if k < store {
                    high = store - 1
                } else if k >= equalEnd {
                    low = equalEnd
                } else {
                    return
                }
            }
        }

        @inline(__always) func value(_ index: Int, _ axis: Int) -> Double { points[index * 3 + axis] }

        @inline(__always) func swapAt(_ a: Int, _ b: Int) {
            guard a != b else { return }
            for component in 0..<3 { points.swapAt(a * 3 + component, b * 3 + component) }
            order.swapAt(a, b)
        }
    }

    private struct Search {
        let points: UnsafeBufferPointer<Double>
        let axes: UnsafeBufferPointer<UInt8>
        let query: (Double, Double, Double)
        var best = 0
        var bestDistance = Double.infinity

        @inline(__always) mutating func consider(_ index: Int) {
            let dx = points[index * 3] - query.0
            let dy = points[index * 3 + 1] - query.1
            let dz = points[index * 3 + 2] - query.2
            let distance = dx * dx + dy * dy + dz * dz
            if distance < bestDistance {
                bestDistance = distance
                best = index
            }
        }

        mutating func visit(_ low: Int, _ high: Int) {
            if high - low <= KDTree.leafSize {
                for index in low..<high { consider(index) }
                return
            }
            let middle = (low + high) / 2
            consider(middle)
            let axis = Int(axes[middle])
            let coordinate = axis == 0 ? query.0 : (axis == 1 ? query.1 : query.2)
            let difference = coordinate - points[middle * 3 + axis]
            if difference < 0 {
                visit(low, middle)
                if difference * difference < bestDistance { visit(middle + 1, high) }
            } else {
                visit(middle + 1, high)
                if difference * difference < bestDistance { visit(low, middle) }
            }
        }
    }
}
