extension Int64 {
    /// The quotient rounded towards minus infinity and the remainder that goes with it, which is never negative for
    /// a positive `divisor`: the one division of moments into days, seconds or milliseconds, right on both sides of
    /// 1970 (`-1` nanosecond is day `-1`, not day 0).
    ///
    ///     (-1 as Int64).flooredDivision(by: 86_400_000_000_000)   // (-1, 86_399_999_999_999)
    ///
    /// - Precondition: `divisor > 0`.
    @inlinable
    public func flooredDivision(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = self / divisor
        let remainder = self - quotient * divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
