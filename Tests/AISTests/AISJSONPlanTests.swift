import AIS
import NMEA
import Simulation
import TestSupport
import Testing

@testable import JSON

/// The JSON of a type with fixed fields is written through a plan made once (``AISJSONPlan``); every other type field
/// by field. The plan must write what field by field writes, byte for byte, raw and scaled: on the real logs, on
/// generated traffic, and on random messages of every planned type cut at every length (fields past the end).
@Suite("AIS JSON through plans")
struct AISJSONPlanTests {
    /// The message written both ways; `true` when it has a plan.
    @discardableResult
    static func expectSameJSON(_ message: AISMessage) -> Bool {
        for scaled in [false, true] {
            var planned = JSONWriter()
            planned.write { $0.writeAIS(message, scaled: scaled, throughPlans: true) }
            var fieldByField = JSONWriter()
            fieldByField.write { $0.writeAIS(message, scaled: scaled, throughPlans: false) }
            #expect(
                String(decoding: planned.bytes, as: UTF8.self) == String(decoding: fieldByField.bytes, as: UTF8.self),
                "type \(message.type), \(message.payload.bitCount) bits, scaled \(scaled)")
        }
        return AISJSONPlan.plans[message.type] != nil
    }

    @Test("the planned types are those with fixed fields")
    func plannedTypes() {
        let planned = (0..<64).filter { AISJSONPlan.plans[$0] != nil }
        #expect(planned == [1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 27])
        // A plan's keys are the header's and the type's fields' names, in order.
        let plan = try! #require(AISJSONPlan.plans[1])
        let keys = String(decoding: plan.keys, as: UTF8.self)
        #expect(keys.hasPrefix(#","type":,"repeat":,"mmsi":,"status":,"turn":,"speed":"#))
        #expect(plan.entries.count == 3 + 12)
    }

    @Test("the real logs: the same JSON both ways", .enabled(if: Locations.gnssCorpus != nil))
    func realLogs() throws {
        var planned = 0
        for log in AISCorpusTests.logs {
            for message in try AISCorpusTests.messages(log) where Self.expectSameJSON(message) { planned += 1 }
        }
        #expect(planned > 1_000)
    }

    @Test("generated traffic: the same JSON both ways")
    func generatedTraffic() {
        let messages = AISReportTests.generatedMessages(3_000)
        #expect(messages.filter { Self.expectSameJSON($0) }.count > 2_000)
    }

    @Test("random messages of every planned type, at every length: the same JSON both ways")
    func randomMessages() throws {
        var generator = SplitMix64(seed: 0x41_49_53)
        var checked = 0
        var cutShort = 0  // messages without all their fields' bits: fields past the end
        for type in 0..<64 where AISJSONPlan.plans[type] != nil {
            for characters in 1...80 {
                var armored = [Self.armoured(type)]
                for _ in 1..<characters { armored.append(Self.armoured(Int(generator.next() & 63))) }
                guard let payload = try? AISPayload(armored: armored),
                    let message = try? AISMessage(payload: payload)
                else { continue }
                Self.expectSameJSON(message)
                checked += 1
                let fields = AISLayout.fixedFields(ofType: type) ?? []
                if message.payload.bitCount < fields.map({ $0.start + $0.width }).max() ?? 0 { cutShort += 1 }
            }
        }
        #expect(checked > 1_000)
        #expect(cutShort > 50)
    }

    /// The armouring character of a six-bit value.
    static func armoured(_ value: Int) -> UInt8 { UInt8(value < 40 ? value + 48 : value + 56) }
}
