/// A geohash cell: the world halved again and again, longitude first, latitude next, five bits a character.
///
/// Seven characters (35 bits: 18 of longitude, 17 of latitude) make cells of 0.001373° × 0.001373°, about
/// 153 m × 153 m at the equator and narrower towards the poles: the key of the place cache.
public struct Geohash: Hashable, Sendable, CustomStringConvertible {
    /// The interleaved bits, the first at the top of the lowest `5 × length` bits.
    public let bits: UInt64
    /// Characters, 1...12.
    public let length: Int

    static let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// The cell of `length` characters that holds the position.
    public init(latitude: Double, longitude: Double, length: Int = 7) {
        precondition((1...12).contains(length), "a geohash has 1 to 12 characters")
        var latitudeRange = (-90.0, 90.0)
        var longitudeRange = (-180.0, 180.0)
        var bits: UInt64 = 0
        /// Halves `range` to the half holding `value`; `true` for the upper half.
        func halve(_ range: inout (Double, Double), keeping value: Double) -> Bool {
            let middle = (range.0 + range.1) / 2
            if value >= middle {
                range.0 = middle
                return true
            }
            range.1 = middle
            return false
        }
        for index in 0..<(length * 5) {
            bits <<= 1
            let upper =
                index % 2 == 0
                ? halve(&longitudeRange, keeping: longitude) : halve(&latitudeRange, keeping: latitude)
            if upper { bits |= 1 }
        }
        self.bits = bits
        self.length = length
    }

    /// The cell of `length` characters whose interleaved bits are `bits`.
    init(bits: UInt64, length: Int) {
        self.bits = bits & (1 << UInt64(length * 5) - 1)
        self.length = length
    }

    /// The cell a geohash text names (`"u33dc0c"`), or `nil` when the text is not one.
    public init?(_ text: some StringProtocol) {
        let characters = Array(text.utf8)
        guard (1...12).contains(characters.count) else { return nil }
        var bits: UInt64 = 0
        for character in characters {
            guard let value = Geohash.alphabet.firstIndex(of: character) else { return nil }
            bits = bits << 5 | UInt64(value)
        }
        self.bits = bits
        self.length = characters.count
    }

    /// The south-west and north-east corners of the cell, decimal degrees.
    public var bounds: (south: Double, west: Double, north: Double, east: Double) {
        var latitudeRange = (-90.0, 90.0)
        var longitudeRange = (-180.0, 180.0)
        let count = length * 5
        for index in 0..<count {
            let bit = (bits >> UInt64(count - 1 - index)) & 1 == 1
            if index % 2 == 0 {
                let middle = (longitudeRange.0 + longitudeRange.1) / 2
                if bit { longitudeRange.0 = middle } else { longitudeRange.1 = middle }
            } else {
                let middle = (latitudeRange.0 + latitudeRange.1) / 2
                if bit { latitudeRange.0 = middle } else { latitudeRange.1 = middle }
            }
        }
        return (latitudeRange.0, longitudeRange.0, latitudeRange.1, longitudeRange.1)
    }

    /// The centre of the cell, decimal degrees.
    public var center: (latitude: Double, longitude: Double) {
        let bounds = bounds
        return ((bounds.south + bounds.north) / 2, (bounds.west + bounds.east) / 2)
    }

    /// The geohash text: `"u33dc0c"`.
    public var description: String {
        var characters: [UInt8] = []
        characters.reserveCapacity(length)
        for index in (0..<length).reversed() {
            characters.append(Geohash.alphabet[Int((bits >> UInt64(index * 5)) & 31)])
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
