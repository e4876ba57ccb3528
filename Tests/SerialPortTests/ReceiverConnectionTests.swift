import Glibc
import Synchronization
import System
import TestSupport
import Testing
import Threading

@testable import SerialPort

/// Finding, connecting, losing and finding again a receiver.
@Suite struct ReceiverConnectionTests {
    /// Options that open fakes from a table instead of devices.
    static func fakeOptions(_ devices: [SerialDeviceInfo], rates: [String: BaudRate?], memory: BaudRateMemory?)
        -> ReceiverConnection.Options
    {
        var options = ReceiverConnection.Options()
        options.memory = memory
        options.autobaudWindow = .milliseconds(150)
        options.rescanInterval = .milliseconds(50)
        options.listDevices = { devices }
        options.open = { path, rate, _ throws(SerialPortError) in
            guard let right = rates[path] else {
                throw SerialPortError(kind: .notFound, path: path, operation: "open", errno: .noSuchFileOrDirectory)
            }
            return FakeReceiver(path: path, rightRate: right, initialRate: rate, burstInterval: .milliseconds(30))
        }
        return options
    }

    @Test func autoPrefersAKnownReceiverAndRemembersItsRate() throws {
        let directory = TemporaryDirectory("auto")
        defer { directory.remove() }
        let memory = BaudRateMemory(directory: directory.file("state/nmea"))
        let bridge = SerialDeviceInfo(path: "/dev/ttyUSB0", vendorID: 0x067b, productID: 0x2303)
        let ublox = SerialDeviceInfo(path: "/dev/ttyACM0", vendorID: 0x1546, productID: 0x01a7, serialNumber: "A1")
        let other = SerialDeviceInfo(path: "/dev/ttyACM1", vendorID: 0x2341, productID: 0x0043)
        let options = Self.fakeOptions(
            [bridge, other, ublox],
            rates: [
                "/dev/ttyUSB0": .b4800, "/dev/ttyACM0": .b115200,
                "/dev/ttyACM1": .b9600,
            ],
            memory: memory)
        let runner = ConnectionRunner(ReceiverConnection(.auto, options: options))
        runner.start()
        #expect(waitUntil(timeout: .seconds(5)) { runner.log.sentences.load(ordering: .relaxed) >= 4 })
        #expect(runner.stop() == nil)
        let connected = runner.log.statuses.compactMap { status -> ConnectedDevice? in
            if case .connected(let device) = status { return device }
            return nil
        }
        #expect(connected.first?.path == "/dev/ttyACM0")
        #expect(connected.first?.baudRate == .b115200)
        #expect(connected.first?.isReconnection == false)
        #expect(memory.rate(for: ublox.stableKey) == .b115200)
        // The Arduino (not GPS-like) was never opened: no status names it.
        #expect(!runner.log.statuses.contains { "\($0)".contains("ttyACM1") })
        #expect(runner.log.statuses.last == .stopped)
    }

    @Test func autoSkipsAPossibleGPSThatSendsNoNMEA() throws {
        let silent = SerialDeviceInfo(path: "/dev/ttyUSB0", vendorID: 0x10c4, productID: 0xea60)
        let talking = SerialDeviceInfo(path: "/dev/ttyUSB1", vendorID: 0x0403, productID: 0x6001)
        let options = Self.fakeOptions(
            [silent, talking],
            rates: ["/dev/ttyUSB0": BaudRate?.none, "/dev/ttyUSB1": .b38400], memory: nil)
        let runner = ConnectionRunner(ReceiverConnection(.auto, options: options))
        runner.start()
        #expect(
            waitUntil(timeout: .seconds(10)) { runner.log.count { $0.isConnected } == 1 },
            "statuses: \(runner.log.statuses)")
        runner.stop()
        #expect(
            runner.log.statuses.contains {
                if case .unavailable("/dev/ttyUSB0", let error) = $0 { return error.kind == .noNMEA }
                return false
            })
        #expect(
            runner.log.statuses.contains {
                if case .connected(let device) = $0 {
                    return device.path == "/dev/ttyUSB1" && device.baudRate == .b38400
                }
                return false
            })
    }

    @Test func autoWaitsForAReceiverToAppear() throws {
        let plugged = Atomic<Bool>(false)
        let looks = Atomic<Int>(0)
        let ublox = SerialDeviceInfo(path: "/dev/ttyACM0", vendorID: 0x1546, productID: 0x01a8)
        var options = Self.fakeOptions([], rates: ["/dev/ttyACM0": .b9600], memory: nil)
        options.listDevices = {
            looks.add(1, ordering: .relaxed)
            return plugged.load(ordering: .relaxed) ? [ublox] : []
        }
        let runner = ConnectionRunner(ReceiverConnection(.auto, options: options))
        runner.start()
        #expect(waitUntil(timeout: .seconds(2)) { runner.log.statuses.contains(.searching(.auto)) })
        // It has looked again (and again) since it said so, and found nothing to connect to.
        let searched = looks.load(ordering: .relaxed)
        #expect(waitUntil(timeout: .seconds(2)) { looks.load(ordering: .relaxed) >= searched + 2 })
        #expect(runner.log.count { $0.isConnected } == 0)
        let pluggedAt = MonotonicTime.now()
        plugged.store(true, ordering: .relaxed)
        #expect(waitUntil(timeout: .seconds(2)) { runner.log.count { $0.isConnected } == 1 })
        let connectedAt = runner.log.firstTime(after: pluggedAt) { $0.isConnected }
        runner.stop()
        #expect(connectedAt.map { ($0 - pluggedAt) < .seconds(1) } == true)
    }

    @Test func fixedRateSkipsAutobaud() throws {
        // /dev/null exists, so the path is tried; the fake behind it talks at 9600, the rate given.
        var options = Self.fakeOptions([], rates: ["/dev/null": .b9600], memory: nil)
        options.baudRate = .b9600
        let runner = ConnectionRunner(ReceiverConnection(.path("/dev/null"), options: options))
        runner.start()
        #expect(waitUntil(timeout: .seconds(3)) { runner.log.sentences.load(ordering: .relaxed) >= 2 })
        runner.stop()
        #expect(!runner.log.statuses.contains { if case .autobauding = $0 { true } else { false } })
        #expect(
            runner.log.statuses.contains {
                if case .connected(let device) = $0 { return device.baudRate == .b9600 }
                return false
            })
    }

    @Test func openFailureOfANamedPathIsFatalOnTheFirstAttempt() throws {
        let options = Self.fakeOptions([], rates: [:], memory: nil)
        let runner = ConnectionRunner(ReceiverConnection(.path("/dev/null"), options: options))
        runner.start()
        let result = runner.waitForEnd(timeout: .seconds(5))
        #expect(result??.kind == .notFound)
    }

    @Test func explicitPathThatDoesNotExistIsFatalUnlessWaiting() throws {
        let connection = ReceiverConnection(.path("/dev/ttyNoSuchGPS7"))
        #expect(throws: SerialPortError.self) { try connection.run { _ in } }
        do {
            try connection.run { _ in }
        } catch {
            #expect(error.kind == .notFound)
        }
        var options = ReceiverConnection.Options()
        options.waitForDevice = true
        options.memory = nil
        let waiting = ConnectionRunner(ReceiverConnection(.path("/dev/ttyNoSuchGPS7"), options: options))
        waiting.start()
        #expect(waitUntil(timeout: .seconds(2)) { !waiting.log.statuses.isEmpty })
        #expect(waiting.stop() == nil)
        #expect(waiting.log.statuses == [.searching(.path("/dev/ttyNoSuchGPS7")), .stopped])
    }

    @Test func explicitPathWithoutNMEAIsFatal() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        var options = ReceiverConnection.Options()
        options.memory = nil
        options.autobaudWindow = .milliseconds(30)
        do {
            try ReceiverConnection(.path(pty.slavePath), options: options).run { _ in }
            Issue.record("no error")
        } catch {
            #expect(error.kind == .noNMEA)
            #expect(error.description.contains("no NMEA"))
        }
    }

    @Test func ptyDeviceConnectsAndReportsFarEndClosing() throws {
        let pty = try PseudoTerminal.open()
        var options = ReceiverConnection.Options()
        options.memory = nil
        options.reconnect = false
        let runner = ConnectionRunner(ReceiverConnection(.path(pty.slavePath), options: options))
        runner.start()
        // Input that arrived before the port was opened is discarded at open, so keep talking.
        var second = 0
        #expect(
            waitUntil(timeout: .seconds(3)) {
                try? pty.write(sampleRMC(second: second))
                second += 1
                return runner.log.sentences.load(ordering: .relaxed) >= 5
            })
        pty.close()
        let ended = runner.waitForEnd(timeout: .seconds(3))
        #expect(ended != nil)
        #expect(runner.log.statuses.contains { $0.isDisconnected })
        #expect(runner.log.statuses.last == .stopped)
    }

    /// socat's ptys stopped and started again with the same links: the connection comes back within a second.
    @Test(.enabled(if: Tools.available("socat"), "socat is not installed (scripts/test installs it)"))
    func reconnectsWithinOneSecondWhenTheDeviceComesBack() throws {
        let directory = TemporaryDirectory("reconnect")
        defer { directory.remove() }
        let socat = SocatPair(directory: directory.path)
        defer { socat.stop() }
        #expect(socat.start())
        let feeder = NMEAFeeder(path: socat.receiverSide, interval: .milliseconds(100))  // 10 Hz
        feeder.start()
        defer { feeder.stop() }

        var options = ReceiverConnection.Options()
        options.memory = BaudRateMemory(directory: directory.file("state"))
        let runner = ConnectionRunner(ReceiverConnection(.path(socat.deviceSide), options: options))
        runner.start()
        defer { runner.stop() }
        #expect(waitUntil(timeout: .seconds(5)) { runner.log.sentences.load(ordering: .relaxed) >= 5 })

        // Unplug.
        socat.stop()
        #expect(waitUntil(timeout: .seconds(2)) { runner.log.count { $0.isDisconnected } == 1 })
        let before = runner.log.sentences.load(ordering: .relaxed)
        // Unplugged until the connection has looked for the device and found it gone.
        #expect(
            waitUntil(timeout: .seconds(2)) {
                let statuses = runner.log.statuses
                return statuses.firstIndex { $0.isDisconnected }.map {
                    statuses[$0...].contains(.searching(.path(socat.deviceSide)))
                } ?? false
            }, "statuses: \(runner.log.statuses)")

        // Replug: same links.
        #expect(socat.start())
        let replugged = MonotonicTime.now()
        #expect(waitUntil(timeout: .seconds(3)) { runner.log.count { $0.isConnected } == 2 })
        let reconnectedAt = runner.log.firstTime(after: replugged) { $0.isConnected }
        #expect(waitUntil(timeout: .seconds(3)) { runner.log.sentences.load(ordering: .relaxed) > before + 3 })
        let delay = reconnectedAt.map { ($0 - replugged) }
        print("reconnected \(delay.map { "\($0)" } ?? "never") after socat came back")
        #expect(delay.map { $0 < .seconds(1) } == true)
        let reconnection = runner.log.statuses.compactMap { status -> ConnectedDevice? in
            if case .connected(let device) = status, device.isReconnection { return device }
            return nil
        }
        #expect(reconnection.count == 1)
    }

    /// A 1 Hz receiver at 9600 on a real pty: from open to the first valid sentence in under two seconds.
    @Test func locksOnAOneHertzReceiverInUnderTwoSeconds() throws {
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let talking = Atomic<Bool>(true)
        let talker = NativeThread {
            var second = 0
            while talking.load(ordering: .relaxed) {
                try? pty.write(sampleRMC(second: second) + sampleGGA(second: second))
                second += 1
                // A 1 Hz receiver: quiet for a second, in steps so that it stops at once.
                for _ in 0..<20 where talking.load(ordering: .relaxed) {
                    sleep(for: .milliseconds(50))  // pacing under test
                }
            }
        }
        defer {
            talking.store(false, ordering: .relaxed)
            talker.join()
        }
        var options = ReceiverConnection.Options()
        options.memory = nil
        let runner = ConnectionRunner(ReceiverConnection(.path(pty.slavePath), options: options))
        runner.start()
        #expect(waitUntil(timeout: .seconds(4)) { runner.log.count { $0.isConnected } == 1 })
        runner.stop()
        let setup = runner.log.statuses.compactMap { status -> Duration? in
            if case .connected(let device) = status { return device.setupTime }
            return nil
        }.first
        print("lock on a 1 Hz pty receiver at 9600: \(setup.map { "\($0)" } ?? "none")")
        #expect(setup.map { $0 < .seconds(2) } == true)
    }

    /// Unplugged from one port and back on another: found again by its USB serial number.
    @Test func aReceiverThatComesBackUnderAnotherNameIsFoundBySerialNumber() throws {
        let directory = TemporaryDirectory("moved")
        defer { directory.remove() }
        let first = directory.file("ttyUSB0")
        let second = directory.file("ttyUSB1")
        directory.write("", to: "ttyUSB0")
        let present = Mutex<[SerialDeviceInfo]>([
            SerialDeviceInfo(path: first, vendorID: 0x067b, productID: 0x2303, serialNumber: "PUCK-1")
        ])
        var options = ReceiverConnection.Options()
        options.memory = nil
        options.autobaudWindow = .milliseconds(150)
        options.rescanInterval = .milliseconds(50)
        options.listDevices = { present.withLock { $0 } }
        options.open = { path, rate, _ throws(SerialPortError) in
            let device = FakeReceiver(
                path: path, rightRate: .b4800, initialRate: rate,
                burstInterval: .milliseconds(30))
            if path == first {
                device.unplugAfterBursts = 25  // after autobaud has locked (about 8 bursts)
            }
            return device
        }
        let runner = ConnectionRunner(ReceiverConnection(.path(first), options: options))
        runner.start()
        #expect(waitUntil(timeout: .seconds(5)) { runner.log.count { $0.isDisconnected } == 1 })
        // The node goes away and the puck comes back as ttyUSB1.
        unlink(first)
        directory.write("", to: "ttyUSB1")
        present.withLock {
            $0 = [SerialDeviceInfo(path: second, vendorID: 0x067b, productID: 0x2303, serialNumber: "PUCK-1")]
        }
        #expect(waitUntil(timeout: .seconds(5)) { runner.log.count { $0.isConnected } == 2 })
        runner.stop()
        let paths = runner.log.statuses.compactMap { status -> String? in
            if case .connected(let device) = status { return device.path }
            return nil
        }
        #expect(paths == [first, second])
    }
}
