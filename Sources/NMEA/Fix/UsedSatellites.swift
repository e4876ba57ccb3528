/// The satellites GSA sentences listed as used: one bit per PRN (modulo 256) per system, so marking the sky costs a
/// lookup per satellite, not a search.
struct UsedSatellites: Sendable {
    /// Four 64-bit words per system; index 0 is "system unknown".
    private var bits = InlineArray<32, UInt64>(repeating: 0)

    mutating func insert(_ system: GNSSSystem?, _ prn: UInt16) {
        let (word, bit) = UsedSatellites.place(system, prn)
        bits[word] |= bit
    }

    /// `true` when `prn` of `system` was listed, or listed without a known system.
    func contains(_ system: GNSSSystem?, _ prn: UInt16) -> Bool {
        let (word, bit) = UsedSatellites.place(system, prn)
        let (anyWord, anyBit) = UsedSatellites.place(nil, prn)
        // Through a span: subscripting the array itself copied all 256 bytes for each lookup.
        let words = bits.span
        return words[word] & bit != 0 || words[anyWord] & anyBit != 0
    }

    mutating func removeAll() {
        for index in 0..<32 { bits[index] = 0 }
    }

    private static func place(_ system: GNSSSystem?, _ prn: UInt16) -> (Int, UInt64) {
        let row = Int(system?.rawValue ?? 0) & 7
        return (row * 4 + Int(prn >> 6) & 3, 1 << UInt64(prn & 63))
    }
}

extension FixedList where Element == SatelliteInView {
    /// Marks each satellite used or not, in place.
    mutating func markUsed(_ used: UsedSatellites) {
        for index in 0..<storedCount {
            storage[index].isUsed = used.contains(storage[index].system, storage[index].prn)
        }
    }
}
