/// How a radar (ARPA) follows a target, in TTM and TLL.
public enum TargetStatus: UInt8, Hashable, Sendable {
    /// `L`: lost.
    case lost = 76  // L
    /// `Q`: being acquired (query).
    case acquiring = 81  // Q
    /// `T`: tracked.
    case tracking = 84  // T
}

extension FieldReader {
    /// `L`, `Q` or `T`, or `nil` when empty; another letter is an ``FieldError/unexpectedCharacter`` error.
    @inline(__always)
    mutating func targetStatus() -> TargetStatus? {
        letter(in: "LQT").flatMap(TargetStatus.init(rawValue:))
    }

    /// `R` (a reference target) as `true`, empty (the standard's "otherwise") as `false`; another letter is an
    /// ``FieldError/unexpectedCharacter`` error and reads as `false`.
    @inline(__always)
    mutating func isReferenceTarget() -> Bool {
        letter(in: "R") != nil
    }
}
