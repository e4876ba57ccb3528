import AIS
import Foundation
import JSON
import NMEA
import TestSupport
import Testing

/// Our decoding of the real AIS logs in `../shared/gnss-corpus/ais/` against gpsd's regression output (`.chk`, field
/// for field, gpsd's `*_text` descriptions aside) and against pyais, an independent decoder.
@Suite("AIS against gpsd and pyais", .enabled(if: Locations.gnssCorpus != nil, "the GNSS corpus is absent"))
struct AISCorpusTests {
    static let logs = [
        "ais-18-27.log", "ais-nmea-type6-fid55.log", "ais-nmea.log", "ais-raw-messages.log", "ais_unpack_sixbit.log",
    ]

    static func path(_ log: String) -> String { Locations.gnssCorpus! + "/ais/" + log }

    /// Every message of a log, through the framer and one decoder, as the library hands them out.
    static func messages(_ log: String) throws -> [AISMessage] {
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path(log))))
        var framer = Framer(maximumLength: 1024, checksumPolicy: .required)
        var decoder = AISDecoder()
        var messages: [AISMessage] = []
        bytes.withUnsafeBytes { buffer in
            framer.feed(buffer) { event in
                guard case .sentence(let sentence) = event, sentence.isEncapsulated else { return }
                if let message = try? decoder.add(sentence) { messages.append(message) }
            }
        }
        return messages
    }

    /// A message written as gpsd writes it, read back as a dictionary.
    static func object(_ message: AISMessage, scaled: Bool) throws -> NSDictionary {
        var json = JSONWriter()
        json.writeAIS(message, scaled: scaled)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? NSDictionary)
    }

    /// gpsd's AIS objects of a log, without its `*_text` descriptions.
    static func gpsdObjects(_ log: String) throws -> [NSDictionary] {
        let text = try String(contentsOfFile: path(log) + ".chk", encoding: .utf8)
        return try text.split(whereSeparator: \.isNewline).filter { $0.contains("\"class\":\"AIS\"") }.map { line in
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object.filter { !$0.key.hasSuffix("_text") && $0.key != "device" } as NSDictionary
        }
    }

    static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// Drops an object equal to the one before it.
    static func collapsed(_ objects: [NSDictionary]) -> [NSDictionary] {
        objects.enumerated().filter { $0.offset == 0 || objects[$0.offset - 1] != $0.element }.map(\.element)
    }

    @Test("every AIS object gpsd reports for the five logs equals ours, field for field", arguments: logs)
    func equalsGpsd(_ log: String) throws {
        var ours = try Self.messages(log).map { try Self.object($0, scaled: false) }
        var theirs = try Self.gpsdObjects(log)
        if log == "ais-nmea.log" {
            // gpsd's .chk reports 108 of this log's 166 messages twice in a row, though the log has each once.
            #expect(theirs.count == 274)
            theirs = Self.collapsed(theirs)
        }
        if log == "ais-nmea-type6-fid55.log" {
            // A type 24 whose part A came 15 other stations' part A before its part B: gpsd remembers 8 part A names
            // and has forgotten it; we remember 16 and pair them.
            let index = try #require(ours.firstIndex { $0["mmsi"] as? Int == 244_770_168 && $0["type"] as? Int == 24 })
            #expect(ours[index]["shipname"] as? String == "SMUK")
            #expect(ours[index]["callsign"] as? String == "PD7765")
            ours.remove(at: index)
        }
        #expect(ours.count == theirs.count)
        #expect(!ours.isEmpty)
        for (index, (mine, gpsd)) in zip(ours, theirs).enumerated() where mine != gpsd {
            Issue.record("\(log) message \(index): ours \(mine) gpsd \(gpsd)")
            break
        }
    }

    @Test("the types and applications the corpus exercises")
    func coverage() throws {
        var types = Set<Int>()
        var applications = Set<String>()
        for log in Self.logs {
            for message in try Self.messages(log) {
                types.insert(message.type)
                if message.type == 6 || message.type == 8, message.value(named: "data") == nil,
                    case .integer(let dac) = message.value(named: "dac"),
                    case .integer(let fid) = message.value(named: "fid")
                {
                    applications.insert("\(message.type):\(dac)/\(fid)")
                }
            }
        }
        #expect(types == [1, 2, 3, 4, 5, 6, 7, 8, 17, 18, 19, 20, 21, 23, 24, 27])
        #expect(applications == ["6:200/55", "6:235/10", "8:1/11", "8:1/31", "8:200/10"])
    }

    /// pyais decodes each message on its own (type 24's parts apart), so both sides leave type 24 out; every other
    /// message is the same message in the same order, and every value both give agrees.
    @Test("pyais agrees with every value we print", arguments: logs)
    func agreesWithPyais(_ log: String) throws {
        guard let python = PythonOracles.pyais else {
            Issue.record("pyais could not be installed from PyPI into .build/venv-oracles")
            return
        }
        let oracle = try ChildProcess.run([python, Locations.packageRoot + "/scripts/ais-oracle", Self.path(log)])
        #expect(oracle.status == 0)
        let theirs = try oracle.output.split(whereSeparator: \.isNewline).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }.filter { $0["msg_type"] as? Int != 24 }
        let ours = try Self.messages(log).filter { $0.type != 24 }.map { try Self.object($0, scaled: true) }
        #expect(ours.count == theirs.count)
        var compared = 0
        for (index, (mine, pyais)) in zip(ours, theirs).enumerated() {
            #expect(mine["mmsi"] as? Int == pyais["mmsi"] as? Int, "\(log) \(index)")
            #expect(mine["type"] as? Int == pyais["msg_type"] as? Int, "\(log) \(index)")
            // pyais gives type 17's position in minutes of arc (its tenths of minutes divided by 10).
            let numbers =
                mine["type"] as? Int == 17 ? [] : ["lat", "lon", "speed", "course", "heading", "draught", "imo"]
            for name in numbers + ["to_bow", "to_stern"] {
                guard let value = (mine[name] as? NSNumber)?.doubleValue,
                    let other = (pyais[name] as? NSNumber)?.doubleValue
                else { continue }
                #expect(abs(value - other) <= 1e-6 * max(1, abs(value)), "\(log) \(index) \(name): \(value) \(other)")
                compared += 1
            }
            for name in ["shipname", "callsign", "destination"] {
                guard let value = mine[name] as? String, let other = pyais[name] as? String else { continue }
                // pyais keeps what follows an `@` (the standard's end of text) and trims leading spaces too.
                let text = String(other.prefix { $0 != "@" })
                #expect(Self.trimmed(value) == Self.trimmed(text), "\(log) \(index) \(name)")
                compared += 1
            }
        }
        #expect(compared > ours.count)
    }
}
