import NMEA

/// An sRGB color.
public struct RGB: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb`.
    public var hex: String {
        var text = "#"
        for component in [red, green, blue] {
            text += Hex.string(UInt64(component), minimumDigits: 2, uppercase: false)
        }
        return text
    }

    /// The color `fraction` (0…1) of the way from `self` to `other`.
    func mixed(with other: RGB, _ fraction: Double) -> RGB {
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8(min(255, max(0, (Double(a) + (Double(b) - Double(a)) * fraction).rounded())))
        }
        return RGB(channel(red, other.red), channel(green, other.green), channel(blue, other.blue))
    }
}

/// A color scale cut into equal bins, so a track becomes a handful of same-colored paths and the legend shows
/// exactly the colors the track uses.
public struct ColorRamp: Sendable {
    /// Evenly spaced colors the ramp passes through.
    public var stops: [RGB]
    /// How many distinct colors the ramp is cut into.
    public var binCount: Int
    /// The values at the low and high ends.
    public var low: Double
    public var high: Double

    /// Slow to fast: blue, cyan, yellow, orange, red. No green, which marks the start.
    public static let speedStops = [
        RGB(0x2c, 0x7b, 0xb6), RGB(0x00, 0xa6, 0xca), RGB(0xf9, 0xd0, 0x57), RGB(0xf2, 0x8e, 0x2b),
        RGB(0xd7, 0x19, 0x1c),
    ]
    /// Low to high: teal, pale blue-green, sand, brown.
    public static let altitudeStops = [
        RGB(0x01, 0x66, 0x5e), RGB(0x5a, 0xb4, 0xac), RGB(0xdf, 0xc2, 0x7d), RGB(0xa6, 0x61, 0x1a),
        RGB(0x54, 0x30, 0x05),
    ]

    public init(stops: [RGB], binCount: Int = 10, low: Double, high: Double) {
        self.stops = stops
        self.binCount = max(1, binCount)
        self.low = low
        self.high = high > low ? high : low + 1
    }

    /// The bin (0..<binCount) of `value`; values outside the range go to the end bins.
    public func bin(_ value: Double) -> Int {
        guard value.isFinite else { return 0 }
        let fraction = (value - low) / (high - low)
        return min(binCount - 1, max(0, Int(fraction * Double(binCount))))
    }

    /// The color of bin `index`: the ramp at the bin's middle.
    public func color(ofBin index: Int) -> RGB {
        color(atFraction: (Double(index) + 0.5) / Double(binCount))
    }

    /// The ramp's color at `fraction` (0…1) of the way along.
    public func color(atFraction fraction: Double) -> RGB {
        guard stops.count > 1 else { return stops.first ?? RGB(0, 0, 0) }
        let position = min(1, max(0, fraction)) * Double(stops.count - 1)
        let index = min(stops.count - 2, Int(position))
        return stops[index].mixed(with: stops[index + 1], position - Double(index))
    }

    /// The lower edge value of bin `index`.
    public func lowerEdge(ofBin index: Int) -> Double { low + (high - low) * Double(index) / Double(binCount) }
}
