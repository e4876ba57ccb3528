/// One UBX message to send a receiver, with what to expect back and a line saying what it asks, in the style of
/// pyubx2's text form (`<UBX(CFG-RATE, measRate=100, navRate=1, timeRef=1)>`).
public struct UBXCommand: Sendable, Hashable {
    /// The whole frame.
    public let frame: [UInt8]
    /// The message's class and ID.
    public let id: UBXMessageID
    /// What it asks, as text.
    public let text: String
    /// `true` for a CFG message the receiver answers with ACK-ACK or ACK-NAK (CFG-RST is never answered).
    public let awaitsAcknowledgement: Bool
    /// The baud rate the port runs at once the receiver has taken it, for a message that changes it.
    public let newBaudRate: Int?

    init(frame: [UInt8], id: UBXMessageID, text: String, newBaudRate: Int?) {
        self.frame = frame
        self.id = id
        self.text = text
        awaitsAcknowledgement = id.messageClass == 0x06 && id != .cfgRST
        self.newBaudRate = newBaudRate
    }

    init(_ id: UBXMessageID, _ payload: UBXPayloadBuilder, text: String, newBaudRate: Int? = nil) {
        self.id = id
        frame = payload.frame(id)
        self.text = "<UBX(\(id), \(text))>"
        awaitsAcknowledgement = id.messageClass == 0x06 && id != .cfgRST
        self.newBaudRate = newBaudRate
    }

    /// The frame in hex, two digits a byte, a space between bytes.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        return frame.map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined(separator: " ")
    }

    // MARK: Polls

    /// A poll: the message with no payload (MON-VER, CFG-RATE, CFG-GNSS, and CFG-PRT for the port it comes in on).
    public static func poll(_ id: UBXMessageID) -> UBXCommand {
        UBXCommand(id, UBXPayloadBuilder(), text: "poll")
    }

    /// CFG-VALGET: the values of `keys` in a layer (0 RAM, the values in use).
    public static func valueGet(_ keys: [UInt32], layer: UInt8 = 0) -> UBXCommand {
        var payload = UBXPayloadBuilder()
        payload.u1(0)
        payload.u1(layer)
        payload.u2(0)
        for key in keys { payload.u4(key) }
        let names = keys.map { UBXConfigurationKey.name(of: $0) ?? "0x" + String($0, radix: 16) }
        return UBXCommand(.cfgVALGET, payload, text: "version=0, layer=\(layer), position=0, keys=\(names)")
    }

    // MARK: The configuration interface (protocol 27+)

    /// CFG-VALSET: `values` (key, value) into the RAM layer, and battery-backed RAM and flash when `save`.
    public static func valueSet(_ values: [(key: UInt32, value: UInt64)], save: Bool) -> UBXCommand {
        var payload = UBXPayloadBuilder()
        let layers: UInt8 = save ? 0b111 : 0b001
        payload.u1(0)  // version: set, no transaction
        payload.u1(layers)
        payload.zeros(2)
        var parts: [String] = []
        for (key, value) in values {
            payload.u4(key)
            switch UBXConfigurationKey.valueSize(of: key) {
            case 1: payload.u1(UInt8(truncatingIfNeeded: value))
            case 2: payload.u2(UInt16(truncatingIfNeeded: value))
            case 4: payload.u4(UInt32(truncatingIfNeeded: value))
            default: payload.u8(value)
            }
            let name = UBXConfigurationKey.name(of: key).map { String($0.map { $0 == "-" ? "_" : $0 }) }
            parts.append("\(name ?? "0x" + String(key, radix: 16))=\(value)")
        }
        let flags = "ram=1, bbr=\(save ? 1 : 0), flash=\(save ? 1 : 0)"
        return UBXCommand(.cfgVALSET, payload, text: "version=0, \(flags), \(parts.joined(separator: ", "))")
    }

    // MARK: The legacy messages (u-blox 6, 7, 8)

    /// CFG-RATE: a measurement every `milliseconds`, one solution per measurement, aligned to GPS time.
    public static func rate(milliseconds: Int) -> UBXCommand {
        var payload = UBXPayloadBuilder()
        payload.u2(UInt16(milliseconds))
        payload.u2(1)
        payload.u2(1)
        return UBXCommand(.cfgRATE, payload, text: "measRate=\(milliseconds), navRate=1, timeRef=1")
    }

    /// CFG-MSG (its short form): output `message` once every `rate` solutions on the port this is sent on (0: off).
    public static func messageRate(_ message: UBXMessageID, rate: UInt8) -> UBXCommand {
        var payload = UBXPayloadBuilder()
        payload.u1(message.messageClass)
        payload.u1(message.messageID)
        payload.u1(rate)
        return UBXCommand(
            .cfgMSG, payload,
            text: "msgClass=\(message.messageClass), msgID=\(message.messageID), rate=\(rate)  (\(message))")
    }

    /// CFG-PRT: the polled port configuration `current` (20 bytes) with a new baud rate and output protocols.
    /// - Returns: `nil` when `current` is not a port configuration.
    public static func port(current: [UInt8], baudRate: Int?, nmea: Bool?, ubx: Bool?) -> UBXCommand? {
        guard current.count >= 20 else { return nil }
        var bytes = Array(current.prefix(20))
        if let baudRate {
            for index in 0..<4 { bytes[8 + index] = UInt8(truncatingIfNeeded: baudRate >> (8 * index)) }
        }
        var output = UInt16(bytes[14]) | UInt16(bytes[15]) << 8
        if let ubx { output = ubx ? output | 1 : output & ~1 }
        if let nmea { output = nmea ? output | 2 : output & ~2 }
        bytes[14] = UInt8(output & 0xFF)
        bytes[15] = UInt8(output >> 8)
        var payload = UBXPayloadBuilder()
        for byte in bytes { payload.u1(byte) }
        let baud = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        let input = Int(bytes[12]) | Int(bytes[13]) << 8
        return UBXCommand(
            .cfgPRT, payload,
            text: "portID=\(bytes[0]), baudRate=\(baud), inProtoMask=\(input), outProtoMask=\(output)",
            newBaudRate: baudRate)
    }

    /// CFG-GNSS: the polled configuration `current` with each system's enable bit set as `systems` says.
    /// - Returns: `nil` when `current` is not a GNSS configuration.
    public static func gnss(current: [UInt8], systems: Set<ReceiverSettings.Constellation>) -> UBXCommand? {
        guard current.count >= 4, current.count >= 4 + 8 * Int(current[3]) else { return nil }
        var bytes = Array(current.prefix(4 + 8 * Int(current[3])))
        var parts: [String] = []
        for block in 0..<Int(bytes[3]) {
            let at = 4 + 8 * block
            let id = bytes[at]
            guard let system = ReceiverSettings.Constellation.allCases.first(where: { $0.gnssID == id }) else {
                continue
            }
            let on = systems.contains(system)
            bytes[at + 4] = on ? bytes[at + 4] | 1 : bytes[at + 4] & ~1
            parts.append("\(system.rawValue)=\(on ? 1 : 0)")
        }
        var payload = UBXPayloadBuilder()
        for byte in bytes { payload.u1(byte) }
        return UBXCommand(.cfgGNSS, payload, text: "numConfigBlocks=\(bytes[3]), " + parts.joined(separator: ", "))
    }

    /// CFG-CFG: the current configuration saved to battery-backed RAM and flash (every section).
    public static func save() -> UBXCommand {
        var payload = UBXPayloadBuilder()
        payload.u4(0)  // clearMask
        payload.u4(0xFFFF)  // saveMask: every section
        payload.u4(0)  // loadMask
        payload.u1(0b11)  // deviceMask: BBR, flash
        return UBXCommand(.cfgCFG, payload, text: "clearMask=0, saveMask=65535, loadMask=0, devBBR=1, devFlash=1")
    }

    /// CFG-RST: a controlled software restart, forgetting what `kind` says (hot: nothing, warm: the ephemerides,
    /// cold: everything).
    public static func reset(_ kind: ReceiverSettings.Reset) -> UBXCommand {
        let mask: UInt16 =
            switch kind {
            case .hot: 0x0000
            case .warm: 0x0001
            case .cold: 0xFFFF
            }
        var payload = UBXPayloadBuilder()
        payload.u2(mask)
        payload.u1(0x01)  // controlled software reset
        payload.u1(0)
        return UBXCommand(.cfgRST, payload, text: "navBbrMask=\(mask), resetMode=1")
    }
}
