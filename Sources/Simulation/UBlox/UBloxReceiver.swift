import NMEA
import UBX

/// A u-blox receiver as its interface description has it, for tests and demonstrations: it answers MON-VER as an M8
/// (legacy configuration) or as an F9 (the configuration interface), takes or refuses each CFG message with ACK-ACK
/// or ACK-NAK, and its output follows what it was told — rate, NMEA and UBX messages, constellations, baud rate.
/// What it was told to save survives ``powerCycle()``; the rest returns to what was saved (or the defaults).
///
/// A pure state machine: bytes in (``receive(_:)``), bytes out (``receive(_:)``'s answer and ``epoch(at:)``); the
/// serial line around it (a pty, its baud rate) is the caller's.
public final class UBloxReceiver {
    /// Which receiver it is.
    public enum Model: String, Sendable, CaseIterable {
        /// A NEO-M8N, protocol 18: CFG-RATE, CFG-MSG, CFG-PRT, CFG-GNSS, CFG-CFG, CFG-RST.
        case m8
        /// A ZED-F9P, protocol 27.31: CFG-VALSET, CFG-VALGET, CFG-CFG, CFG-RST. It refuses the legacy CFG-RATE,
        /// CFG-MSG, CFG-PRT and CFG-GNSS, as an M10 does (an F9 still takes some of them), so that a tool that
        /// sends them to a receiver of protocol 27 or later is caught.
        case f9
    }

    /// What the receiver does, in RAM (``settings``) or kept over a power cycle (``savedSettings``).
    public struct Settings: Sendable, Hashable {
        public var rateMilliseconds = 1000
        public var systems: Set<ReceiverSettings.Constellation> = [.gps, .glonass, .sbas, .qzss]
        public var nmea = true
        public var ubxProtocol = true
        public var ubxMessages: Set<UBXMessageID> = []
        public var baudRate = 9600
        public init() {}
    }

    /// The answer to some input: bytes to send, and the baud rate the port switches to once they are sent.
    public struct Answer: Sendable {
        public var bytes: [UInt8] = []
        public var baudRateAfter: Int?
    }

    public let model: Model
    /// The settings in use.
    public private(set) var settings: Settings
    /// The settings battery-backed RAM and flash hold.
    public private(set) var savedSettings: Settings
    /// Every CFG message taken (`true`) or refused (`false`), in order, by name.
    public private(set) var configurationLog: [(message: String, accepted: Bool)] = []
    /// Restarts asked for (CFG-RST).
    public private(set) var restarts: [ReceiverSettings.Reset] = []
    /// The RTCM 3 corrections it was sent, and the RTK solution they give.
    public var corrections = RTKCorrections()
    /// Where it is: a point that moves east at 10 m/s.
    public var startLatitude = 48.1374
    public var startLongitude = 11.5755

    private var framer = Framer()

    public init(model: Model, baudRate: Int = 9600) {
        self.model = model
        var defaults = Settings()
        defaults.baudRate = baudRate
        if model == .f9 { defaults.systems = [.gps, .glonass, .galileo, .beidou, .sbas, .qzss] }
        settings = defaults
        savedSettings = defaults
    }

    /// The power goes off and on again: RAM is lost, the saved settings come back.
    public func powerCycle() {
        settings = savedSettings
        framer.reset()
    }

    // MARK: Input

    /// Takes bytes the host sent and answers them.
    public func receive(_ bytes: [UInt8]) -> Answer {
        var answer = Answer()
        framer.feed(bytes) { event in
            guard case .binaryFrame(let frame) = event else { return }
            if frame.kind == .rtcm3 {
                corrections.received(Array(frame.bytes))
            } else if let ubx = UBXFrame(frame) {
                handle(ubx.id, Array(ubx.payload.bytes), &answer)
            }
        }
        return answer
    }

    private func handle(_ id: UBXMessageID, _ payload: [UInt8], _ answer: inout Answer) {
        if id == .monVER && payload.isEmpty {
            answer.bytes += monitorVersion()
            return
        }
        guard id.messageClass == 0x06 else { return }
        if id == .cfgRST {
            restarts.append(payload.count >= 2 && payload[0] == 0xFF ? .cold : payload.first == 1 ? .warm : .hot)
            configurationLog.append((id.description, true))
            return
        }
        let accepted: Bool
        switch (model, id) {
        case (_, .cfgCFG): accepted = configure(payload)
        case (.f9, .cfgVALSET): accepted = valueSet(payload, &answer)
        case (.f9, .cfgVALGET): accepted = valueGet(payload, &answer)
        case (.m8, .cfgRATE): accepted = rate(payload, &answer)
        case (.m8, .cfgMSG): accepted = messageRate(payload)
        case (.m8, .cfgPRT): accepted = port(payload, &answer)
        case (.m8, .cfgGNSS): accepted = gnss(payload, &answer)
        default: accepted = false
        }
        configurationLog.append((id.description, accepted))
        var ack = UBXPayloadBuilder()
        ack.u1(id.messageClass)
        ack.u1(id.messageID)
        answer.bytes += ack.frame(accepted ? .ackACK : .ackNAK)
    }

    /// MON-VER: software, hardware and the extensions that name the firmware, protocol and module.
    private func monitorVersion() -> [UInt8] {
        var payload = UBXPayloadBuilder()
        switch model {
        case .m8:
            payload.text("ROM CORE 3.01 (107888)", count: 30)
            payload.text("00080000", count: 10)
            for text in ["FWVER=SPG 3.01", "PROTVER=18.00", "MOD=NEO-M8N-0", "GPS;GLO;GAL;BDS", "SBAS;IMES;QZSS"] {
                payload.text(text, count: 30)
            }
        case .f9:
            payload.text("EXT CORE 1.00 (61b2dd)", count: 30)
            payload.text("00190000", count: 10)
            for text in ["ROM BASE 0x118B2060", "FWVER=HPG 1.32", "PROTVER=27.31", "MOD=ZED-F9P", "GPS;GLO;GAL;BDS"] {
                payload.text(text, count: 30)
            }
        }
        return payload.frame(.monVER)
    }

    /// CFG-CFG: clear (back to the defaults), save (RAM to BBR and flash), load (saved to RAM), in that order.
    private func configure(_ payload: [UInt8]) -> Bool {
        guard payload.count == 12 || payload.count == 13 else { return false }
        func mask(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(payload[at + $1]) << (8 * UInt32($1)) } }
        if mask(0) != 0 { savedSettings = UBloxReceiver(model: model).settings }
        if mask(4) != 0 { savedSettings = settings }
        if mask(8) != 0 { settings = savedSettings }
        return true
    }

    // MARK: The configuration interface

    private static func little(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// CFG-VALSET: every key known, or none is applied (the receiver refuses the whole message).
    private func valueSet(_ payload: [UInt8], _ answer: inout Answer) -> Bool {
        guard payload.count >= 4 else { return false }
        let layers = payload[1]
        var next = settings
        var at = 4
        while at + 4 <= payload.count {
            let key = UInt32(Self.little(payload[at..<at + 4]))
            let size = UBXConfigurationKey.valueSize(of: key)
            guard size > 0, at + 4 + size <= payload.count else { return false }
            let value = Self.little(payload[at + 4..<at + 4 + size])
            guard apply(key, value, to: &next) else { return false }
            at += 4 + size
        }
        guard at == payload.count else { return false }
        if layers & 1 != 0 {
            if next.baudRate != settings.baudRate { answer.baudRateAfter = next.baudRate }
            settings = next
        }
        if layers & 0b110 != 0 { savedSettings = next }
        return true
    }

    private func apply(_ key: UInt32, _ value: UInt64, to settings: inout Settings) -> Bool {
        switch key {
        case UBXConfigurationKey.rateMeasurement:
            guard value >= 25 else { return false }
            settings.rateMilliseconds = Int(value)
        case UBXConfigurationKey.rateNavigation:
            guard value == 1 else { return false }
        case UBXConfigurationKey.uart1BaudRate:
            guard [4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600].contains(Int(value)) else {
                return false
            }
            settings.baudRate = Int(value)
        case UBXConfigurationKey.uart1OutputNMEA, UBXConfigurationKey.usbOutputNMEA: settings.nmea = value != 0
        case UBXConfigurationKey.uart1OutputUBX, UBXConfigurationKey.usbOutputUBX: settings.ubxProtocol = value != 0
        default:
            if let system = ReceiverSettings.Constellation.allCases.first(where: {
                UBXConfigurationKey.signalEnable($0) == key
            }) {
                if value != 0 { settings.systems.insert(system) } else { settings.systems.remove(system) }
            } else if let id = UBXConfigurationKey.configurableMessages.first(where: {
                let uart1 = UBXConfigurationKey.messageOutputUART1($0)
                return uart1 == key || uart1.map { $0 + 2 } == key
            }) {
                if value != 0 { settings.ubxMessages.insert(id) } else { settings.ubxMessages.remove(id) }
            } else {
                return false
            }
        }
        return true
    }

    /// CFG-VALGET: the values of the keys asked for, from RAM (layer 0) or the saved layers.
    private func valueGet(_ payload: [UInt8], _ answer: inout Answer) -> Bool {
        guard payload.count >= 8, payload[0] == 0, (payload.count - 4) % 4 == 0 else { return false }
        let source = payload[1] == 0 ? settings : savedSettings
        var out = UBXPayloadBuilder()
        out.u1(1)
        out.u1(payload[1])
        out.u2(0)
        for at in stride(from: 4, to: payload.count, by: 4) {
            let key = UInt32(Self.little(payload[at..<at + 4]))
            guard let value = value(of: key, in: source) else { return false }
            out.u4(key)
            switch UBXConfigurationKey.valueSize(of: key) {
            case 1: out.u1(UInt8(value))
            case 2: out.u2(UInt16(value))
            case 4: out.u4(UInt32(value))
            default: out.u8(value)
            }
        }
        answer.bytes += out.frame(.cfgVALGET)
        return true
    }

    private func value(of key: UInt32, in settings: Settings) -> UInt64? {
        switch key {
        case UBXConfigurationKey.rateMeasurement: return UInt64(settings.rateMilliseconds)
        case UBXConfigurationKey.rateNavigation: return 1
        case UBXConfigurationKey.uart1BaudRate: return UInt64(settings.baudRate)
        case UBXConfigurationKey.uart1OutputNMEA, UBXConfigurationKey.usbOutputNMEA: return settings.nmea ? 1 : 0
        case UBXConfigurationKey.uart1OutputUBX, UBXConfigurationKey.usbOutputUBX: return settings.ubxProtocol ? 1 : 0
        default: break
        }
        for system in ReceiverSettings.Constellation.allCases where UBXConfigurationKey.signalEnable(system) == key {
            return settings.systems.contains(system) ? 1 : 0
        }
        for id in UBXConfigurationKey.configurableMessages {
            guard let uart1 = UBXConfigurationKey.messageOutputUART1(id), key == uart1 || key == uart1 + 2 else {
                continue
            }
            return settings.ubxMessages.contains(id) ? 1 : 0
        }
        return nil
    }

    // MARK: The legacy messages

    private func rate(_ payload: [UInt8], _ answer: inout Answer) -> Bool {
        if payload.isEmpty {
            var out = UBXPayloadBuilder()
            out.u2(UInt16(settings.rateMilliseconds))
            out.u2(1)
            out.u2(1)
            answer.bytes += out.frame(.cfgRATE)
            return true
        }
        guard payload.count == 6 else { return false }
        let milliseconds = Int(payload[0]) | Int(payload[1]) << 8
        guard milliseconds >= 50 else { return false }  // an M8 with one system runs at most 18 Hz; say 20
        settings.rateMilliseconds = milliseconds
        return true
    }

    private func messageRate(_ payload: [UInt8]) -> Bool {
        guard payload.count == 3 || payload.count == 8 else { return false }
        let id = UBXMessageID(payload[0], payload[1])
        // The short form sets the port it comes in on; the long one each port's rate (UART1 is the second).
        let rate = payload.count == 3 ? payload[2] : payload[3]
        guard id.messageClass == 0x01 || id.messageClass == 0x02 else { return id.messageClass == 0xF0 }
        if rate != 0 { settings.ubxMessages.insert(id) } else { settings.ubxMessages.remove(id) }
        return true
    }

    private func portPayload() -> [UInt8] {
        var out = UBXPayloadBuilder()
        out.u1(1)  // UART1
        out.u1(0)
        out.u2(0)  // txReady
        out.u4(0x0000_08D0)  // 8N1
        out.u4(UInt32(settings.baudRate))
        out.u2(0b111)  // in: UBX, NMEA, RTCM 2
        out.u2((settings.ubxProtocol ? 1 : 0) | (settings.nmea ? 2 : 0))
        out.u2(0)
        out.u2(0)
        return out.bytes
    }

    private func port(_ payload: [UInt8], _ answer: inout Answer) -> Bool {
        if payload.count <= 1 {
            answer.bytes += UBXFrameBuilder.frame(.cfgPRT, payload: portPayload())
            return true
        }
        guard payload.count == 20, payload[0] == 1 else { return false }
        let baud = Int(Self.little(payload[8..<12]))
        guard [4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600].contains(baud) else { return false }
        let output = payload[14]
        settings.ubxProtocol = output & 1 != 0
        settings.nmea = output & 2 != 0
        if baud != settings.baudRate {
            settings.baudRate = baud
            answer.baudRateAfter = baud
        }
        return true
    }

    private static let blocks: [(ReceiverSettings.Constellation, UInt8, UInt8)] = [
        (.gps, 8, 16), (.sbas, 1, 3), (.galileo, 4, 8), (.beidou, 8, 16), (.qzss, 0, 3), (.glonass, 8, 14),
    ]

    private func gnss(_ payload: [UInt8], _ answer: inout Answer) -> Bool {
        if payload.isEmpty {
            var out = UBXPayloadBuilder()
            out.u1(0)
            out.u1(32)
            out.u1(32)
            out.u1(UInt8(Self.blocks.count))
            for (system, reserved, maximum) in Self.blocks {
                out.u1(system.gnssID)
                out.u1(reserved)
                out.u1(maximum)
                out.u1(0)
                out.u4((settings.systems.contains(system) ? 1 : 0) | 0x0001_0000)
            }
            answer.bytes += out.frame(.cfgGNSS)
            return true
        }
        guard payload.count >= 4, payload.count == 4 + 8 * Int(payload[3]) else { return false }
        var systems = settings.systems
        for block in 0..<Int(payload[3]) {
            let at = 4 + 8 * block
            guard let system = ReceiverSettings.Constellation.allCases.first(where: { $0.gnssID == payload[at] })
            else { continue }
            if payload[at + 4] & 1 != 0 { systems.insert(system) } else { systems.remove(system) }
        }
        guard systems.contains(.gps) || systems.contains(.glonass) || systems.contains(.beidou) else { return false }
        settings.systems = systems
        return true
    }
}
