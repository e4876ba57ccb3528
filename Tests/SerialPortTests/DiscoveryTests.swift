import Glibc
import TestSupport
import Testing

@testable import SerialPort

/// Classification, naming and remembered rates.
@Suite struct DiscoveryTests {
    @Test func knownReceiversBridgesAndOthersAreTold() {
        for product: UInt16 in 0x01a5...0x01a9 {
            #expect(KnownDevices.classify(vendorID: 0x1546, productID: product).label == "yes")
        }
        #expect(KnownDevices.classify(vendorID: 0x1546, productID: 0x01a7) == .gps(model: "u-blox 7"))
        #expect(KnownDevices.classify(vendorID: 0x091e, productID: 0x0003).label == "yes")
        #expect(KnownDevices.classify(vendorID: 0x0e8d, productID: 0x3329).label == "yes")
        for (vendor, product) in [
            (0x067b, 0x2303), (0x10c4, 0xea60), (0x0403, 0x6001), (0x0403, 0x6015),
            (0x1a86, 0x7523),
        ] as [(UInt16, UInt16)] {
            #expect(KnownDevices.classify(vendorID: vendor, productID: product).label == "possible")
        }
        #expect(KnownDevices.classify(vendorID: 0x2341, productID: 0x0043) == .notGPS)  // an Arduino
        #expect(KnownDevices.classify(vendorID: nil, productID: nil) == .notGPS)
        // A device that says what it is.
        #expect(
            KnownDevices.classify(vendorID: 0x1234, productID: 0x5678, product: "Acme GNSS Receiver").label
                == "yes")
        #expect(KnownDevices.classify(vendorID: 0x1234, productID: 0x5678, interfaceName: "GPS").label == "yes")
        #expect(KnownDevices.classify(vendorID: 0x1234, productID: 0x5678, product: "GPSless widget") == .notGPS)
    }

    @Test func stableKeysSurviveReplugging() {
        let byID = SerialDeviceInfo(
            path: "/dev/ttyACM0", byIDLink: "/dev/serial/by-id/usb-u-blox-if00",
            vendorID: 0x1546, productID: 0x01a7)
        #expect(byID.stableKey == "by-id:usb-u-blox-if00")
        let serial = SerialDeviceInfo(path: "/dev/ttyUSB3", vendorID: 0x067b, productID: 0x2303, serialNumber: "X9")
        #expect(serial.stableKey == "usb:067b:2303:X9")
        #expect(SerialDeviceInfo(path: "/dev/ttyS0").stableKey == "path:/dev/ttyS0")
        let moved = SerialDeviceInfo(path: "/dev/ttyUSB4", vendorID: 0x067b, productID: 0x2303, serialNumber: "X9")
        #expect(moved.sameHardware(as: serial))
        #expect(!SerialDeviceInfo(path: "/dev/ttyUSB3").sameHardware(as: serial))
    }

    @Test func selectorsReadFromTheCommandLine() {
        #expect(DeviceSelector(argument: nil) == .auto)
        #expect(DeviceSelector(argument: "auto") == .auto)
        #expect(DeviceSelector(argument: "/dev/ttyACM0") == .path("/dev/ttyACM0"))
        #expect(DeviceSelector(argument: "./gps") == .path("./gps"))
        #expect(DeviceSelector(argument: "null") == .path("/dev/null"))
        #expect(DeviceSelector(argument: "0123ABCD") == .serialNumber("0123ABCD"))
    }

    @Test func udevEscapesAreDecoded() {
        #expect(decodeUdevString("u-blox\\x20AG\\x20-\\x20www.u-blox.com") == "u-blox AG - www.u-blox.com")
        #expect(decodeUdevString("USB-Serial\\x20Controller\\x20\\x20") == "USB-Serial Controller")
    }

    @Test func baudRatesParseOnlyStandardValues() {
        #expect(BaudRate(rawValue: 115_200) == .b115200)
        #expect(BaudRate(rawValue: 12345) == nil)
        #expect(BaudRate.all.count == 9)
        #expect(Set(BaudRate.autobaudOrder) == Set(BaudRate.all))
    }

    @Test func ratesAreRememberedPerDevice() {
        let directory = TemporaryDirectory("memory")
        defer { directory.remove() }
        let memory = BaudRateMemory(directory: directory.file("state/nmea"))
        #expect(memory.rate(for: "usb:1546:01a7:X") == nil)
        memory.remember(.b115200, for: "usb:1546:01a7:X")
        memory.remember(.b4800, for: "path:/dev/ttyS0")
        memory.remember(.b38400, for: "usb:1546:01a7:X")
        #expect(memory.rate(for: "usb:1546:01a7:X") == .b38400)
        #expect(memory.rate(for: "path:/dev/ttyS0") == .b4800)
        let text = directory.read("state/nmea/baud-rates") ?? ""
        #expect(text == "path:/dev/ttyS0 4800\nusb:1546:01a7:X 38400\n")
    }

    @Test func discoveryRunsHereAndFindsOnlyUSBDevices() throws {
        let discovery = try #require(DeviceDiscovery())
        // This machine has no USB serial devices (or some); whatever is listed must have a USB identity.
        for device in discovery.serialDevices() {
            #expect(device.vendorID != nil)
        }
        // A pty is described by path only.
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        let info = try #require(discovery.device(atPath: pty.slavePath))
        #expect(info.path == pty.slavePath)
        #expect(info.classification == .notGPS)
        #expect(discovery.device(atPath: "/dev/ttyNoSuchGPS5") == nil)
    }

    @Test func hotplugMonitorCanBeMadeOrIsReportedMissing() throws {
        let discovery = try #require(DeviceDiscovery())
        if let monitor = HotplugMonitor(discovery: discovery) {
            print("hotplug monitor on the \(monitor.source) netlink source")
            #expect(monitor.source == (DeviceDiscovery.udevdIsRunning ? "udev" : "kernel"))
            // Nothing is plugged in during the test: no event, and polling does not spin.
            _ = monitor.pendingEvents()
            #expect(try monitor.fileDescriptor.poll(.readable, timeoutMilliseconds: 50).isEmpty)
        } else {
            print("no hotplug monitor here (no netlink): rescanning only")
        }
    }
}
