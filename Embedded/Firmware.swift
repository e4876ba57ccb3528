// A firmware for a Cortex-M4 (and, unchanged, for riscv32 and wasm32): the input file's bytes through a FixReader in
// 64-byte chunks, as a UART would hand them over, with no heap; one line per fix,
// `FIX <ISO 8601 time> <latitude> <longitude>` (six decimals; `-` where a fix has none), then the firmware's sizes
// and the bytes it allocated (support.c).
import NMEA

@_extern(c, "firmware_input")
func firmwareInput(_ count: UnsafeMutablePointer<Int>) -> UnsafePointer<UInt8>
@_extern(c, "firmware_framer_storage")
func firmwareFramerStorage(_ count: UnsafeMutablePointer<Int>) -> UnsafeMutablePointer<UInt8>
@_extern(c, "firmware_write")
func firmwareWrite(_ bytes: UnsafePointer<UInt8>, _ count: Int)
@_extern(c, "firmware_report")
func firmwareReport()

/// One line of output, kept in place until it is written.
struct Line {
    var bytes: InlineArray<96, UInt8> = InlineArray(repeating: 0)
    var count = 0

    mutating func append(_ byte: UInt8) {
        if count < 96 {
            bytes[count] = byte
            count += 1
        }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { for byte in $0 { append(byte) } }
    }

    mutating func write() {
        append(UInt8(ascii: "\n"))
        let kept = count
        withUnsafeBytes(of: &bytes) { raw in
            firmwareWrite(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), kept)
        }
        count = 0
    }
}

func report(_ fix: Fix) {
    var line = Line()
    line.append("FIX ")
    if fix.date != nil && fix.time != nil {
        fix.writeISO8601 { line.append($0) }
    } else {
        line.append("-")
    }
    append(fix.latitude, to: &line)
    append(fix.longitude, to: &line)
    line.write()
}

/// ` 48.137400`, or ` -` for none: rounded as `DecimalFormatter.write(_:decimals:to:)` rounds, written as a
/// `FixedPoint` (a coordinate always fits, so the shortest-digits fallback for huge values, 12 KB of flash with the
/// standard library's `description`, stays out of the firmware).
func append(_ value: Double?, to line: inout Line) {
    line.append(" ")
    if let value {
        let micro = Int64((value * 1_000_000).rounded(.toNearestOrAwayFromZero))
        DecimalFormatter.write(FixedPoint(significand: micro, scale: 6)) { line.append($0) }
    } else {
        line.append("-")
    }
}

/// The reader in static memory (`.bss`), made on first use, as firmware keeps its long-lived state: on the stack,
/// `main`'s frame held it and the temporaries of its making.
nonisolated(unsafe) var reader: FixReader = {
    // The framer in a static buffer of the C side's (sentences up to 128 characters), no heap.
    var storageCount = 0
    let storage = UnsafeMutableRawBufferPointer(start: firmwareFramerStorage(&storageCount), count: storageCount)
    return FixReader(options: FixReader.Options(maximumLength: 128), framerStorage: storage)
}()

@main
struct Firmware {
    static func main() {
        var count = 0
        let input = firmwareInput(&count)
        var offset = 0
        while offset < count {
            let chunk = min(64, count - offset)
            reader.read(UnsafeRawBufferPointer(start: input + offset, count: chunk), report)
            offset += chunk
        }
        reader.finish(report)
        firmwareReport()
    }
}
