import AIS
import JSON
import NMEA
import Testing

@Suite("AIS decoding and assembly")
struct AISDecoderTests {
    @Test("a position report: every field in units, not-available values absent")
    func positionReport() throws {
        var decoder = AISDecoder()
        let messages = decoder.add(lines: AISBits.positionReport().sentences())
        let message = try #require(messages.first)
        #expect(messages.count == 1)
        #expect(message.type == 1)
        #expect(message.mmsi == 244_660_274)
        #expect(message.channel == UInt8(ascii: "A"))
        #expect(!message.isOwnShip)
        let position = try #require(message.position)
        #expect(abs(position.latitude - 52.855395) < 1e-6)
        #expect(abs(position.longitude - 5.678283) < 1e-6)
        #expect(message.speedKnots.map { abs($0 - 12.3) < 1e-9 } == true)
        #expect(message.courseDegrees.map { abs($0 - 234.5) < 1e-9 } == true)
        #expect(message.headingDegrees == nil)  // 511: not available
        #expect(message.value(named: "turn") == nil)  // -128: not available
        #expect(message.value(named: "second") == .integer(47))
        #expect(message.value(named: "raim") == .bool(true))
        #expect(message.navigationStatus == 0)

        var json = JSONWriter()
        json.writeAIS(message, scaled: false)
        #expect(
            json.string
                == #"{"class":"AIS","type":1,"repeat":0,"mmsi":244660274,"scaled":false,"status":0,"turn":-128,"#
                + #""speed":123,"accuracy":true,"lon":3406970,"lat":31713237,"course":2345,"heading":511,"#
                + #""second":47,"maneuver":0,"raim":true,"radio":49252}"#)
        json.reset()
        json.writeAIS(message, scaled: true)
        #expect(
            json.string
                == #"{"class":"AIS","type":1,"repeat":0,"mmsi":244660274,"scaled":true,"status":0,"speed":12.3,"#
                + #""accuracy":true,"lon":5.678283,"lat":52.855395,"course":234.5,"second":47,"maneuver":0,"#
                + #""raim":true,"radio":49252}"#)
    }

    @Test("a two-part static report: text, ETA and draught")
    func staticAndVoyage() throws {
        var decoder = AISDecoder()
        let sentences = AISBits.staticAndVoyage().sentences(parts: 2)
        #expect(decoder.add(lines: [sentences[0]]).isEmpty)
        let message = try #require(decoder.add(lines: [sentences[1]]).first)
        #expect(message.shipName == "SEA ENTERPRISE")
        #expect(message.callSign == "HP6683")
        #expect(message.destination == "LEMMER")
        #expect(message.shipType == 90)
        #expect(message.dimensions?.length == 28)
        #expect(message.dimensions?.beam == 7)
        #expect(message.value(named: "draught") == .number(1.4000000000000001))
        #expect(message.value(named: "eta") == .monthDayTime(month: 3, day: 29, hour: 11, minute: 0))
        #expect(message.value(named: "imo") == .integer(9_266_633))
        #expect(decoder.counts.messages == 1)
        #expect(decoder.counts.sentences == 2)
    }

    @Test("interleaved parts of two messages on two channels both assemble")
    func interleaved() throws {
        var decoder = AISDecoder()
        let first = AISBits.staticAndVoyage(mmsi: 1).sentences(parts: 2, sequence: 1, channel: "A")
        let second = AISBits.staticAndVoyage(mmsi: 2).sentences(parts: 2, sequence: 1, channel: "B")
        let messages = decoder.add(lines: [first[0], second[0], second[1], first[1]])
        #expect(messages.map(\.mmsi) == [2, 1])
        #expect(decoder.counts.incomplete == 0)
    }

    /// Two shore receivers' messages with the same sequential ID on the same channel, their parts interleaved: the
    /// TAG block groups tell them apart (without them, the second first part would restart the first message).
    @Test("TAG block groups are the assembly key when present")
    func tagGroups() throws {
        var decoder = AISDecoder()
        let first = AISBits.staticAndVoyage(mmsi: 11).sentences(parts: 2, sequence: 3, channel: "A")
        let second = AISBits.staticAndVoyage(mmsi: 12).sentences(parts: 2, sequence: 3, channel: "A")
        func grouped(_ line: String, _ number: Int, _ id: Int) -> String {
            let text = "g:\(number)-2-\(id)"
            let checksum = Hex.string(UInt64(text.utf8.reduce(UInt8(0), ^)), minimumDigits: 2)
            return "\\" + text + "*" + checksum + "\\" + line
        }
        let lines = [
            grouped(first[0], 1, 501), grouped(second[0], 1, 502),
            grouped(first[1], 2, 501), grouped(second[1], 2, 502),
        ]
        let messages = decoder.add(lines: lines)
        #expect(messages.map(\.mmsi) == [11, 12])
        #expect(decoder.counts.incomplete == 0)
        // The same lines without their groups: the second first part restarts the message, and one is lost.
        var plain = AISDecoder()
        #expect(plain.add(lines: [first[0], second[0], first[1], second[1]]).count < 2)
    }

    @Test("a lost part drops its message, a repeated part is ignored, and the next message still assembles")
    func lostAndRepeated() throws {
        var decoder = AISDecoder()
        let lost = AISBits.staticAndVoyage(mmsi: 7).sentences(parts: 3, sequence: 4)
        #expect(decoder.add(lines: [lost[0], lost[2]]).isEmpty)
        #expect(decoder.counts.incomplete == 1)
        let repeated = AISBits.staticAndVoyage(mmsi: 8).sentences(parts: 2, sequence: 5)
        let messages = decoder.add(lines: [repeated[0], repeated[0], repeated[1], repeated[1]])
        #expect(messages.map(\.mmsi) == [8])
        #expect(decoder.counts.duplicates == 1)
        // The second copy of the last part finds no message in assembly: counted, not decoded twice.
        #expect(decoder.counts.incomplete == 2)
    }

    @Test("a hostile stream of first parts cannot grow the decoder, and real messages still come through")
    func hostileFirstParts() throws {
        var decoder = AISDecoder()
        for sequence in 0..<10_000 {
            let parts = AISBits.staticAndVoyage(mmsi: sequence).sentences(parts: 2, sequence: sequence % 10)
            _ = decoder.add(lines: [parts[0]])
        }
        #expect(MemoryLayout<AISDecoder>.size < 8_000)
        #expect(decoder.counts.incomplete >= 10_000 - AISDecoder.partialCapacity)
        let message = decoder.add(lines: AISBits.positionReport(mmsi: 42).sentences())
        #expect(message.map(\.mmsi) == [42])
    }

    @Test("bad payloads, fill bits and fragment numbers are errors, counted")
    func errors() throws {
        var decoder = AISDecoder()
        func sentence(_ body: String) -> String {
            "!" + body + "*" + Hex.string(UInt64(NMEAChecksum.of(Array(body.utf8))), minimumDigits: 2)
        }
        let lines = [
            sentence("AIVDM,1,1,,A,13aDp<PP000IwS~N?Wm@0?wN2<1T,0"),  // '~' is not six-bit armour
            sentence("AIVDM,1,1,,A,13aDp<PP000IwSlN?Wm@0?wN2<1T,7"),  // fill bits past 5
            sentence("AIVDM,1,2,,A,13aDp<PP000IwSlN?Wm@0?wN2<1T,0"),  // part 2 of 1
            sentence("AIVDM,2,3,1,A,13aDp,0"),  // part 3 of 2
            sentence("AIVDM,1,1,,A,13aDp,0"),  // 30 bits: too short for type 1
        ]
        #expect(decoder.add(lines: lines).isEmpty)
        #expect(decoder.counts.errors == 5)
        #expect(decoder.counts.sentences == 5)
        // Another encapsulated sentence is not AIS: refused as such, and not counted as an AIS error.
        var framer = Framer(maximumLength: 1024, checksumPolicy: .required)
        var refusal: AISError?
        var text = sentence("AIABM,1,1,0,244660274,2,6,13aDp,0") + "\r\n"
        text.withUTF8 { buffer in
            framer.feed(UnsafeRawBufferPointer(buffer)) { event in
                guard case .sentence(let abm) = event else { return }
                do throws(AISError) { _ = try decoder.add(abm) } catch { refusal = error }
            }
        }
        #expect(refusal == .notAIS)
        #expect(decoder.counts.errors == 5)
        #expect(decoder.counts.sentences == 5)
    }

    @Test("type 24: part A's name joins part B; a part B alone and parts 2 and 3 give nothing")
    func staticDataReport() throws {
        var partA = AISBits()
        partA.put(24, 6)
        partA.put(0, 2)
        partA.put(265_650_060, 30)
        partA.put(0, 2)
        partA.put(text: "MANI", 20)
        var partB = AISBits()
        partB.put(24, 6)
        partB.put(0, 2)
        partB.put(265_650_060, 30)
        partB.put(1, 2)
        partB.put(36, 8)  // sailing
        partB.put(text: "ABC", 3)
        partB.put(1, 4)
        partB.put(5, 20)  // vendor, model, serial
        partB.put(text: "SD8002", 7)
        partB.put(8, 9)
        partB.put(4, 9)
        partB.put(1, 6)
        partB.put(3, 6)
        partB.put(0, 6)  // EPFD and spare
        var decoder = AISDecoder()
        #expect(decoder.add(lines: partB.sentences()).isEmpty)  // no part A yet
        #expect(decoder.add(lines: partA.sentences()).isEmpty)
        let message = try #require(decoder.add(lines: partB.sentences()).first)
        #expect(message.shipName == "MANI")
        #expect(message.callSign == "SD8002")
        #expect(message.shipType == 36)
        #expect(message.dimensions?.length == 12)
        #expect(decoder.counts.unpairedStaticParts == 1)
    }

    @Test("decoding and assembling allocate nothing")
    func allocationFree() throws {
        let sentences = AISBits.staticAndVoyage().sentences(parts: 2) + AISBits.positionReport().sentences()
        var text = Array(repeating: sentences, count: 200).joined().joined(separator: "\r\n") + "\r\n"
        var framer = Framer(maximumLength: 1024, checksumPolicy: .required)
        var decoder = AISDecoder()
        var sum = 0
        func run() {
            text.withUTF8 { buffer in
                framer.feed(UnsafeRawBufferPointer(buffer)) { event in
                    guard case .sentence(let sentence) = event, let message = try? decoder.add(sentence) else { return }
                    message.forEachField { field in
                        switch message.value(field) {
                        case .integer(let value): sum &+= value
                        case .text(let text): message.forEachCharacter(of: text) { sum &+= Int($0) }
                        default: sum &+= 1
                        }
                    }
                }
            }
        }
        #expect(allocationsAfterWarmUp(run) == 0)
        #expect(decoder.counts.messages == 800)
        #expect(sum != 0)
    }
}
