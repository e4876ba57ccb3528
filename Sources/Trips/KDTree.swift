/// A static 3-d tree over points, stored implicitly: each range of the arrays is a subtree whose middle element
/// splits the rest along one axis (the one with the widest spread), the lower half before it and the upper after.
/// Ranges of ``leafSize`` points or fewer are scanned.
///
/// Points are kept as `Float` (half the memory of `Double`), which moves each by at most ``tolerance``; queries
/// make up for it — the search finds every point that could be the nearest given that error, and the caller's exact
/// distance decides between them — so the answer is the exact nearest, not merely a near one.
///
/// - Complexity: building O(n log n); a nearest-neighbour query O(log n) on average.
struct KDTree: Sendable {
    static let leafSize = 8
    /// How far a stored point may lie from the exact one: half a `Float` ulp below 1 in each of three coordinates,
    /// with room to spare.
    static let tolerance = 2e-7

    /// x, y, z of each point, in tree order.
    private let points: [Float]
    /// The caller's index of the point in each tree slot.
    private let order: [Int32]
    /// The split axis (0, 1, 2) of the subtree whose middle is this slot.
    private let axes: [UInt8]

    var count: Int { order.count }

    /// Builds the tree over `points` (x, y, z of each, in the caller's order; reordered in place).
    init(points: consuming [Float]) {
        precondition(points.count % 3 == 0)
        let count = points.count / 3
        var order = (0..<count).map { Int32($0) }
        var axes = [UInt8](repeating: 0, count: count)
        points.withUnsafeMutableBufferPointer { points in
            order.withUnsafeMutableBufferPointer { order in
                axes.withUnsafeMutableBufferPointer { axes in
                    let builder = Builder(points: points, order: order, axes: axes)
                    builder.build(0, count)
                }
            }
        }
        self.points = points
        self.order = order
        self.axes = axes
    }

    /// The caller's index of the point nearest to (x, y, z). `exactSquaredDistance(index)` gives the exact squared
    /// distance from the query to the caller's point `index`; it is asked only about the few points within
    /// ``tolerance`` of the nearest stored one. Ties go to the lowest index.
    func nearest(_ x: Double, _ y: Double, _ z: Double, exactSquaredDistance: (Int) -> Double) -> Int {
        precondition(!order.isEmpty)
        return points.withUnsafeBufferPointer { points in
            order.withUnsafeBufferPointer { order in
                axes.withUnsafeBufferPointer { axes in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: Search.candidateCapacity) { candidates in
                        var search = Search(points: points, axes: axes, query: (x, y, z), candidates: candidates)
                        search.nearest(0, order.count)
                        // Every point whose stored distance is within twice the tolerance of the best could be the
                        // nearest: the exact distance decides. Almost always there is one.
                        var best = Int(order[search.best])
                        var bestExact = Double.nan
                        func decide(_ slot: Int) {
                            let index = Int(order[slot])
                            guard index != best else { return }
                            if bestExact.isNaN { bestExact = exactSquaredDistance(best) }
                            let exact = exactSquaredDistance(index)
                            if exact < bestExact || (exact == bestExact && index < best) {
                                best = index
                                bestExact = exact
                            }
                        }
                        if search.overflowed {
                            search.within(0, order.count, radius: search.bound.squareRoot(), decide)
                        } else {
                            for candidate in 0..<search.candidateCount
                            where search.distance(candidates[candidate]) <= search.bound {
                                decide(candidates[candidate])
                            }
                        }
                        return best
                    }
                }
            }
        }
    }

    private struct Builder {
        let points: UnsafeMutableBufferPointer<Float>
        let order: UnsafeMutableBufferPointer<Int32>
        let axes: UnsafeMutableBufferPointer<UInt8>

        func build(_ low: Int, _ high: Int) {
            guard high - low > KDTree.leafSize else { return }
            var minimum: (Float, Float, Float) = (.infinity, .infinity, .infinity)
            var maximum: (Float, Float, Float) = (-.infinity, -.infinity, -.infinity)
            for index in low..<high {
                let x = points[index * 3]
                let y = points[index * 3 + 1]
                let z = points[index * 3 + 2]
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
                // The median of three goes to slot `high`, as the pivot.
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
                // Values equal to the pivot gather after it, so runs of duplicates cannot stall the search.
                var equalEnd = store + 1
                if equalEnd <= high {
                    for index in equalEnd...high where value(index, axis) == pivot {
                        swapAt(index, equalEnd)
                        equalEnd += 1
                    }
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

        @inline(__always) func value(_ index: Int, _ axis: Int) -> Float { points[index * 3 + axis] }

        @inline(__always) func swapAt(_ a: Int, _ b: Int) {
            guard a != b else { return }
            points.swapAt(a * 3, b * 3)
            points.swapAt(a * 3 + 1, b * 3 + 1)
            points.swapAt(a * 3 + 2, b * 3 + 2)
            order.swapAt(a, b)
        }
    }

    private struct Search {
        static let candidateCapacity = 32

        let points: UnsafeBufferPointer<Float>
        let axes: UnsafeBufferPointer<UInt8>
        let query: (Double, Double, Double)
        /// Slots whose stored distance was within ``bound`` when they were seen.
        let candidates: UnsafeMutableBufferPointer<Int>
        var candidateCount = 0
        /// More candidates than fit: search again by radius.
        var overflowed = false
        var best = 0
        var bestDistance = Double.infinity
        /// The squared distance within which a stored point could still be the exact nearest: the best stored
        /// distance plus twice the tolerance.
        var bound = Double.infinity

        init(
            points: UnsafeBufferPointer<Float>, axes: UnsafeBufferPointer<UInt8>, query: (Double, Double, Double),
            candidates: UnsafeMutableBufferPointer<Int>
        ) {
            self.points = points
            self.axes = axes
            self.query = query
            self.candidates = candidates
        }

        @inline(__always) func distance(_ slot: Int) -> Double {
            let dx = Double(points[slot * 3]) - query.0
            let dy = Double(points[slot * 3 + 1]) - query.1
            let dz = Double(points[slot * 3 + 2]) - query.2
            return dx * dx + dy * dy + dz * dz
        }

        @inline(__always) func offset(_ slot: Int) -> Double {
            let axis = Int(axes[slot])
            let coordinate = axis == 0 ? query.0 : (axis == 1 ? query.1 : query.2)
            return coordinate - Double(points[slot * 3 + axis])
        }

        @inline(__always) mutating func consider(_ slot: Int) {
            let distance = distance(slot)
            guard distance <= bound else { return }
            if distance < bestDistance {
                bestDistance = distance
                best = slot
                let radius = distance.squareRoot() + 2 * KDTree.tolerance
                bound = radius * radius
            }
            if candidateCount == candidates.count {
                // Drop the ones the better best has left behind.
                var kept = 0
                for index in 0..<candidateCount where self.distance(candidates[index]) <= bound {
                    candidates[kept] = candidates[index]
                    kept += 1
                }
                candidateCount = kept
                if kept == candidates.count {
                    overflowed = true
                    return
                }
            }
            candidates[candidateCount] = slot
            candidateCount += 1
        }

        /// The nearest stored point in `low..<high`, into ``best``, and the candidates near it.
        mutating func nearest(_ low: Int, _ high: Int) {
            if high - low <= KDTree.leafSize {
                for slot in low..<high { consider(slot) }
                return
            }
            let middle = (low + high) / 2
            consider(middle)
            let offset = offset(middle)
            if offset < 0 {
                nearest(low, middle)
                if offset * offset <= bound { nearest(middle + 1, high) }
            } else {
                nearest(middle + 1, high)
                if offset * offset <= bound { nearest(low, middle) }
            }
        }

        /// Calls `body` with each slot in `low..<high` whose stored point lies within `radius`.
        func within(_ low: Int, _ high: Int, radius: Double, _ body: (Int) -> Void) {
            let limit = radius * radius
            if high - low <= KDTree.leafSize {
                for slot in low..<high where distance(slot) <= limit { body(slot) }
                return
            }
            let middle = (low + high) / 2
            if distance(middle) <= limit { body(middle) }
            let offset = offset(middle)
            if offset <= radius { within(low, middle, radius: radius, body) }
            if offset >= -radius { within(middle + 1, high, radius: radius, body) }
        }
    }
}
