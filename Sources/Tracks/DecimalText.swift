/// Numbers as plain decimal text for XML (`xsd:decimal`) and JSON: the shortest digits that read back as the same
/// `Double`, never in exponent notation (`0.00001`, not `1e-05`), since `xsd:decimal` does not allow it.
enum DecimalText {
    /// Appends `value` (finite) to `output`. Integers are written without a fraction (`520`).
    static func append(_ value: Double, to output: inout [UInt8]) {
        if value == value.rounded(.towardZero) && abs(value) < 1e15 {
            append(Int64(value), to: &output)
            return
        }
        var text = value.description
        text.withUTF8 { utf8 in
            guard let exponentIndex = utf8.firstIndex(where: { $0 == UInt8(ascii: "e") }) else {
                output.append(contentsOf: utf8)
                return
            }
            appendExpanding(
                mantissa: UnsafeBufferPointer(rebasing: utf8[..<exponentIndex]),
                exponent: UnsafeBufferPointer(rebasing: utf8[(exponentIndex + 1)...]), to: &output)
        }
    }

    /// Appends `value` rounded to `decimals` places, trailing zeros removed (`0.9`, `12.25`).
    static func append(_ value: Double, decimals: Int, to output: inout [UInt8]) {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        append((value * scale).rounded() / scale, to: &output)
    }

    static func append(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64) = (0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[15 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            output.append(contentsOf: buffer[(16 - count)...])
        }
    }

    static func append(_ value: Int, to output: inout [UInt8]) { append(Int64(value), to: &output) }

    /// `1.5e-07` → `0.00000015`; `1e+16` → `10000000000000000`.
    private static func appendExpanding(
        mantissa: UnsafeBufferPointer<UInt8>, exponent: UnsafeBufferPointer<UInt8>,
        to output: inout [UInt8]
    ) {
        var digits: [UInt8] = []
        var negative = false
        var pointPosition: Int?
        for byte in mantissa {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "."): pointPosition = digits.count
            default: digits.append(byte)
            }
        }
        var power = 0
        var exponentNegative = false
        for byte in exponent {
            switch byte {
            case UInt8(ascii: "-"): exponentNegative = true
            case UInt8(ascii: "+"): break
            default: power = power * 10 + Int(byte - UInt8(ascii: "0"))
            }
        }
        let point = (pointPosition ?? digits.count) + (exponentNegative ? -power : power)
        if negative { output.append(UInt8(ascii: "-")) }
        if point <= 0 {
            output.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: ".")])
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -point))
            output.append(contentsOf: digits)
        } else if point >= digits.count {
            output.append(contentsOf: digits)
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: point - digits.count))
        } else {
            output.append(contentsOf: digits[..<point])
            output.append(UInt8(ascii: "."))
            output.append(contentsOf: digits[point...])
        }
    }
}
