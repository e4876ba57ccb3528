import AIS
import Foundation
import JSON
import NMEA
import TestSupport
import Testing

/// The binary applications of types 6 and 8 against gpsd's decoder (`gpsdecode -j`), field for field, each sample's
/// named differences aside. pyais leaves these applications undecoded (its type 6 and 8 give the `data` bits only),
/// so gpsd is the one oracle here.
@Suite("AIS binary applications against gpsd")
struct AISApplicationTests {
    static let gpsdecode = Tools.which("gpsdecode")

    /// The one message the sample's lines make.
    static func message(_ sample: AISApplicationSample) throws -> AISMessage {
        var decoder = AISDecoder()
        let messages = decoder.add(lines: sample.lines)
        #expect(messages.count == 1, "\(sample)")
        return try #require(messages.first)
    }

    /// Ours, as JSON read back and flattened to paths (`"waypoints.1.lat"`).
    static func ours(_ sample: AISApplicationSample, scaled: Bool) throws -> [String: NSObject] {
        var json = JSONWriter()
        json.writeAIS(try message(sample), scaled: scaled)
        return flattened(try JSONSerialization.jsonObject(with: Data(json.bytes)))
    }

    /// gpsd's, without its `*_text` descriptions and `device`, flattened; FI 19's missing comma before
    /// `nextsignal_text` (gpsd 3.22 writes `"nextsignal":5"nextsignal_text":…`) put back so that it parses.
    static func gpsd(_ sample: AISApplicationSample, scaled: Bool) throws -> [String: NSObject] {
        let input = ChildProcess.Input.bytes(Array(sample.lines.joined(separator: "\n").appending("\n").utf8))
        let outcome = try ChildProcess.run([try #require(gpsdecode), "-j"] + (scaled ? [] : ["-u"]), input: input)
        #expect(outcome.status == 0)
        let line = try #require(outcome.outputLines.first)
            .replacing(#/("nextsignal":[0-9]+)"/#) { "\($0.output.1),\"" }
        return flattened(try JSONSerialization.jsonObject(with: Data(line.utf8))).filter { path, _ in
            !path.hasSuffix("_text") && path != "device"
        }
    }

    static func flattened(_ value: Any, path: String = "") -> [String: NSObject] {
        let prefix = path.isEmpty ? "" : path + "."
        if let object = value as? [String: Any] {
            return object.reduce(into: [:]) { $0.merge(flattened($1.value, path: prefix + $1.key)) { a, _ in a } }
        }
        if let array = value as? [Any] {
            var paths = array.enumerated().reduce(into: [String: NSObject]()) {
                $0.merge(flattened($1.element, path: prefix + String($1.offset))) { a, _ in a }
            }
            paths[prefix + "count"] = array.count as NSNumber
            return paths
        }
        return [path: value as? NSObject ?? NSNull()]
    }

    /// Unscaled exactly; in units to gpsd's decimals, where we leave out what is not available.
    @Test(
        "every field equals gpsd's but the named differences, unscaled and in units",
        .enabled(if: gpsdecode != nil, "gpsdecode (gpsd) is not on PATH"),
        arguments: AISApplicationSamples.all, [false, true])
    func equalsGpsd(_ sample: AISApplicationSample, scaled: Bool) throws {
        if scaled { try scaledEqualsGpsd(sample) } else { try unscaledEqualsGpsd(sample) }
    }

    func unscaledEqualsGpsd(_ sample: AISApplicationSample) throws {
        let ours = try Self.ours(sample, scaled: false)
        let theirs = try Self.gpsd(sample, scaled: false)
        #expect(ours.count >= 8, "\(sample): \(ours)")
        for path in Set(ours.keys).union(theirs.keys).sorted() {
            if let why = sample.differences[path] {
                #expect(ours[path] != theirs[path], "\(sample) \(path) was named a difference (\(why)) but agrees")
            } else {
                #expect(
                    ours[path] == theirs[path],
                    "\(sample) \(path): ours \(ours[path] as Any) gpsd \(theirs[path] as Any)")
            }
        }
    }

    func scaledEqualsGpsd(_ sample: AISApplicationSample) throws {
        let ours = try Self.ours(sample, scaled: true)
        let theirs = try Self.gpsd(sample, scaled: true)
        for path in Set(ours.keys).union(theirs.keys).sorted() {
            let why = sample.scaledDifferences[path]
            switch (ours[path], theirs[path]) {
            case (nil, .some):
                #expect(sample.notAvailable.contains(path) || why != nil, "\(sample) \(path): only gpsd has it")
            case (.some(let mine), .some(let gpsd)):
                let agree = Self.agree(mine, gpsd)
                #expect(agree == (why == nil), "\(sample) \(path): ours \(mine) gpsd \(gpsd) \(why ?? "")")
                #expect(!sample.notAvailable.contains(path), "\(sample) \(path) is not available but written")
            default:
                #expect(why != nil, "\(sample) \(path): only ours has it")
            }
        }
    }

    /// Equal texts and booleans; numbers equal to gpsd's printed decimals (at most 4 after the point).
    static func agree(_ mine: NSObject, _ gpsd: NSObject) -> Bool {
        guard let a = mine as? NSNumber, let b = gpsd as? NSNumber else { return mine == gpsd }
        return abs(a.doubleValue - b.doubleValue) <= 0.000_51
    }

    @Test("a route's waypoints: an array of objects through the group's elements, in degrees")
    func groupElements() throws {
        let message = try Self.message(AISApplicationSamples.routeBroadcast())
        let waypoints = try #require(message.field(named: "waypoints"))
        #expect(message.value(waypoints) == .group(count: 4))
        var names: [String] = []
        var latitudes: [Double] = []
        message.forEachValue(of: waypoints, element: 3) { field, value in
            names.append("\(field.name)")
            if case .number(let degrees) = value, "\(field.name)" == "lat" { latitudes.append(degrees) }
        }
        #expect(names == ["lon", "lat"])
        #expect(abs(latitudes[0] - 51.625) < 1e-9)
        var json = JSONWriter()
        json.writeAIS(message, scaled: true)
        #expect(String(decoding: json.bytes, as: UTF8.self).contains(#""waypoints":[{"lon":4,"lat":52},"#))
    }

    @Test("a VTS target's identifier follows its type: an MMSI as text, a call sign")
    func selectedLayouts() throws {
        var json = JSONWriter()
        json.writeAIS(try Self.message(AISApplicationSamples.vtsTargets()), scaled: false)
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(text.contains(#"{"idtype":0,"mmsi":"244123456","lat":3195000,"lon":427500,"course":123,"#))
        #expect(text.contains(#"{"idtype":2,"callsign":"PD1234","lat""#))
        #expect(text.contains(#"{"idtype":3,"other":"TGT7","lat""#))
    }

    @Test("a port clearance's destination and position are the port's, not its sender's voyage")
    func clearanceIsNotTheSendersVoyage() throws {
        let message = try Self.message(AISApplicationSamples.clearance(lon: 4.05, lat: 51.95))
        guard case .text(let port) = message.value(named: "destination") else {
            Issue.record("no destination field")
            return
        }
        #expect(message.string(port) == "NLRTM")
        #expect(message.destination == nil)
        #expect(abs((message.position?.latitude ?? 0) - 51.95) < 1e-9)
        var registry = VesselRegistry()
        let vessel = registry.update(message)
        #expect(vessel.destination == nil && vessel.position == nil)
    }

    @Test("reading every field of messages with groups allocates nothing")
    func allocationFree() throws {
        let messages = try [AISApplicationSamples.vtsTargets(), AISApplicationSamples.routeBroadcast()].map {
            try Self.message($0)
        }
        var sum = 0
        func run() {
            for index in 0..<messages.count {  // an array's iterator allocates in unoptimised builds
                let message = messages[index]
                message.forEachValue { field, value in
                    guard case .group(let count) = value else { return }
                    for element in 0..<count {
                        message.forEachValue(of: field, element: element, raw: true) { _, value in
                            if case .integer(let number) = value { sum &+= number }
                        }
                    }
                }
            }
        }
        #expect(allocationsAfterWarmUp(run) == 0)
        #expect(sum != 0)
    }
}
