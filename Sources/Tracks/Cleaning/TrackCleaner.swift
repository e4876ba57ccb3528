import NMEA

/// The cleaning stage of the fix stream, between the reader and the track writers: drops poor fixes
/// (``FixQualityFilter``), then impossible jumps (``OutlierFilter``), then a parked receiver's jitter
/// (``StationaryFilter``), then simplifies (``TrackSimplifier``). Streaming; it holds at most a few points of
/// look-ahead and one simplification window.
///
///     var cleaner = TrackCleaner(filter: FixQualityFilter(maximumHDOP: 2), simplifyMeters: 5)
///     reader.read { fix in cleaner.add(fix) { try? writer.write($0) } }
///     cleaner.finish { try? writer.write($0) }
///
/// Fixes without a position (segment breaks) and provisional fixes pass through, after any point held for
/// simplification, so the writers see the same segments as without cleaning.
public struct TrackCleaner: Sendable {
    public let filter: FixQualityFilter
    /// Drops by reason.
    public private(set) var dropped: [FixQualityFilter.Reason: Int] = [:]
    private var outliers: OutlierFilter?
    private var stationary: StationaryFilter?
    private var simplifier: TrackSimplifier?
    private var segmenter: TrackSegmenter

    /// - Parameter splitGapSeconds: the writers' split gap, so a simplified line never bridges two segments.
    public init(
        filter: FixQualityFilter = FixQualityFilter(), dropOutliers: Bool = false, stationaryMeters: Double? = nil,
        simplifyMeters: Double? = nil, splitGapSeconds: Double = 60
    ) {
        self.filter = filter
        outliers = dropOutliers ? OutlierFilter() : nil
        stationary = stationaryMeters.map { StationaryFilter(radiusMeters: $0) }
        simplifier = simplifyMeters.map { TrackSimplifier(toleranceMeters: $0, maximumSpanSeconds: splitGapSeconds) }
        segmenter = TrackSegmenter(splitGapSeconds: splitGapSeconds)
    }

    /// `true` when the cleaner changes nothing.
    public var isEmpty: Bool { filter.isEmpty && outliers == nil && stationary == nil && simplifier == nil }

    /// Points removed as impossible jumps, and as a parked receiver's jitter.
    public var removedOutliers: Int { outliers?.removed ?? 0 }
    public var removedStationary: Int { stationary?.removed ?? 0 }

    /// Points kept and dropped by simplification (0 and 0 without it).
    public var simplified: (kept: Int, dropped: Int) { (simplifier?.kept ?? 0, simplifier?.dropped ?? 0) }

    /// Cleans the next fix; `emit` receives what passes, in order (possibly an earlier point held until now).
    public mutating func add(_ fix: Fix, _ emit: (Fix) -> Void) {
        if let reason = filter.rejection(of: fix) {
            dropped[reason, default: 0] += 1
            return
        }
        guard outliers != nil else { return afterOutliers(fix, emit) }
        var stage = outliers!
        stage.add(fix) { afterOutliers($0, emit) }
        outliers = stage
    }

    private mutating func afterOutliers(_ fix: Fix, _ emit: (Fix) -> Void) {
        guard stationary != nil else { return simplify(fix, emit) }
        var stage = stationary!
        stage.add(fix) { simplify($0, emit) }
        stationary = stage
    }

    private mutating func simplify(_ fix: Fix, _ emit: (Fix) -> Void) {
        guard simplifier != nil else { return emit(fix) }
        if fix.isProvisional { return emit(fix) }
        switch segmenter.place(fix) {
        case .skip:
            simplifier!.finishSegment(emit)
            emit(fix)
        case .newSegment:
            simplifier!.add(fix, startsSegment: true, emit)
        case .continueSegment:
            simplifier!.add(fix, startsSegment: false, emit)
        }
    }

    /// Emits the point still held, at the end of the input.
    public mutating func finish(_ emit: (Fix) -> Void) {
        if var stage = outliers {
            stage.finish { afterOutliers($0, emit) }
            outliers = stage
        }
        simplifier?.finishSegment(emit)
    }

    /// One line for standard error, e.g. `dropped 12 fixes (5 HDOP too high or unknown, 7 outside --bbox);
    /// simplified 3,400 points to 160`; `nil` when nothing was done.
    public var summary: String? {
        var parts: [String] = []
        let total = dropped.values.reduce(0, +)
        if total > 0 {
            let reasons = FixQualityFilter.Reason.allCases.compactMap { reason in
                dropped[reason].map { "\($0) \(reason.rawValue)" }
            }
            parts.append("dropped \(total) fix\(total == 1 ? "" : "es") (\(reasons.joined(separator: ", ")))")
        }
        if let outliers {
            parts.append("removed \(outliers.removed) outlier\(outliers.removed == 1 ? "" : "s") (impossible jumps)")
        }
        if let stationary {
            parts.append("collapsed \(stationary.removed) stationary point\(stationary.removed == 1 ? "" : "s")")
        }
        if let simplifier {
            parts.append(
                "simplified \(simplifier.kept + simplifier.dropped) points to \(simplifier.kept) "
                    + "(within \(DecimalFormatter.string(simplifier.toleranceMeters)) m)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
