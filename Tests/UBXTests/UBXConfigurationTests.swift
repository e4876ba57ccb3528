import Foundation
import NMEA
import Simulation
import TestSupport
import Testing
import UBX

/// The configuration messages we build, read back by pyubx2 (checksum, name and values), and the emulated
/// receivers' answers to them.
@Suite struct UBXConfigurationTests {
    static var everything: ReceiverSettings {
        var settings = ReceiverSettings()
        settings.rateHz = 10
        settings.systems = [.gps, .galileo]
        settings.nmeaOutput = false
        settings.ubxMessages = [.navPVT, .navSAT]
        settings.baudRate = 115_200
        settings.save = true
        settings.reset = .cold
        return settings
    }

    /// pyubx2's reading of each frame.
    static func pyubx2(_ frames: [[UInt8]]) throws -> [[String: Any]]? {
        guard let python = PythonOracles.pyubx2 else { return nil }
        let input =
            frames.map { $0.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined() }
            .joined(separator: "\n") + "\n"
        let outcome = try ChildProcess.run(
            [python, Locations.packageRoot + "/scripts/ubx-oracle", "--messages"], input: .bytes(Array(input.utf8)))
        #expect(outcome.status == 0, "\(outcome.error)")
        return try outcome.output.split(whereSeparator: \.isNewline).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("every message of the configuration interface, as pyubx2 reads it")
    func configurationInterfaceAgreesWithPyubx2() throws {
        let commands = try UBXConfigurationPlan.commands(for: Self.everything, .configurationInterface)
        #expect(commands.map(\.id) == [.cfgVALSET, .cfgVALSET, .cfgCFG, .cfgRST])
        guard let read = try Self.pyubx2(commands.map(\.frame) + [UBXCommand.poll(.monVER).frame]) else {
            Issue.record("pyubx2 could not be installed from PyPI into .build/venv-oracles")
            return
        }
        #expect(
            read.map { $0["identity"] as? String } == ["CFG-VALSET", "CFG-VALSET", "CFG-CFG", "CFG-RST", "MON-VER"])
        let set = read[0]
        for (name, value) in [
            ("CFG_RATE_MEAS", 100), ("CFG_RATE_NAV", 1), ("CFG_SIGNAL_GPS_ENA", 1), ("CFG_SIGNAL_GAL_ENA", 1),
            ("CFG_SIGNAL_GLO_ENA", 0), ("CFG_SIGNAL_BDS_ENA", 0), ("CFG_SIGNAL_QZSS_ENA", 0),
            ("CFG_SIGNAL_SBAS_ENA", 0),
            ("CFG_MSGOUT_UBX_NAV_PVT_UART1", 1), ("CFG_MSGOUT_UBX_NAV_PVT_USB", 1), ("CFG_MSGOUT_UBX_NAV_SAT_UART1", 1),
            ("CFG_MSGOUT_UBX_NAV_DOP_UART1", 0), ("CFG_UART1OUTPROT_UBX", 1), ("CFG_UART1OUTPROT_NMEA", 0),
            ("CFG_USBOUTPROT_NMEA", 0), ("ram", 1), ("bbr", 0), ("flash", 0),
        ] {
            #expect((set[name] as? NSNumber)?.intValue == value, "\(name): \(set[name] ?? "absent")")
        }
        #expect((read[1]["CFG_UART1_BAUDRATE"] as? NSNumber)?.intValue == 115_200)
        #expect((read[2]["devBBR"] as? NSNumber)?.intValue == 1)
        #expect((read[2]["devFlash"] as? NSNumber)?.intValue == 1)
        #expect((read[3]["resetMode"] as? NSNumber)?.intValue == 1)
    }

    @Test("every legacy message, as pyubx2 reads it")
    func legacyAgreesWithPyubx2() throws {
        let commands = try UBXConfigurationPlan.commands(
            for: Self.everything, .legacy, polled: [.cfgPRT: Self.port, .cfgGNSS: Self.gnss])
        let messages = UBXConfigurationKey.configurableMessages.count
        #expect(commands.count == 1 + 1 + messages + 1 + 1 + 1 + 1)
        guard let read = try Self.pyubx2(commands.map(\.frame)) else {
            Issue.record("pyubx2 could not be installed from PyPI into .build/venv-oracles")
            return
        }
        #expect(read.count == commands.count)
        #expect(read.map { $0["identity"] as? String } == commands.map(\.id.description))
        #expect((read[0]["measRate"] as? NSNumber)?.intValue == 100)
        // CFG-GNSS: GPS (gnssId 0) and Galileo (2) on, GLONASS (6) and SBAS (1) off, channels as polled.
        let gnss = read[1]
        for block in 1...6 {
            let suffix = "_0\(block)"
            let id = (gnss["gnssId" + suffix] as? NSNumber)?.intValue
            let enabled = (gnss["enable" + suffix] as? NSNumber)?.intValue
            #expect(enabled == ([0, 2].contains(id) ? 1 : 0), "block \(block): gnssId \(id ?? -1)")
        }
        let pvt = read[2 + UBXConfigurationKey.configurableMessages.firstIndex(of: .navPVT)!]
        #expect(pvt["identity"] as? String == "CFG-MSG")
        #expect((pvt["msgClass"] as? NSNumber)?.intValue == 1)
        #expect((pvt["msgID"] as? NSNumber)?.intValue == 7)
        let protocols = read[2 + messages]
        #expect((protocols["outNMEA"] as? NSNumber)?.intValue == 0)
        #expect((protocols["outUBX"] as? NSNumber)?.intValue == 1)
        #expect((protocols["baudRate"] as? NSNumber)?.intValue == 9600)
        #expect((read[3 + messages]["baudRate"] as? NSNumber)?.intValue == 115_200)
    }

    /// An M8's CFG-PRT and CFG-GNSS answers, from the emulated receiver.
    static let port: [UInt8] = answer(to: .cfgPRT, from: .m8)
    static let gnss: [UInt8] = answer(to: .cfgGNSS, from: .m8)

    static func answer(to id: UBXMessageID, from model: UBloxReceiver.Model) -> [UInt8] {
        let receiver = UBloxReceiver(model: model)
        var payload: [UInt8] = []
        var framer = Framer()
        framer.feed(receiver.receive(UBXCommand.poll(id).frame).bytes) { event in
            guard case .binaryFrame(let frame) = event, let ubx = UBXFrame(frame), ubx.id == id else { return }
            payload = Array(ubx.payload.bytes)
        }
        return payload
    }

    @Test("the F9 emulator refuses the legacy messages and takes CFG-VALSET; the M8 the other way round")
    func emulatorGenerations() throws {
        var settings = ReceiverSettings()
        settings.rateHz = 5
        let f9 = UBloxReceiver(model: .f9)
        _ = f9.receive(try UBXConfigurationPlan.commands(for: settings, .legacy).flatMap(\.frame))
        _ = f9.receive(try UBXConfigurationPlan.commands(for: settings, .configurationInterface).flatMap(\.frame))
        #expect(f9.configurationLog.map(\.message) == ["CFG-RATE", "CFG-VALSET"])
        #expect(f9.configurationLog.map(\.accepted) == [false, true])
        #expect(f9.settings.rateMilliseconds == 200)
        let m8 = UBloxReceiver(model: .m8)
        _ = m8.receive(try UBXConfigurationPlan.commands(for: settings, .configurationInterface).flatMap(\.frame))
        _ = m8.receive(try UBXConfigurationPlan.commands(for: settings, .legacy).flatMap(\.frame))
        #expect(m8.configurationLog.map(\.accepted) == [false, true])
        #expect(m8.settings.rateMilliseconds == 200)
    }

    @Test("PMTK commands: checksums, fields and acknowledgements")
    func mediatek() {
        #expect(PMTKCommand.rate(milliseconds: 100).sentence == "$PMTK220,100*2F\r\n")
        #expect(PMTKCommand.baudRate(115_200).sentence == "$PMTK251,115200*1F\r\n")
        #expect(PMTKCommand.firmwareQuery.sentence == "$PMTK605*31\r\n")
        #expect(PMTKCommand.constellations([.gps, .glonass])?.sentence == "$PMTK353,1,1,0,0,0*2B\r\n")
        #expect(PMTKCommand.constellations([.gps, .qzss]) == nil)
        #expect(PMTKCommand.sentences(on: true).text == "$PMTK314,0,1,1,1,1,5,0,0,0,0,0,0,0,0,0,0,0,0,0*2D")
        #expect(PMTKCommand.acknowledgement("$PMTK001,220,3*30")! == (220, true, 3))
        #expect(PMTKCommand.acknowledgement("$PMTK001,353,1*37")?.done == false)
    }
}
