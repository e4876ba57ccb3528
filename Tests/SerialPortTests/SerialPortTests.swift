import Glibc
import NMEA
import System
import TestSupport
import Testing

@testable import SerialPort

/// The termios port on real pseudo-terminals.
@Suite struct SerialPortTests {
    @Test func rawEightNOneAtEveryRateIsAppliedAndReadBack() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let port = try SerialPort(path: pty.slavePath, baudRate: .b115200)
        defer { port.close() }
        let attributes = try port.currentAttributes()
        #expect(attributes.baudRate == .b115200)
        #expect(attributes.dataBits == 8)
        #expect(attributes.stopBits == 1)
        #expect(!attributes.parityEnabled)
        #expect(attributes.ignoresModemLines)  // CLOCAL
        #expect(attributes.receiverEnabled)  // CREAD
        #expect(!attributes.hardwareFlowControl)
        #expect(!attributes.canonical && !attributes.echo && !attributes.signals)
        #expect(!attributes.outputProcessing && !attributes.inputTranslation)
        #expect(attributes.isRaw8N1)
        #expect(attributes.controlCharacter(Int(VMIN)) == 0 && attributes.controlCharacter(Int(VTIME)) == 0)
        for rate in BaudRate.all {
            try port.setBaudRate(rate)
            #expect(try port.currentAttributes().baudRate == rate)
            #expect(port.baudRate == rate)
        }
    }

    @Test func portIsTakenExclusively() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let port = try SerialPort(path: pty.slavePath)
        #expect(port.isExclusive == true)
        port.close()
        let shared = try SerialPort(path: pty.slavePath, exclusive: false)
        defer { shared.close() }
        #expect(shared.isExclusive == false)
    }

    @Test func closeRestoresTheSettingsFoundAtOpen() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        // A cooked terminal at 38400, as a port may be left by a login getty.
        let slave = try FileDescriptor.open(pty.slavePath, .readWrite, options: [.noControllingTerminal, .closeOnExec])
        defer { try? slave.close() }
        var cooked = try TerminalAttributes(of: slave)
        cooked.raw.c_lflag |= tcflag_t(ICANON | ECHO | ISIG)
        cooked.raw.c_iflag |= tcflag_t(ICRNL)
        cooked.baudRate = .b38400
        try cooked.apply(to: slave)

        let port = try SerialPort(path: pty.slavePath, baudRate: .b4800)
        #expect(try TerminalAttributes(of: slave).isRaw8N1)
        #expect(try TerminalAttributes(of: slave).baudRate == .b4800)
        port.close()
        port.close()  // harmless twice
        let restored = try TerminalAttributes(of: slave)
        #expect(restored.canonical && restored.echo && restored.signals)
        #expect(restored.inputFlags & tcflag_t(ICRNL) != 0)
        #expect(restored.baudRate == .b38400)
    }

    @Test func readsTheNMEAWrittenAtTheOtherEnd() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let port = try SerialPort(path: pty.slavePath)
        defer { port.close() }
        let lines = (0..<20).map { sampleRMC(second: $0) + sampleGGA(second: $0) }
        for line in lines { try pty.write(line) }
        var framer = Framer()
        var sentences: [String] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)  // small: many reads
        defer { buffer.deallocate() }
        let deadline = MonotonicTime.now() + .seconds(5)
        while sentences.count < 40 && MonotonicTime.now() < deadline {
            let outcome = try port.read(into: buffer, timeout: .milliseconds(500), stop: nil)
            guard case .data(let count) = outcome else { continue }
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { event in
                if case .sentence(let sentence) = event {
                    sentences.append(String(decoding: sentence.bytes, as: UTF8.self))
                }
            }
        }
        #expect(sentences.count == 40)
        #expect(sentences.first?.hasPrefix("$GPRMC,120000.00") == true)
    }

    @Test func readTimesOutAndStopsOnSignal() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let port = try SerialPort(path: pty.slavePath)
        defer { port.close() }
        var byte: UInt8 = 0
        let started = MonotonicTime.now()
        let outcome = try withUnsafeMutableBytes(of: &byte) {
            try port.read(into: $0, timeout: .milliseconds(100), stop: nil)
        }
        #expect(outcome == .timedOut)
        #expect(started.elapsed >= .milliseconds(95))
        let stop = StopSignal()
        stop.signal()
        let stopped = try withUnsafeMutableBytes(of: &byte) {
            try port.read(into: $0, timeout: .seconds(10), stop: stop)
        }
        #expect(stopped == .stopped)
    }

    @Test func pollTimeoutsAreNeverNegative() {
        // A negative timeout would make poll(2) wait forever.
        #expect(Duration.milliseconds(-5).pollMilliseconds == 0)
        #expect(Duration.seconds(-2).pollMilliseconds == 0)
        #expect(Duration.zero.pollMilliseconds == 0)
        #expect(Duration.microseconds(1).pollMilliseconds == 1)
        #expect(Duration.milliseconds(1500).pollMilliseconds == 1500)
        #expect(Duration.seconds(1e9).pollMilliseconds == Int32.max)
        let stop = StopSignal()
        let started = MonotonicTime.now()
        #expect(!stop.wait(timeout: .milliseconds(-100)))
        #expect(started.elapsed < .milliseconds(50))
    }

    @Test func farEndClosedIsADisconnection() throws {
        let pty = try PseudoTerminal.open()
        let port = try SerialPort(path: pty.slavePath)
        defer { port.close() }
        try pty.write(sampleRMC(second: 0))
        pty.close()
        var outcomes: [ReadOutcome] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        for _ in 0..<5 {
            let outcome = try buffer.withUnsafeMutableBytes { try port.read(into: $0, timeout: .seconds(2), stop: nil) }
            outcomes.append(outcome)
            if case .disconnected = outcome { break }
        }
        guard case .disconnected(let reason)? = outcomes.last else {
            Issue.record("no disconnection: \(outcomes)")
            return
        }
        #expect([DisconnectReason.hangUp, .error(.ioError), .endOfFile].contains(reason))
    }

    @Test func nonexistentPathIsATypedNotFoundError() {
        do {
            _ = try SerialPort(path: "/dev/ttyNoSuchGPS9")
            Issue.record("opened a nonexistent device")
        } catch Errno.noSuchFileOrDirectory {
            // `catch Errno.x` matches the SerialPortError carrying it.
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: SerialPortError.self) { try SerialPort(path: "/dev/ttyNoSuchGPS9") }
        do {
            _ = try SerialPort(path: "/dev/ttyNoSuchGPS9")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.errno == .noSuchFileOrDirectory)
            #expect(error.description.contains("plugged in"))
        }
    }

    @Test func aRegularFileOrDirectoryIsNotATerminal() throws {
        let directory = TemporaryDirectory("notatty")
        defer { directory.remove() }
        directory.write(sampleRMC(second: 0), to: "capture.nmea")
        do {
            _ = try SerialPort(path: directory.file("capture.nmea"))
            Issue.record("opened a regular file as a port")
        } catch {
            #expect(error.kind == .notATerminal)
            #expect(error.errno == .notATerminal)
            #expect(error.description == "'\(directory.file("capture.nmea"))' is not a serial device (not a terminal).")
        }
        do {
            _ = try SerialPort(path: directory.path)
            Issue.record("opened a directory as a port")
        } catch {
            #expect(error.kind == .notATerminal)
            #expect(error.description.contains("is a directory"))
        }
    }

    @Test func errorMessagesSayWhatToDo() {
        let denied = SerialPortError(
            kind: .permissionDenied, path: "/dev/ttyUSB0", operation: "open",
            errno: .permissionDenied, deviceGroup: "dialout")
        #expect(denied.description.contains("'dialout' group"))
        #expect(denied.description.contains("sudo usermod -aG dialout $USER"))
        let busy = SerialPortError(
            kind: .busy, path: "/dev/ttyUSB0", operation: "open", errno: .resourceBusy,
            holders: [DeviceHolder(pid: 812, name: "gpsd")])
        #expect(busy.description.contains("in use by gpsd (pid 812)"))
        #expect(busy.description.contains("systemctl stop gpsd"))
        let unknownHolder = SerialPortError(.resourceBusy, path: "/dev/ttyNoSuchGPS9", operation: "open")
        #expect(unknownHolder.kind == .busy)
        #expect(unknownHolder.description.contains("in use by another program"))
        #expect(SerialPortError(.ioError, path: "/dev/ttyACM0", operation: "read").kind == .disconnected)
    }

    @Test func permissionAdviceNamesTheGroupOnlyWhenItMayOpenTheDevice() {
        func denied(_ permissions: UInt32, group: String) -> String {
            SerialPortError(
                kind: .permissionDenied, path: "/dev/ttyACM0", operation: "open", errno: .permissionDenied,
                access: DeviceAccess(
                    ownerID: 0, groupID: 20, owner: "root", group: group,
                    permissions: permissions)
            ).description
        }
        let udev =
            "A udev rule that gives it a group does, as contrib/udev/80-nmea-gps.rules does for known receivers "
            + "(GROUP=\"dialout\", MODE=\"0660\"; scripts/install installs it); then add yourself to that group."
        #expect(
            denied(0o600, group: "root") == "cannot open '/dev/ttyACM0': permission denied. Only its owner (root, "
                + "crw-------) may open it, so no group you could join would help. " + udev)
        // Read-only for the group: joining it would not let a port (opened read-write) open either.
        #expect(denied(0o640, group: "dialout").contains("Only its owner (root, crw-r-----)"))
        #expect(
            denied(0o660, group: "dialout") == "cannot open '/dev/ttyACM0': permission denied. Serial devices "
                + "belong to the 'dialout' group; add yourself with 'sudo usermod -aG dialout $USER', then log out and "
                + "back in.")
        #expect(
            DeviceAccess(ownerID: 0, groupID: 0, owner: nil, group: nil, permissions: 0o666).modeText
                == "crw-rw-rw-")
    }

    @Test func aLockedPortIsRefusedNamingTheLocksHolderAndFreedOnClose() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let first = try SerialPort(path: pty.slavePath)
        do {
            _ = try SerialPort(path: pty.slavePath)
            Issue.record("opened a locked port a second time")
        } catch {
            #expect(error.kind == .busy)
            if Tools.isRoot {
                // TIOCEXCL does not stop root: the lock does, and /proc/locks names who holds it.
                #expect(error.operation == "lock")
                #expect(error.holders.map(\.pid) == [getpid()])
                #expect(error.description.contains("another logger has it locked: "))
                #expect(error.description.contains("(pid \(getpid()))"))
            }
        }
        #expect(DeviceHolder.lockHolders(path: pty.slavePath).map(\.pid) == [getpid()])
        first.close()
        #expect(DeviceHolder.lockHolders(path: pty.slavePath).isEmpty)
        let again = try SerialPort(path: pty.slavePath)
        again.close()
    }

    @Test func findsTheProcessHoldingADevice() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let port = try SerialPort(path: pty.slavePath)
        defer { port.close() }
        let holders = DeviceHolder.find(path: pty.slavePath, excludingSelf: false)
        #expect(holders.contains { $0.pid == getpid() })
        #expect(DeviceHolder.find(path: pty.slavePath).allSatisfy { $0.pid != getpid() })
    }

    @Test(.enabled(if: Tools.available("socat"), "socat is not installed (scripts/test installs it)"))
    func socatNullModemCarriesNMEA() throws {
        let directory = TemporaryDirectory("socat-read")
        defer { directory.remove() }
        let socat = SocatPair(directory: directory.path)
        defer { socat.stop() }
        #expect(socat.start())
        let port = try SerialPort(path: socat.deviceSide, baudRate: .b9600)
        defer { port.close() }
        #expect(try port.currentAttributes().isRaw8N1)
        #expect(try port.currentAttributes().baudRate == .b9600)
        let feeder = NMEAFeeder(path: socat.receiverSide, interval: .milliseconds(20))
        feeder.start()
        defer { feeder.stop() }
        var framer = Framer()
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 1024)
        let deadline = MonotonicTime.now() + .seconds(5)
        while count < 10 && MonotonicTime.now() < deadline {
            let outcome = try buffer.withUnsafeMutableBytes { try port.read(into: $0, timeout: .seconds(1), stop: nil) }
            guard case .data(let n) = outcome else { continue }
            framer.feed(buffer[..<n]) { event in if case .sentence = event { count += 1 } }
        }
        #expect(count >= 10)
    }
}
