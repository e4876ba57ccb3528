import NMEA
import UBX

/// A MediaTek receiver (MT3339, as in a PA6H module) as its PMTK command set has it, for tests: it answers PMTK605
/// with PMTK705, acknowledges each command with PMTK001 (3 done, 1 unsupported, 0 invalid), and its output follows
/// what it was told: rate (PMTK220), sentences (PMTK314), constellations (PMTK353), baud rate (PMTK251, at once and
/// unanswered). It keeps its settings in flash by itself (there is no save command), so a power cycle keeps them.
public final class MediaTekReceiver: EmulatedReceiverModel {
    public private(set) var rateMilliseconds = 1000
    public private(set) var sentencesOn = true
    public private(set) var systems: Set<ReceiverSettings.Constellation> = [.gps, .glonass]
    public private(set) var baudRate: Int
    /// Every command taken or refused, by number, in order.
    public private(set) var log: [(command: Int, flag: Int)] = []
    private var framer = Framer()

    public init(baudRate: Int = 9600) { self.baudRate = baudRate }

    public var epochMilliseconds: Int { rateMilliseconds }
    public var lineRate: Int { baudRate }

    public func powerCycle() { framer.reset() }

    public func answer(_ bytes: [UInt8]) -> (bytes: [UInt8], baudRateAfter: Int?) {
        var out: [UInt8] = []
        var baudAfter: Int?
        framer.feed(bytes) { event in
            guard case .sentence(let sentence) = event else { return }
            let text = String(decoding: sentence.bytes, as: UTF8.self)
            guard text.hasPrefix("$PMTK") else { return }
            let body = text.dropFirst(5).prefix { $0 != "*" }
            let fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let number = Int(fields[0]) else { return }
            let flag: Int?
            switch number {
            case 605:
                out += Self.sentence("PMTK705,AXN_2.31_3339_13101700,5632,PA6H,1.0")
                flag = nil
            case 220:
                if fields.count == 2, let milliseconds = Int(fields[1]), (100...10_000).contains(milliseconds) {
                    rateMilliseconds = milliseconds
                    flag = 3
                } else {
                    flag = 0
                }
            case 314:
                if fields.count == 20 {
                    sentencesOn = fields.dropFirst().contains { $0 != "0" }
                    flag = 3
                } else {
                    flag = 0
                }
            case 353:
                if fields.count == 6 {
                    let on = fields.dropFirst().map { $0 == "1" }
                    var chosen: Set<ReceiverSettings.Constellation> = []
                    if on[0] { chosen.insert(.gps) }
                    if on[1] { chosen.insert(.glonass) }
                    if on[2] { chosen.insert(.galileo) }
                    if on[4] { chosen.insert(.beidou) }
                    if chosen.isEmpty {
                        flag = 0
                    } else {
                        systems = chosen
                        flag = 3
                    }
                } else {
                    flag = 0
                }
            case 251:
                if fields.count == 2, let rate = Int(fields[1]),
                    [4800, 9600, 19200, 38400, 57600, 115200].contains(rate)
                {
                    baudAfter = rate
                    baudRate = rate
                }
                flag = nil
            case 101, 102, 103:
                flag = nil
            default:
                flag = 1
            }
            if let flag {
                log.append((number, flag))
                out += Self.sentence("PMTK001,\(number),\(flag)")
            }
        }
        return (out, baudAfter)
    }

    public func epoch(atNanoseconds nanoseconds: Int64, index: Int) -> [UInt8] {
        guard sentencesOn else { return [] }
        let (date, time) = UTCDate.moment(nanosecondsSinceEpoch: nanoseconds, fractionDigits: 2)
        return EmulatorNMEA.ggaAndRMC(
            date, time, 48.1374, 11.5755 + Double(index) * 0.0001, used: 8,
            talker: systems == [.gps] ? "GP" : "GN")
    }

    private static func sentence(_ body: String) -> [UInt8] {
        var builder = SentenceBuilder()
        builder.begin(body)  // the whole body: its commas are the command's
        builder.end()
        return builder.bytes
    }
}
