import AIS
import Glibc

/// Deterministic AIS traffic around a harbour: vessels of class A and B, moving on straight courses, sending what
/// real stations send in about the proportions a shore receiver hears (mostly position reports; static and voyage
/// data in two parts, type 24 in parts A and B, base station reports, aids to navigation). For benchmarks and
/// tests: the same count always gives the same bytes.
public struct AISTraffic: Sendable {
    /// Where the traffic is (degrees).
    public var latitude = 53.54
    public var longitude = 9.95
    /// How many stations send.
    public var vessels = 200

    public init() {}

    /// `messages` messages as sentences with CR LF, in the order a receiver hears them; `from` continues a stream
    /// written in pieces.
    public func sentences(messages: Int, from first: Int = 0) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(messages * 50)
        for index in first..<(first + messages) {
            let vessel = index % vessels
            let round = index / vessels
            let mmsi = 211_000_000 + vessel * 1_017
            let channel = UInt8(ascii: index % 2 == 0 ? "A" : "B")
            switch index % 20 {
            case 5: out += staticAndVoyage(mmsi: mmsi, vessel: vessel).sentences(channel: channel, sequence: index % 10)
            case 9: out += staticPart(mmsi: mmsi + 1, vessel: vessel, part: round % 2).sentences(channel: channel)
            case 13: out += baseStation(round: round).sentences(channel: channel)
            case 17: out += aidToNavigation(vessel: vessel).sentences(channel: channel)
            case 2, 7, 11, 15, 19:
                out += classB(mmsi: mmsi + 1, vessel: vessel, round: round).sentences(channel: channel)
            default: out += classA(mmsi: mmsi, vessel: vessel, round: round).sentences(channel: channel)
            }
        }
        return out
    }

    private func position(vessel: Int, round: Int) -> (latitude: Double, longitude: Double, course: Int) {
        let course = (vessel * 37) % 360
        let step = Double(round) * 0.0005
        let radians = Double(course) * .pi / 180
        let north = step * cos(radians)
        let east = step * sin(radians)
        return (latitude + Double(vessel % 20) * 0.01 + north, longitude + Double(vessel / 20) * 0.01 + east, course)
    }

    private func classA(mmsi: Int, vessel: Int, round: Int) -> AISEncoder {
        let (lat, lon, course) = position(vessel: vessel, round: round)
        var m = AISEncoder()
        m.put(1 + vessel % 3, 6)
        m.put(0, 2)
        m.put(mmsi, 30)
        m.put(vessel % 9, 4)
        m.put((vessel % 21) - 10, 8)
        m.put(80 + vessel % 120, 10)
        m.put(1, 1)
        m.put(Int((lon * 600_000).rounded()), 28)
        m.put(Int((lat * 600_000).rounded()), 27)
        m.put(course * 10, 12)
        m.put(course, 9)
        m.put(round % 60, 6)
        m.put(0, 2)
        m.put(0, 3)
        m.put(vessel % 2, 1)
        m.put(49_252 + vessel, 19)
        return m
    }

    private func classB(mmsi: Int, vessel: Int, round: Int) -> AISEncoder {
        let (lat, lon, course) = position(vessel: vessel, round: round)
        var m = AISEncoder()
        m.put(18, 6)
        m.put(0, 2)
        m.put(mmsi, 30)
        m.put(0, 8)
        m.put(40 + vessel % 60, 10)
        m.put(0, 1)
        m.put(Int((lon * 600_000).rounded()), 28)
        m.put(Int((lat * 600_000).rounded()), 27)
        m.put(course * 10, 12)
        m.put(511, 9)
        m.put(round % 60, 6)
        m.put(0, 2)
        for _ in 0..<5 { m.put(1, 1) }
        m.put(0, 1)
        m.put(0, 1)
        m.put(917_510, 20)
        return m
    }

    private func staticAndVoyage(mmsi: Int, vessel: Int) -> AISEncoder {
        var m = AISEncoder()
        m.put(5, 6)
        m.put(0, 2)
        m.put(mmsi, 30)
        m.put(2, 2)
        m.put(9_000_000 + vessel, 30)
        m.put(text: "DA\(vessel)", 7)
        m.put(text: "VESSEL \(vessel)", 20)
        m.put(60 + vessel % 30, 8)
        m.put(20 + vessel % 100, 9)
        m.put(10 + vessel % 20, 9)
        m.put(4 + vessel % 8, 6)
        m.put(4 + vessel % 8, 6)
        m.put(1, 4)
        m.put(1 + vessel % 12, 4)
        m.put(1 + vessel % 28, 5)
        m.put(vessel % 24, 5)
        m.put(vessel % 60, 6)
        m.put(30 + vessel % 100, 8)
        m.put(text: vessel % 2 == 0 ? "HAMBURG" : "ROTTERDAM", 20)
        m.put(0, 1)
        m.put(0, 1)
        return m
    }

    private func staticPart(mmsi: Int, vessel: Int, part: Int) -> AISEncoder {
        var m = AISEncoder()
        m.put(24, 6)
        m.put(0, 2)
        m.put(mmsi, 30)
        m.put(part, 2)
        if part == 0 {
            m.put(text: "YACHT \(vessel)", 20)
            m.put(0, 8)
        } else {
            m.put(37, 8)
            m.put(text: "SWN", 3)
            m.put(1, 4)
            m.put(vessel, 20)
            m.put(text: "DB\(vessel)", 7)
            m.put(8, 9)
            m.put(3, 9)
            m.put(2, 6)
            m.put(2, 6)
            m.put(1, 4)
            m.put(0, 2)
        }
        return m
    }

    private func baseStation(round: Int) -> AISEncoder {
        var m = AISEncoder()
        m.put(4, 6)
        m.put(0, 2)
        m.put(2_111_240, 30)
        m.put(2026, 14)
        m.put(12, 4)
        m.put(6, 5)
        m.put((round / 3600) % 24, 5)
        m.put((round / 60) % 60, 6)
        m.put(round % 60, 6)
        m.put(1, 1)
        m.put(Int((longitude * 600_000).rounded()), 28)
        m.put(Int((latitude * 600_000).rounded()), 27)
        m.put(7, 4)
        m.put(0, 10)
        m.put(0, 1)
        m.put(49_859, 19)
        return m
    }

    private func aidToNavigation(vessel: Int) -> AISEncoder {
        var m = AISEncoder()
        m.put(21, 6)
        m.put(0, 2)
        m.put(992_111_000 + vessel, 30)
        m.put(5, 5)
        m.put(text: "BUOY \(vessel)", 20)
        m.put(1, 1)
        m.put(Int(((longitude + 0.02) * 600_000).rounded()), 28)
        m.put(Int(((latitude + 0.02) * 600_000).rounded()), 27)
        m.put(0, 9)
        m.put(2, 9)
        m.put(0, 6)
        m.put(1, 6)
        m.put(1, 4)
        m.put(12, 6)
        m.put(0, 1)
        m.put(0, 8)
        m.put(0, 1)
        m.put(0, 1)
        m.put(0, 1)
        m.put(0, 1)
        return m
    }
}
