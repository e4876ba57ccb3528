/// A depth in the three units of DBT, DBS and DBK, each as sent (`nil` when left empty).
public struct WaterDepth: Hashable, Sendable {
    /// The depth in feet, as sent.
    public var feet: FixedPoint?
    /// The depth in metres, as sent.
    public var meters: FixedPoint?
    /// The depth in fathoms, as sent.
    public var fathoms: FixedPoint?

    /// A depth in the units given.
    public init(feet: FixedPoint? = nil, meters: FixedPoint? = nil, fathoms: FixedPoint? = nil) {
        self.feet = feet
        self.meters = meters
        self.fathoms = fathoms
    }

    /// Metres: as sent, else from the feet (0.3048 m), else from the fathoms (1.8288 m).
    public var bestMeters: Double? {
        if let meters { return meters.doubleValue }
        if let feet { return feet.doubleValue * 0.3048 }
        if let fathoms { return fathoms.doubleValue * 1.8288 }
        return nil
    }

    func describe(to sink: inout some SentenceFieldSink) {
        sink.field("depth_ft", feet)
        sink.field("depth_m", meters)
        sink.field("depth_fathoms", fathoms)
    }
}

extension FieldReader {
    /// Reads `x.x,f,x.x,M,x.x,F`: feet, metres, fathoms, each with its unit letter.
    @inline(__always)
    mutating func waterDepth() -> WaterDepth {
        let feet = fixedPoint()
        unit("f")
        let meters = fixedPoint()
        unit("M")
        let fathoms = fixedPoint()
        unit("F")
        return WaterDepth(feet: feet, meters: meters, fathoms: fathoms)
    }
}
