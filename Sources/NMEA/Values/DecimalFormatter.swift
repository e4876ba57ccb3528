/// The one number writer: every number the tools write (JSON, GPX, GeoJSON, SVG, tables, the terminal) is written
/// here, as plain decimal text, never in exponent notation (`0.00001`, not `1e-05`: `xsd:decimal` has no exponent,
/// and people read plain digits).
///
/// - A sentence's number (``FixedPoint``) digit for digit, as it was sent, and integers.
/// - A `Double` in the shortest digits that read back as the same `Double` (``write(_:to:)``).
/// - Rounded to a number of decimals, trailing zeros kept: `12.500` (``write(_:decimals:to:)``).
/// - Rounded to at most a number of decimals, trailing zeros dropped: `12.5` (``write(_:maximumDecimals:to:)``).
///
/// Each is made once, as contiguous bytes (``withText(_:_:)``), and handed to a byte-by-byte writer (`to:`), a
/// byte array (`append(…to:)`, in one copy) or a `String` (`string(…)`).
///
/// Rounding is half away from zero, and a value that rounds to zero is written without a sign (`-0.04` to one
/// decimal is `0.0`). Not-a-number and the infinities are written `nan`, `inf` and `-inf`; writers of formats that
/// lack them (JSON) check first. Nothing here allocates but the shortest digits of values with more than 15
/// characters (they come from the standard library's `description`).
public enum DecimalFormatter {
    /// How a `Double` is written.
    public enum Style: Sendable, Hashable {
        /// The shortest digits that read back as the same `Double`: `48.1374`, `520`, `0.00000015`.
        case shortest
        /// Rounded to exactly this many decimals (0…15), trailing zeros kept: `12.500`.
        case decimals(Int)
        /// Rounded to at most this many decimals (0…15), trailing zeros dropped: `12.5`, `0.087`.
        case maximumDecimals(Int)
    }

    // MARK: Sentence numbers and integers

    /// Writes `value` as plain decimal (no exponent) with exactly `value.scale` decimal places, and at least
    /// `minimumDigits` digits in all (zero-padded on the left: `(712345, 5)` with 7 digits is `07.12345`).
    @inlinable
    public static func write(_ value: FixedPoint, minimumDigits: Int = 1, to output: (UInt8) -> Void) {
        writeDigits(value.significand, scale: Int(value.scale), minimumDigits: minimumDigits, to: output)
    }

    /// Writes an integer with at least `minimumDigits` digits, zero-padded.
    @inlinable
    public static func write(_ value: Int, minimumDigits: Int = 1, to output: (UInt8) -> Void) {
        writeDigits(Int64(value), scale: 0, minimumDigits: minimumDigits, to: output)
    }

    /// Appends what ``write(_:minimumDigits:to:)-(FixedPoint,_,_)`` writes to `bytes`, in one copy.
    @inlinable
    public static func append(_ value: FixedPoint, minimumDigits: Int = 1, to bytes: inout [UInt8]) {
        withDigits(value.significand, scale: Int(value.scale), minimumDigits: minimumDigits) {
            bytes.append(contentsOf: $0)
        }
    }

    /// Appends what ``write(_:minimumDigits:to:)-(Int,_,_)`` writes to `bytes`, in one copy.
    @inlinable
    public static func append(_ value: Int, minimumDigits: Int = 1, to bytes: inout [UInt8]) {
        withDigits(Int64(value), scale: 0, minimumDigits: minimumDigits) { bytes.append(contentsOf: $0) }
    }

    // MARK: Doubles

    /// Writes `value` in the shortest digits that read back as the same `Double`, in plain decimal: `48.1374`,
    /// `520` (a whole number has no fraction), `0.00000015`, `10000000000000000`.
    public static func write(_ value: Double, to output: (UInt8) -> Void) {
        withText(value, .shortest) { $0.forEach(output) }
    }

    /// Writes `value` rounded to exactly `decimals` decimal places (0…15), trailing zeros kept: `12.500`, `3`.
    /// A value too large for that many decimals is written as ``write(_:to:)`` writes it.
    public static func write(_ value: Double, decimals: Int, to output: (UInt8) -> Void) {
        withText(value, .decimals(decimals)) { $0.forEach(output) }
    }

    /// Writes `value` rounded to at most `maximumDecimals` decimal places (0…15), trailing zeros dropped: `12.5`,
    /// `3`, `0.087`.
    public static func write(_ value: Double, maximumDecimals: Int, to output: (UInt8) -> Void) {
        withText(value, .maximumDecimals(maximumDecimals)) { $0.forEach(output) }
    }

    /// Appends `value` written in `style` to `bytes`, in one copy.
    public static func append(_ value: Double, _ style: Style = .shortest, to bytes: inout [UInt8]) {
        withText(value, style) { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with `value` written with at least `minimumDigits` digits (zero-padded), as contiguous bytes.
    @inlinable
    public static func withText<R>(_ value: Int, minimumDigits: Int = 1, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
    {
        withDigits(Int64(value), scale: 0, minimumDigits: minimumDigits, body)
    }

    /// Calls `body` with `value`'s digits as sent (``write(_:minimumDigits:to:)-(FixedPoint,_,_)``), as contiguous
    /// bytes.
    @inlinable
    public static func withText<R>(
        _ value: FixedPoint, minimumDigits: Int = 1, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        withDigits(value.significand, scale: Int(value.scale), minimumDigits: minimumDigits, body)
    }

    /// Calls `body` with the text of `value` written in `style`.
    ///
    /// Inlinable, so that it is specialized in the caller's module: called as a generic function, each number paid
    /// for looking up the type of `R`'s closure context (about a third of writing a number).
    @inlinable
    public static func withText<R>(_ value: Double, _ style: Style, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard value.isFinite else {
            let text: StaticString = value.isNaN ? "nan" : value < 0 ? "-inf" : "inf"
            return body(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        switch style {
        case .shortest:
            return withShortest(value, body)
        case .decimals(let decimals):
            guard let (significand, scale) = scaled(value, decimals: decimals) else { return withShortest(value, body) }
            return withDigits(significand, scale: scale, minimumDigits: 1, body)
        case .maximumDecimals(let decimals):
            guard var (significand, scale) = scaled(value, decimals: decimals) else {
                return withShortest(value, body)
            }
            while scale > 0 && significand % 10 == 0 {
                significand /= 10
                scale -= 1
            }
            return withDigits(significand, scale: scale, minimumDigits: 1, body)
        }
    }

    // MARK: As text

    /// The text ``write(_:minimumDigits:to:)-(Int,_,_)`` writes: `07` for `(7, minimumDigits: 2)`.
    public static func string(_ value: Int, minimumDigits: Int = 1) -> String {
        withDigits(Int64(value), scale: 0, minimumDigits: minimumDigits) { String(decoding: $0, as: UTF8.self) }
    }

    /// The text ``write(_:minimumDigits:to:)-(FixedPoint,_,_)`` writes: `08.2440` for `(82440, scale 4)` with
    /// `minimumDigits: 6`.
    public static func string(_ value: FixedPoint, minimumDigits: Int = 1) -> String {
        withDigits(value.significand, scale: Int(value.scale), minimumDigits: minimumDigits) {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The text ``write(_:to:)`` writes.
    public static func string(_ value: Double) -> String { string(value, .shortest) }

    /// The text ``write(_:decimals:to:)`` writes.
    public static func string(_ value: Double, decimals: Int) -> String { string(value, .decimals(decimals)) }

    /// The text ``write(_:maximumDecimals:to:)`` writes.
    public static func string(_ value: Double, maximumDecimals: Int) -> String {
        string(value, .maximumDecimals(maximumDecimals))
    }

    /// The text of `value` written in `style`.
    public static func string(_ value: Double, _ style: Style) -> String {
        withText(value, style) { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: Internals

    /// Writes `significand` with a decimal point `scale` digits from the right, and at least `minimumDigits` digits.
    @inlinable
    static func writeDigits(_ significand: Int64, scale: Int, minimumDigits: Int, to output: (UInt8) -> Void) {
        withDigits(significand, scale: scale, minimumDigits: minimumDigits) { $0.forEach(output) }
    }

    /// Calls `body` with `significand` written with a decimal point `scale` digits from the right and at least
    /// `minimumDigits` digits (zero-padded on the left), as contiguous bytes.
    @inlinable
    static func withDigits<R>(
        _ significand: Int64, scale: Int, minimumDigits: Int,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        // A sign, at most 20 digits and a point, written backwards from the end of an inline buffer, two digits at a
        // time: no reversing, no call per byte, one division for two digits.
        var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &storage) { buffer in
            let bytes = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let end = buffer.count
            var start = end
            var magnitude = significand.magnitude
            let scale = min(max(scale, 0), 19)
            @inline(__always)
            func pair() {
                let quotient = magnitude / 100
                let offset = Int(truncatingIfNeeded: magnitude &- quotient &* 100) &* 2
                start -= 2
                bytes[start] = digitPairs.utf8Start[offset]
                bytes[start + 1] = digitPairs.utf8Start[offset + 1]
                magnitude = quotient
            }
            @inline(__always)
            func digit() {
                start -= 1
                bytes[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            var fraction = scale
            while fraction >= 2 {
                pair()
                fraction -= 2
            }
            if fraction == 1 { digit() }
            if scale > 0 {
                start -= 1
                bytes[start] = UInt8(ascii: ".")
            }
            // The integer part: at least one digit, and enough for `minimumDigits` in all (20 at most).
            let integerMinimum = max(min(max(minimumDigits, scale + 1), 20) - scale, 1)
            var written = 0
            while magnitude >= 10 {
                pair()
                written += 2
            }
            if magnitude != 0 || written == 0 {
                digit()
                written += 1
            }
            while written < integerMinimum {
                start -= 1
                bytes[start] = UInt8(ascii: "0")
                written += 1
            }
            if significand < 0 {
                start -= 1
                bytes[start] = UInt8(ascii: "-")
            }
            return body(UnsafeBufferPointer(start: bytes + start, count: end - start))
        }
    }

    /// `00`, `01` … `99`: two digits at a time.
    @usableFromInline
    static var digitPairs: StaticString {
        """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """
    }

    /// `value` × 10^`decimals` rounded half away from zero, and the number of decimals; `nil` when that is not
    /// finite or not exactly an integer of 53 bits.
    @usableFromInline
    static func scaled(_ value: Double, decimals: Int) -> (significand: Int64, scale: Int)? {
        let decimals = min(max(decimals, 0), 15)
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        let scaled = (value * power).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, abs(scaled) < 9e15 else { return nil }
        return (Int64(scaled), decimals)
    }

    /// The shortest digits of a finite `value`: a whole number's integer digits, else the standard library's
    /// (`48.1374`), in plain decimal when it wrote an exponent (`1.5e-07`).
    @inlinable
    static func withShortest<R>(_ value: Double, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if value == value.rounded(.towardZero) && abs(value) < 1e15 {
            return withDigits(Int64(value), scale: 0, minimumDigits: 1, body)
        }
        if let (significand, decimals) = fewestDecimals(value) {
            return withDigits(significand, scale: decimals, minimumDigits: 1, body)
        }
        var text = value.description
        return text.withUTF8 { utf8 in
            guard utf8.contains(UInt8(ascii: "e")) else { return body(utf8) }
            var expanded: [UInt8] = []
            expand(utf8) { expanded.append($0) }
            return expanded.withUnsafeBufferPointer(body)
        }
    }

    /// The fewest decimals that read back as `value`, and its digits with them (`48.1173` → (481173, 4)): the
    /// standard library's shortest text (`value.description`) without making a `String`, for the values a position,
    /// an altitude or a DOP take (1e-4 ≤ |value| < 1e15, up to 2^50 in the digits); `nil` for any other, which goes
    /// the slow way. Below 2^50 a scaled value's rounding error is under 1/8 and the interval of doubles that read
    /// back as `value` holds at most one integer, so the first number of decimals whose rounded digits divide back
    /// to `value` exactly gives the same digits as the shortest text (checked against it in `DecimalFormatterTests`).
    @usableFromInline
    static func fewestDecimals(_ value: Double) -> (significand: Int64, decimals: Int)? {
        let magnitude = abs(value)
        guard magnitude >= 1e-4 && magnitude < 1e15 else { return nil }
        var scale = 1.0
        var first = 1
        // Whether a number of decimals reads back only grows with it (below 2^50 the digits of d decimals, times ten,
        // are those of d + 1), so one try at ten decimals, below 2^50 when |value| < 112,589, tells whether the
        // fewest are at most ten, and they are then its digits without their trailing zeros: a position's seven to
        // ten decimals in one step rather than one step a decimal.
        if magnitude < 112_589 {
            let product = value * 1e10
            let significand = product >= 0 ? Int64(product + 0.5) : -Int64(-product + 0.5)
            if Double(significand) / 1e10 == value { return withoutTrailingZeros(significand, decimals: 10) }
            scale = 1e10
            first = 11
        }
        for decimals in first...17 {
            scale *= 10
            let product = value * scale
            guard abs(product) < 1_125_899_906_842_624 else { return nil }  // 2^50
            // Rounded half away from zero, as `rounded()` (adding ½ is exact below 2^50), without libm's `round`.
            let significand = product >= 0 ? Int64(product + 0.5) : -Int64(-product + 0.5)
            if Double(significand) / scale == value { return (significand, decimals) }
        }
        return nil
    }

    /// `significand` with `decimals` (10) decimals, its trailing zeros dropped down to one decimal: 5 + 2 + 2 + 1.
    @inline(__always)
    static func withoutTrailingZeros(_ significand: Int64, decimals: Int) -> (significand: Int64, decimals: Int) {
        var significand = significand
        var decimals = decimals
        if significand % 100_000 == 0 {
            significand /= 100_000
            decimals -= 5
        }
        for _ in 0..<2 where decimals >= 3 && significand % 100 == 0 {
            significand /= 100
            decimals -= 2
        }
        if decimals >= 2 && significand % 10 == 0 {
            significand /= 10
            decimals -= 1
        }
        return (significand, decimals)
    }

    /// Writes the standard library's digits with an exponent (`1.5e-07`, `-2.5e+16`) in plain decimal.
    @usableFromInline
    static func expand(_ text: UnsafeBufferPointer<UInt8>, to output: (UInt8) -> Void) {
        let e = text.firstIndex(of: UInt8(ascii: "e"))!
        var exponent = 0
        var exponentSign = 1
        for byte in text[(e + 1)...] {
            switch byte {
            case UInt8(ascii: "-"): exponentSign = -1
            case UInt8(ascii: "+"): break
            default: exponent = exponent * 10 + Int(byte &- UInt8(ascii: "0"))
            }
        }
        var start = 0
        if text[0] == UInt8(ascii: "-") {
            output(UInt8(ascii: "-"))
            start = 1
        }
        // The mantissa's digits without its point, and where the point goes in them after the exponent.
        let mantissa = text[start..<e]
        let point = mantissa.firstIndex(of: UInt8(ascii: ".")).map { $0 - start } ?? mantissa.count
        let digitCount = mantissa.count - (mantissa.contains(UInt8(ascii: ".")) ? 1 : 0)
        let position = point + exponentSign * exponent
        func digit(_ index: Int) -> UInt8 {
            let offset = start + index
            return index < point ? text[offset] : text[offset + 1]
        }
        if position <= 0 {
            output(UInt8(ascii: "0"))
            output(UInt8(ascii: "."))
            for _ in 0..<(-position) { output(UInt8(ascii: "0")) }
            for index in 0..<digitCount { output(digit(index)) }
        } else if position >= digitCount {
            for index in 0..<digitCount { output(digit(index)) }
            for _ in 0..<(position - digitCount) { output(UInt8(ascii: "0")) }
        } else {
            for index in 0..<position { output(digit(index)) }
            output(UInt8(ascii: "."))
            for index in position..<digitCount { output(digit(index)) }
        }
    }
}
