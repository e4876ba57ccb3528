import AIS
import NMEA

/// A binary application message of our own making, and what we know of how gpsd writes it differently.
struct AISApplicationSample: Sendable, CustomStringConvertible {
    let description: String
    let bits: AISBits
    /// Paths (`"airdraught"`, `"tidals.0.lat"`) whose unscaled value gpsd writes differently, with why.
    var differences: [String: String] = [:]
    /// Paths whose value in units gpsd writes differently, with why.
    var scaledDifferences: [String: String] = [:]
    /// Paths holding a "not available" value: in units we leave them out, gpsd writes them.
    var notAvailable: Set<String> = []

    /// The sentences that carry it: as many parts of at most 60 characters as it needs.
    var lines: [String] { bits.sentences(parts: (bits.armored.payload.count + 59) / 60) }
}

extension AISBits {
    /// A type 6 message to MMSI 211000001 up to its function identifier (88 bits).
    static func addressed(fid: Int, dac: Int = 1) -> AISBits {
        var bits = AISBits()
        for (value, width) in [(6, 6), (0, 2), (244_000_001, 30), (0, 2), (211_000_001, 30), (0, 1), (0, 1)] {
            bits.put(value, width)
        }
        bits.put(dac, 10)
        bits.put(fid, 6)
        return bits
    }

    /// A type 8 message up to its function identifier (56 bits).
    static func broadcast(fid: Int, dac: Int = 1) -> AISBits {
        var bits = AISBits()
        for (value, width) in [(8, 6), (0, 2), (244_000_002, 30), (0, 2), (dac, 10), (fid, 6)] {
            bits.put(value, width)
        }
        return bits
    }

    /// Degrees as a two's-complement number of `width` bits in units of `1 / perDegree`.
    mutating func put(degrees: Double, _ width: Int, perDegree: Double) {
        put(Int((degrees * perDegree).rounded()) & ((1 << width) - 1), width)
    }

    /// Several unsigned numbers in a row: (value, width) pairs.
    mutating func put(_ fields: [(Int, Int)]) {
        for (value, width) in fields { put(value, width) }
    }

    /// Zero bits up to `count` in all.
    mutating func pad(to count: Int) {
        while bits.count < count { put(0, 1) }
    }
}

/// The samples: each application gpsd decodes, with ordinary values and "not available" ones.
enum AISApplicationSamples {
    static let thousandth = 60_000.0
    static let tenThousandth = 600_000.0

    static let all: [AISApplicationSample] = addressed + broadcast

    static let addressed: [AISApplicationSample] = [
        dangerousCargo236(), dangerousCargo236Short(), tidalWindow(fid: 14),
        misreadByGpsd(
            fid: 15, "airdraught", 315, 11, why: "gpsd reads bits 56-66 (inside the destination MMSI), as for type 8"),
        persons(312),
        persons(0),
        misreadByGpsd(
            fid: 16, "persons", 57, 13, why: "gpsd reads bits 55-67 unless the data is 136 bits long"),
        clearance(lon: 4.05, lat: 51.95), clearance(lon: 181, lat: 91), berthing(),
        dangerousCargo289(), routeAddressed(count: 3, sent: 3), routeAddressed(count: 5, sent: 2),
        text(addressed: true),
        tidalWindow(fid: 32),
    ]

    static let broadcast: [AISApplicationSample] = [
        fairwayClosed(), airDraughtBroadcast(), vtsTargets(), marineTrafficSignal(), routeBroadcast(),
        text(addressed: false), personsBroadcast(),
    ]

    static func dangerousCargo236() -> AISApplicationSample {
        var bits = AISBits.addressed(fid: 12)
        bits.put(text: "NLRTM", 5)
        bits.put([(3, 4), (14, 5), (8, 5), (30, 6)])  // departure 03-14T08:30
        bits.put(text: "DEHAM", 5)
        bits.put([(3, 4), (16, 5), (22, 5), (5, 6)])  // ETA 03-16T22:05
        bits.put(text: "AMMONIUM NITRATE", 20)
        bits.put(text: "5.1", 4)
        bits.put([(1942, 13), (250, 10), (2, 2), (0, 3)])
        return AISApplicationSample(description: "6: DAC 1 FI 12, dangerous cargo (IMO 236)", bits: bits)
    }

    /// Cut after the departure: as gpsd, the rest reads as zeros (empty texts, zero times and numbers).
    static func dangerousCargo236Short() -> AISApplicationSample {
        var bits = AISBits.addressed(fid: 12)
        bits.put(text: "NLRTM", 5)
        bits.put([(3, 4), (14, 5), (8, 5), (30, 6), (10, 6)])
        return AISApplicationSample(
            description: "6: DAC 1 FI 12 cut short after 144 bits", bits: bits,
            notAvailable: ["unid", "amount", "unit"])
    }

    /// FI 14 (IMO 236) or 32 (IMO 289): a window with values, one with every value not available.
    static func tidalWindow(fid: Int) -> AISApplicationSample {
        let imo236 = fid == 14
        let (latitudeBits, perDegree, speedBits) = imo236 ? (27, tenThousandth, 7) : (24, thousandth, 8)
        var bits = AISBits.addressed(fid: fid)
        bits.put([(6, 4), (12, 5)])
        for available in [true, false] {
            let (latitude, longitude) = available ? (53.5, 8.1) : (91.0, 181.0)
            if imo236 { bits.put(degrees: latitude, latitudeBits, perDegree: perDegree) }
            bits.put(degrees: longitude, latitudeBits + 1, perDegree: perDegree)
            if !imo236 { bits.put(degrees: latitude, latitudeBits, perDegree: perDegree) }
            bits.put(
                available
                    ? [(6, 5), (30, 6), (9, 5), (45, 6), (270, 9), (25, speedBits)]
                    : [(24, 5), (60, 6), (24, 5), (60, 6), (360, 9), ((1 << speedBits) - 1, speedBits)])
        }
        let why = "gpsd divides IMO 236's 1/10,000-minute positions by 60,000 as it does IMO 289's 1/1,000 minutes"
        // gpsd's loop takes one window more, where the message ends: all of it past the end (zeros).
        return AISApplicationSample(
            description: "6: DAC 1 FI \(fid), tidal windows", bits: bits,
            scaledDifferences: imo236 ? ["tidals.0.lat": why, "tidals.0.lon": why] : [:],
            notAvailable: Set(
                ["lat", "lon", "from_hour", "from_min", "to_hour", "to_min", "cdir", "cspeed"].map { "tidals.1." + $0 })
        )
    }

    /// A type 6 application of one field and spare bits (16 in all) whose field gpsd 3.22 reads from other bits.
    static func misreadByGpsd(fid: Int, _ name: String, _ value: Int, _ width: Int, why: String)
        -> AISApplicationSample
    {
        var bits = AISBits.addressed(fid: fid)
        bits.put([(value, width), (0, 16 - width)])
        return AISApplicationSample(
            description: "6: DAC 1 FI \(fid), \(name) in 104 bits", bits: bits, differences: [name: why],
            scaledDifferences: [name: why])
    }

    static func persons(_ count: Int) -> AISApplicationSample {
        var bits = AISBits.addressed(fid: 16)
        bits.put(count, 13)
        bits.pad(to: 224)
        return AISApplicationSample(
            description: "6: DAC 1 FI 16, \(count) persons on board", bits: bits,
            notAvailable: count == 0 ? ["persons"] : [])
    }

    static func clearance(lon: Double, lat: Double) -> AISApplicationSample {
        var bits = AISBits.addressed(fid: 18)
        bits.put([(17, 10), (5, 4), (20, 5), (14, 5), (0, 6)])
        bits.put(text: "ROTTERDAM", 20)
        bits.put(text: "NLRTM", 5)
        bits.put(degrees: lon, 25, perDegree: thousandth)
        bits.put(degrees: lat, 24, perDegree: thousandth)
        bits.pad(to: 360)
        return AISApplicationSample(
            description: "6: DAC 1 FI 18, clearance to enter port at \(lat), \(lon)", bits: bits,
            notAvailable: lat == 91 ? ["lat", "lon"] : [])
    }

    static func berthing() -> AISApplicationSample {
        var bits = AISBits.addressed(fid: 20)
        bits.put([(1, 10), (300, 9), (125, 8), (2, 3), (7, 4), (4, 5), (9, 5), (5, 6), (1, 1)])
        for service in 0..<26 { bits.put(service % 4, 2) }
        bits.put(text: "WAALHAVEN 5", 20)
        bits.put(degrees: 4.4, 25, perDegree: thousandth)
        bits.put(degrees: 51.9, 24, perDegree: thousandth)
        return AISApplicationSample(description: "6: DAC 1 FI 20, berthing data", bits: bits)
    }

    static func dangerousCargo289() -> AISApplicationSample {
        var bits = AISBits.addressed(fid: 25)
        bits.put([(1, 2), (500, 10), (2, 4), (1203, 13), (9, 4), (3082, 13), (15, 4), (8191, 13)])
        return AISApplicationSample(description: "6: DAC 1 FI 25, dangerous cargo (IMO 289)", bits: bits)
    }

    static func waypoints(_ bits: inout AISBits, sent: Int) {
        for index in 0..<sent {
            bits.put(degrees: 4.0 + Double(index) * 0.25, 28, perDegree: tenThousandth)
            bits.put(degrees: 52.0 - Double(index) * 0.125, 27, perDegree: tenThousandth)
        }
    }

    static func routeAddressed(count: Int, sent: Int) -> AISApplicationSample {
        var bits = AISBits.addressed(fid: 28)
        bits.put([(3, 10), (1, 3), (2, 5), (6, 4), (1, 5), (12, 5), (0, 6), (90, 18), (count, 5)])
        waypoints(&bits, sent: sent)
        return AISApplicationSample(
            description: "6: DAC 1 FI 28, route of \(count) waypoints, \(sent) sent", bits: bits)
    }

    /// FI 30 (type 6) or 29 (type 8): a linkage and a text to the end of the message.
    static func text(addressed: Bool) -> AISApplicationSample {
        var bits = addressed ? AISBits.addressed(fid: 30) : AISBits.broadcast(fid: 29)
        let text = addressed ? "CAUTION DREDGING IN PROGRESS" : "SECURITE GALE WARNING GERMAN BIGHT"
        bits.put(9, 10)
        bits.put(text: text, text.count)
        return AISApplicationSample(
            description: addressed ? "6: DAC 1 FI 30, text" : "8: DAC 1 FI 29, text", bits: bits)
    }

    static func fairwayClosed() -> AISApplicationSample {
        var bits = AISBits.broadcast(fid: 13)
        bits.put(text: "DREDGING", 20)
        bits.put(text: "BUOY 12", 20)
        bits.put(text: "BUOY 14", 20)
        bits.put([(500, 10), (1, 2), (5, 5), (3, 4), (8, 5), (0, 6), (7, 5), (3, 4), (18, 5), (30, 6), (0, 4)])
        return AISApplicationSample(description: "8: DAC 1 FI 13, fairway closed", bits: bits)
    }

    static func airDraughtBroadcast() -> AISApplicationSample {
        var bits = AISBits.broadcast(fid: 15)
        bits.put([(315, 11), (0, 5)])
        return AISApplicationSample(description: "8: DAC 1 FI 15, air draught", bits: bits)
    }

    static func target(_ bits: inout AISBits, idtype: Int, available: Bool = true) {
        bits.put(idtype, 2)
        switch idtype {
        case 0: bits.put([(0, 10), (244_123_456, 32)])
        case 1: bits.put([(0, 10), (9_123_456, 32)])
        case 2: bits.put(text: "PD1234", 7)
        default: bits.put(text: "TGT7", 7)
        }
        bits.put(0, 4)
        bits.put(degrees: available ? 53.25 : 91, 24, perDegree: thousandth)
        bits.put(degrees: available ? 7.125 : 181, 25, perDegree: thousandth)
        bits.put(available ? [(123, 9), (45, 6), (12, 10)] : [(360, 9), (60, 6), (1023, 10)])
    }

    static func vtsTargets() -> AISApplicationSample {
        var bits = AISBits.broadcast(fid: 17)
        for idtype in 0..<4 { target(&bits, idtype: idtype) }
        target(&bits, idtype: 0, available: false)
        // 666 bits: gpsd's loop takes a sixth target at bit 666, all of it past the end (MMSI "0").
        return AISApplicationSample(
            description: "8: DAC 1 FI 17, VTS targets", bits: bits,
            notAvailable: ["targets.4.lat", "targets.4.lon", "targets.4.course", "targets.4.second", "targets.4.speed"])
    }

    static func marineTrafficSignal() -> AISApplicationSample {
        var bits = AISBits.broadcast(fid: 19)
        bits.put(2, 10)
        bits.put(text: "KIEL HOLTENAU", 20)
        bits.put(degrees: 10.15, 25, perDegree: thousandth)
        bits.put(degrees: 54.37, 24, perDegree: thousandth)
        bits.put([(1, 2), (2, 5), (14, 5), (30, 6), (5, 5)])
        bits.pad(to: 360)
        let why = "gpsd writes FI 19's position in degrees even unscaled"
        return AISApplicationSample(
            description: "8: DAC 1 FI 19, marine traffic signal", bits: bits,
            differences: ["lat": why, "lon": why])
    }

    static func routeBroadcast() -> AISApplicationSample {
        var bits = AISBits.broadcast(fid: 27)
        bits.put([(3, 10), (1, 3), (2, 5), (6, 4), (1, 5), (12, 5), (0, 6), (90, 18), (4, 5)])
        waypoints(&bits, sent: 4)
        return AISApplicationSample(description: "8: DAC 1 FI 27, route of 4 waypoints", bits: bits)
    }

    /// Left as data: gpsd decodes a 136-bit type 8 FI 16 but writes the addressed message's count (always 0).
    static func personsBroadcast() -> AISApplicationSample {
        var bits = AISBits.broadcast(fid: 16)
        bits.pad(to: 88)
        bits.put(57, 13)
        bits.pad(to: 192)
        let why = "gpsd writes type 6's persons for a type 8 FI 16 (0); we keep its bits"
        return AISApplicationSample(
            description: "8: DAC 1 FI 16, left as data", bits: bits, differences: ["persons": why, "data": why],
            scaledDifferences: ["persons": why, "data": why])
    }
}
