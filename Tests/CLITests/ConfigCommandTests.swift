import Foundation
import GPSDFixtures
import Glibc
import NMEA
import SerialPort
import Simulation
import System
import TestSupport
import Testing
import UBX

/// `nmea config` against an emulated u-blox on a pty, both generations: what the receiver then does is measured
/// from its own output, and what it saved survives its power cycle.
@Suite(.serialized, .enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct ConfigCommandTests {
    static let nmea = BuiltExecutables.nmea

    static func config(_ receiver: EmulatedUBlox, _ arguments: [String]) throws -> ChildProcess.Outcome {
        try ChildProcess.run([nmea, "config", receiver.pty.slavePath] + arguments, timeout: .seconds(60))
    }

    /// Waits for the receiver's output rate, measured over at least `seconds` of its epochs.
    static func rate<Model>(of receiver: EmulatedReceiver<Model>, over seconds: Double) -> Double? {
        let start = MonotonicTime.now()
        sleep(for: .milliseconds(Int64(seconds * 1000)))
        return receiver.measuredRate(since: start)
    }

    @Test(
        "10 Hz, GPS and Galileo, saved: the receiver runs at 10 Hz, and still does after a power cycle",
        arguments: [UBloxReceiver.Model.m8, .f9])
    func rateSystemsAndSave(_ model: UBloxReceiver.Model) throws {
        let receiver = try EmulatedUBlox(model: model)
        defer { receiver.stop() }
        let outcome = try Self.config(receiver, ["--rate", "10", "--gnss", "gps,galileo", "--save"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.error)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix("receiver    u-blox \(model == .m8 ? "NEO-M8N-0" : "ZED-F9P")") == true, "\(lines)")
        switch model {
        case .m8:
            #expect(lines.contains("<UBX(CFG-RATE, measRate=100, navRate=1, timeRef=1)>: acknowledged"), "\(lines)")
            #expect(lines.contains { $0.hasPrefix("<UBX(CFG-GNSS, numConfigBlocks=6, gps=1, sbas=0, galileo=1,") })
        case .f9:
            #expect(
                lines.contains { $0.hasPrefix("<UBX(CFG-VALSET, version=0, ram=1, bbr=0, flash=0, CFG_RATE_MEAS=100,") }
            )
            #expect(lines.contains { $0.contains("CFG_SIGNAL_GAL_ENA=1") && $0.hasSuffix(": acknowledged") })
        }
        #expect(lines.contains { $0.hasPrefix("<UBX(CFG-CFG,") && $0.hasSuffix(": acknowledged") })
        #expect(receiver.settings.rateMilliseconds == 100)
        #expect(receiver.settings.systems == [.gps, .galileo])
        // Every CFG message it got was one it takes: the tool chose the generation from MON-VER.
        let refused = receiver.configurationLog.filter { !$0.accepted }.map(\.message)
        #expect(refused.isEmpty, "\(refused)")
        let measured = try #require(Self.rate(of: receiver, over: 1.5))
        #expect(measured > 8 && measured < 12, "\(measured) Hz")
        receiver.powerCycle()
        #expect(receiver.settings.rateMilliseconds == 100)
        #expect(receiver.settings.systems == [.gps, .galileo])
        let after = try #require(Self.rate(of: receiver, over: 1.5))
        #expect(after > 8 && after < 12, "\(after) Hz after the power cycle")
    }

    @Test("without --save the settings are lost in a power cycle")
    func unsavedSettingsAreLost() throws {
        let receiver = try EmulatedUBlox(model: .f9)
        defer { receiver.stop() }
        let outcome = try Self.config(receiver, ["--rate", "5"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.error)")
        #expect(receiver.settings.rateMilliseconds == 200)
        receiver.powerCycle()
        #expect(receiver.settings.rateMilliseconds == 1000)
    }

    @Test(
        "--set-baud 115200: the receiver switches, the tool follows and confirms; then autobaud finds it there",
        arguments: [UBloxReceiver.Model.m8, .f9])
    func setBaud(_ model: UBloxReceiver.Model) throws {
        let receiver = try EmulatedUBlox(model: model)
        defer { receiver.stop() }
        let outcome = try Self.config(receiver, ["--set-baud", "115200"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.error)")
        #expect(outcome.output.contains("acknowledged; answering at 115200 baud"), "\(outcome.output)")
        #expect(receiver.settings.baudRate == 115_200)
        let info = try Self.config(receiver, ["--info"])
        #expect(info.status == 0, "\(info.output)\(info.error)")
        #expect(info.output.contains("port        \(receiver.pty.slavePath) at 115200 baud"), "\(info.output)")
        // nmea record finds it there too.
        let directory = TemporaryDirectory("record-115200")
        let record = try ChildProcess(
            [Self.nmea, "record", receiver.pty.slavePath, "-o", directory.path + "/track.gpx"],
            environment: ["XDG_STATE_HOME": directory.path])
        #expect(waitUntil(timeout: .seconds(30)) { record.error.contains("at 115200 baud") }, "\(record.error)")
        #expect(record.stop(SIGINT) == 0, "\(record.error)")
    }

    @Test(
        "--info: firmware, protocol, rate, systems and output as the receiver reports them",
        arguments: [UBloxReceiver.Model.m8, .f9])
    func info(_ model: UBloxReceiver.Model) throws {
        let receiver = try EmulatedUBlox(model: model)
        defer { receiver.stop() }
        let outcome = try Self.config(receiver, ["--info", "--baud", "9600"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.error)")
        let text = outcome.output
        switch model {
        case .m8:
            #expect(text.contains("receiver    u-blox NEO-M8N-0, firmware SPG 3.01, hardware 00080000\n"))
            #expect(text.contains("protocol    18: legacy configuration"))
            #expect(
                text.contains("systems     gps, glonass, qzss, sbas\n")
                    || text.contains("systems     gps, sbas, qzss, glonass\n"), "\(text)")
        case .f9:
            #expect(text.contains("receiver    u-blox ZED-F9P, firmware HPG 1.32, hardware 00190000\n"))
            #expect(text.contains("protocol    27.31: configuration interface"))
            #expect(text.contains("systems     gps, galileo, glonass, beidou, qzss, sbas\n"), "\(text)")
        }
        #expect(text.contains("rate        1 Hz (1000 ms)\n"), "\(text)")
        #expect(text.contains("output      NMEA on, UBX on"), "\(text)")
    }

    @Test("--nmea off --ubx nav-pvt,nav-eoe: a receiver that then sends only UBX gives a track")
    func ubxOnlyGivesATrack() throws {
        let receiver = try EmulatedUBlox(model: .f9)
        defer { receiver.stop() }
        let outcome = try Self.config(receiver, ["--nmea", "off", "--ubx", "nav-pvt,nav-eoe"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.error)")
        #expect(receiver.settings.nmea == false)
        #expect(receiver.settings.ubxMessages == [.navPVT, .navEOE])
        // Its output now: NAV-PVT and NAV-EOE each epoch, and no NMEA.
        let port = try SerialPort(path: receiver.pty.slavePath, baudRate: .b9600)
        defer { port.close() }
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        let deadline = MonotonicTime.now() + .milliseconds(2600)
        while MonotonicTime.now() < deadline {
            if case .data(let count) = try port.read(into: buffer, timeout: .milliseconds(200), stop: nil) {
                bytes += buffer[..<count]
            }
        }
        var reader = FixReader(options: FixReader.Options(frameDecoder: UBXEpochs.report))
        var fixes: [Fix] = []
        reader.read(bytes) { fixes.append($0) }
        reader.finish { fixes.append($0) }
        #expect(reader.statistics.framer.sentences == 0)
        #expect(fixes.filter(\.hasPosition).count >= 2)
        #expect(fixes.first?.horizontalErrorMeters == 1.5)
    }

    @Test("record --rate 5: the receiver is configured when it connects, then recorded at 5 Hz")
    func recordConfiguresTheReceiver() throws {
        let receiver = try EmulatedUBlox(model: .m8)
        defer { receiver.stop() }
        let directory = TemporaryDirectory("record-rate")
        let record = try ChildProcess(
            [Self.nmea, "record", receiver.pty.slavePath, "--rate", "5", "-o", directory.path + "/track.gpx"])
        #expect(waitUntil(timeout: .seconds(20)) { receiver.settings.rateMilliseconds == 200 }, "\(record.error)")
        #expect(waitUntil(timeout: .seconds(10)) { record.error.contains("acknowledged") }, "\(record.error)")
        let measured = try #require(Self.rate(of: receiver, over: 1.5))
        #expect(measured > 4 && measured < 6, "\(measured) Hz")
        sleep(for: .seconds(1))
        #expect(record.stop(SIGINT) == 0, "\(record.error)")
        #expect(record.error.contains("<UBX(CFG-RATE, measRate=200, navRate=1, timeRef=1)>: acknowledged"))
        let track = try String(contentsOfFile: directory.path + "/track.gpx", encoding: .utf8)
        #expect(track.components(separatedBy: "<trkpt").count - 1 >= 5)
    }

    @Test("a MediaTek: PMTK605 tells it; rate, constellations and baud acknowledged and followed; --save impossible")
    func mediatek() throws {
        let receiver = try EmulatedReceiver(MediaTekReceiver())
        defer { receiver.stop() }
        let outcome = try ChildProcess.run(
            [Self.nmea, "config", receiver.pty.slavePath, "--rate", "5", "--gnss", "gps,galileo", "--timeout", "0.3"],
            timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.error)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "receiver    MediaTek AXN_2.31_3339_13101700, 5632, PA6H, 1.0", "\(lines)")
        #expect(lines.contains { $0.hasPrefix("$PMTK220,200*") && $0.hasSuffix(": acknowledged") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("$PMTK353,1,0,1,0,0*") && $0.hasSuffix(": acknowledged") }, "\(lines)")
        #expect(receiver.inspect { $0.rateMilliseconds } == 200)
        #expect(receiver.inspect { $0.systems } == [.gps, .galileo])
        let measured = try #require(Self.rate(of: receiver, over: 1.5))
        #expect(measured > 4 && measured < 6, "\(measured) Hz")
        let save = try ChildProcess.run(
            [Self.nmea, "config", receiver.pty.slavePath, "--save", "--timeout", "0.3"], timeout: .seconds(60))
        #expect(save.status == 1)
        #expect(save.output.contains("not sent    --save (MediaTek chips keep their settings as their firmware does)"))
        let baud = try ChildProcess.run(
            [Self.nmea, "config", receiver.pty.slavePath, "--set-baud", "115200", "--timeout", "0.3"],
            timeout: .seconds(60))
        #expect(baud.status == 0, "\(baud.output)\(baud.error)")
        #expect(baud.output.contains("$PMTK251,115200*1F: answering at 115200 baud"), "\(baud.output)")
        #expect(receiver.inspect { $0.baudRate } == 115_200)
    }

    @Test("a refused message is reported and the exit status is 1")
    func refusedMessage() throws {
        let receiver = try EmulatedUBlox(model: .m8)
        defer { receiver.stop() }
        // An M8 refuses a rate above its 20 Hz (the emulator's limit): 25 Hz is 40 ms.
        let outcome = try Self.config(receiver, ["--rate", "25"])
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("<UBX(CFG-RATE, measRate=40, navRate=1, timeRef=1)>: refused (ACK-NAK)"))
        #expect(receiver.settings.rateMilliseconds == 1000)
    }

    @Test("--dry-run prints each message in hex and as text, and opens nothing")
    func dryRun() throws {
        let outcome = try ChildProcess.run(
            [Self.nmea, "config", "/nonexistent", "--rate", "10", "--dry-run", "--generation", "legacy"])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(
            outcome.output
                == "<UBX(CFG-RATE, measRate=100, navRate=1, timeRef=1)>\n  b5 62 06 08 06 00 64 00 01 00 01 00 7a 12\n")
    }

    @Test("usage errors: nothing asked, a bad constellation, an unknown message; exit 64")
    func usageErrors() throws {
        for arguments in [["/dev/null"], ["/dev/null", "--gnss", "gps,mars"], ["/dev/null", "--ubx", "nav-foo"]] {
            let outcome = try ChildProcess.run([Self.nmea, "config"] + arguments)
            #expect(outcome.status == 64, "\(arguments): \(outcome.error)")
        }
    }
}
