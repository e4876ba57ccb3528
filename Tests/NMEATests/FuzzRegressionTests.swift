import Testing

@testable import NMEA

/// Inputs that once crashed the library, found by fuzzing (Fuzz/, scripts/fuzz) or while preparing it.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// A number with 256 or more digits after the point overflowed the `UInt8` that counted them: a trap in
    /// `FieldReader.fixedPoint()`, reached by every decoder that reads a number. It must be rejected as too long.
    @Test("a number with hundreds of decimal places is rejected, not a crash", arguments: [255, 256, 300, 900])
    func numberWithHundredsOfDecimalPlaces(places: Int) throws {
        let line = checksummed(
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0." + String(repeating: "5", count: places) + ",545.4,M,46.9,M,,"
        )
        #expect(throws: NMEAError.badField(index: 8, reason: .overflow)) { try GGA(parsing: line) }

        // The same through the framer and the dispatcher, and through a field reader on an unknown sentence.
        var framer = Framer()
        var outcomes: [String] = []
        let text = checksummed("$GPXYZ,-1." + String(repeating: "0", count: places) + ",2") + "\r\n" + line + "\r\n"
        framer.feed(Array(text.utf8)) { event in
            guard case .sentence(let sentence) = event else { return outcomes.append("rejected") }
            do throws(NMEAError) {
                switch try ParsedSentence(sentence) {
                case .unknown(let unknown):
                    let error = try unknown.withSentence { (sentence) throws(NMEAError) in
                        var fields = sentence.fieldReader
                        _ = fields.fixedPoint()
                        return fields.errors.first
                    }
                    outcomes.append(error.map { "\($0)" } ?? "read")
                default: outcomes.append("decoded")
                }
            } catch {
                outcomes.append("\(error)")
            }
        }
        #expect(outcomes == ["field 1: number too large", "field 8: number too large"])
    }

    /// Just under the limit: 18 digits, all but one after the point, still read exactly.
    @Test("eighteen digits are read exactly")
    func eighteenDigits() throws {
        let rmc = try RMC(parsing: checksummed("$GPRMC,123519,A,,,,,0.12345678901234567,,230394,,"))
        #expect(rmc.speedKnots == FixedPoint(significand: 12_345_678_901_234_567, scale: 17))
    }

    /// Input `X2` of the `nmea` fuzz target built `$PUBX,03,2*hh`: a list that announces two satellites and holds
    /// none. Since a sentence cut short decodes (issue 12 item 10), it reads with its announced count and an empty
    /// list, no field error; the target's old invariant (listed == announced) was wrong, not the decoder.
    @Test("a PUBX,03 announcing satellites it does not hold decodes with an empty list")
    func pubxAnnouncingMissingSatellites() throws {
        let decoded = try withSentence(checksummed("$PUBX,03,2")) { (sentence) throws(NMEAError) in
            var errors = FieldErrors()
            let pubx = try PUBXSatellites(sentence, fieldErrors: &errors)
            return (pubx.count, Array(pubx.satellites).count, Array(errors))
        }
        #expect(decoded.0 == 2)
        #expect(decoded.1 == 0)
        #expect(decoded.2.isEmpty)
    }
}
