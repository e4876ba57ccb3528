import Foundation
import Glibc
import SerialPort
import System
import TestSupport
import Testing

/// `nmea devices` run as a program: on emulated USB devices (umockdev), on ptys, and as an unprivileged user.
@Suite(.enabled(if: BuiltExecutables.hasNMEA, "the nmea executable was not found beside the tests"))
struct DevicesCommandTests {
    static let hasUmockdev = Tools.available("umockdev-run")
    static let needsUmockdev: Comment = "umockdev-run is not installed (scripts/test installs umockdev)"
    static let canSwitchUser = Tools.isRoot && Tools.available("setpriv")
    static let hasPython = Tools.available("python3")
    static let needsPython: Comment = "python3 is not installed: the --json output cannot be checked as JSON"
    static let nmea = BuiltExecutables.nmea

    /// A u-blox 7 on ttyACM0 as a machine without udevd shows it: sysfs only, no ID_* properties.
    static let ublox7 = """
        P: /devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/tty/ttyACM0
        N: ttyACM0
        E: DEVNAME=/dev/ttyACM0
        E: MAJOR=166
        E: MINOR=0
        E: SUBSYSTEM=tty
        A: dev=166:0\\n

        P: /devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0
        E: DEVTYPE=usb_interface
        E: DRIVER=cdc_acm
        E: INTERFACE=2/2/1
        E: SUBSYSTEM=usb
        A: bInterfaceClass=02\\n
        A: bInterfaceNumber=00\\n
        L: driver=../../../../../../bus/usb/drivers/cdc_acm

        P: /devices/pci0000:00/0000:00:14.0/usb1/1-1
        N: bus/usb/001/002
        E: DEVNAME=/dev/bus/usb/001/002
        E: DEVTYPE=usb_device
        E: DRIVER=usb
        E: PRODUCT=1546/1a7/100
        E: SUBSYSTEM=usb
        A: bcdDevice=0100\\n
        A: busnum=1\\n
        A: devnum=2\\n
        A: idProduct=01a7\\n
        A: idVendor=1546\\n
        A: manufacturer=u-blox AG - www.u-blox.com\\n
        A: product=u-blox 7 - GPS/GNSS Receiver\\n
        L: driver=../../../../../bus/usb/drivers/usb

        """

    /// A PL2303 adapter on ttyUSB0 as udevd describes it: ID_* properties and a by-id link.
    static let pl2303 = """
        P: /devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/ttyUSB0/tty/ttyUSB0
        N: ttyUSB0
        E: DEVLINKS=/dev/serial/by-id/usb-Prolific_Technology_Inc._USB-Serial_Controller_D-if00-port0 \
        /dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0-port0
        E: DEVNAME=/dev/ttyUSB0
        E: ID_BUS=usb
        E: ID_MODEL=USB-Serial_Controller_D
        E: ID_MODEL_ENC=USB-Serial\\x20Controller\\x20D
        E: ID_MODEL_ID=2303
        E: ID_SERIAL=Prolific_Technology_Inc._USB-Serial_Controller_D
        E: ID_USB_DRIVER=pl2303
        E: ID_VENDOR=Prolific_Technology_Inc.
        E: ID_VENDOR_ENC=Prolific\\x20Technology\\x20Inc.
        E: ID_VENDOR_ID=067b
        E: MAJOR=188
        E: MINOR=0
        E: SUBSYSTEM=tty
        A: dev=188:0\\n

        P: /devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/ttyUSB0
        E: DRIVER=pl2303
        E: SUBSYSTEM=usb-serial
        A: port_number=0\\n
        L: driver=../../../../../../../bus/usb-serial/drivers/pl2303

        P: /devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0
        E: DEVTYPE=usb_interface
        E: DRIVER=pl2303
        E: SUBSYSTEM=usb
        A: bInterfaceClass=ff\\n
        A: bInterfaceNumber=00\\n
        L: driver=../../../../../../bus/usb/drivers/pl2303

        P: /devices/pci0000:00/0000:00:14.0/usb1/1-2
        N: bus/usb/001/003
        E: DEVNAME=/dev/bus/usb/001/003
        E: DEVTYPE=usb_device
        E: DRIVER=usb
        E: PRODUCT=67b/2303/400
        E: SUBSYSTEM=usb
        A: busnum=1\\n
        A: devnum=3\\n
        A: idProduct=2303\\n
        A: idVendor=067b\\n
        A: manufacturer=Prolific Technology Inc.\\n
        A: product=USB-Serial Controller D\\n
        L: driver=../../../../../bus/usb/drivers/usb

        """

    /// An umockdev script: a 10 Hz receiver for `seconds`.
    static func nmeaScript(seconds: Int) -> String {
        var script = ""
        for tenth in 0..<(seconds * 10) {
            let line = (tenth % 2 == 0 ? sampleRMC(second: tenth / 10) : sampleGGA(second: tenth / 10))
                .replacingOccurrences(of: "\r\n", with: "^M^J")
            script += "r 100 \(line)\n"
        }
        return script
    }

    /// Checks that `text` is one JSON document, with Python's parser (for tests enabled by ``hasPython``).
    static func checkJSON(_ text: String) throws {
        let python = try #require(Tools.which("python3"))
        let directory = TemporaryDirectory("json")
        defer { directory.remove() }
        directory.write(text, to: "out.json")
        let check = [python, "-c", "import json,sys; json.load(open(sys.argv[1]))", directory.file("out.json")]
        #expect(try ChildProcess.run(check).status == 0, "not one JSON document: \(text)")
    }

    @Test(
        .enabled(if: DevicesCommandTests.hasUmockdev, DevicesCommandTests.needsUmockdev),
        .enabled(if: DevicesCommandTests.hasPython, DevicesCommandTests.needsPython))
    func listsAnEmulatedUblox7WithItsIDs() throws {
        let umockdev = try #require(Tools.which("umockdev-run"))
        let directory = TemporaryDirectory("umockdev-list")
        defer { directory.remove() }
        directory.write(Self.ublox7, to: "ublox7.umockdev")
        let process = try ChildProcess(
            [
                umockdev, "-d", directory.file("ublox7.umockdev"), "--", Self.nmea, "devices",
                "--json",
            ],
            environment: ["XDG_STATE_HOME": directory.file("state")])
        #expect(process.wait() == 0)
        let output = process.output
        #expect(
            output == """
                {"devices":[{"path":"/dev/ttyACM0","vendor_id":"1546","product_id":"01a7",\
                "manufacturer":"u-blox AG - www.u-blox.com","product":"u-blox 7 - GPS/GNSS Receiver",\
                "driver":"cdc_acm","gps":"yes","model":"u-blox 7"}]}

                """)
        try Self.checkJSON(output)
        // And as a table.
        let table = try ChildProcess([umockdev, "-d", directory.file("ublox7.umockdev"), "--", Self.nmea, "devices"])
        #expect(table.wait() == 0)
        #expect(
            table.output.hasPrefix(
                "PATH          GPS  USB ID     DRIVER   SERIAL  DESCRIPTION\n"
                    + "/dev/ttyACM0  yes  1546:01a7  cdc_acm  -       u-blox AG"))
    }

    @Test(
        .enabled(if: DevicesCommandTests.hasUmockdev, DevicesCommandTests.needsUmockdev),
        .enabled(if: DevicesCommandTests.hasPython, DevicesCommandTests.needsPython))
    func probeCallsTheUbloxAGPSAndLeavesASilentPL2303Possible() throws {
        let umockdev = try #require(Tools.which("umockdev-run"))
        let directory = TemporaryDirectory("umockdev-probe")
        defer { directory.remove() }
        directory.write(Self.ublox7, to: "ublox7.umockdev")
        directory.write(Self.pl2303, to: "pl2303.umockdev")
        directory.write(Self.nmeaScript(seconds: 6), to: "nmea.script")
        let started = MonotonicTime.now()
        let process = try ChildProcess(
            [
                umockdev, "-d", directory.file("ublox7.umockdev"), "-d", directory.file("pl2303.umockdev"),
                "-s", "/dev/ttyACM0=" + directory.file("nmea.script"), "--",
                Self.nmea, "devices", "--json", "--probe", "--probe-time", "2",
            ],
            environment: ["XDG_STATE_HOME": directory.file("state")])
        #expect(process.wait() == 0, "stderr: \(process.error)")
        let elapsed = started.elapsed
        let output = process.output
        try Self.checkJSON(output)
        // The u-blox: a GPS by its IDs, and it sent NMEA at the first rate tried.
        #expect(
            output.contains(
                """
                {"path":"/dev/ttyACM0","vendor_id":"1546","product_id":"01a7","manufacturer":"u-blox AG - www.u-blox.com",\
                "product":"u-blox 7 - GPS/GNSS Receiver","driver":"cdc_acm","gps":"yes","model":"u-blox 7",\
                "probe":{"result":"nmea","baud":9600,
                """))
        // The PL2303: described from udev properties, by-id link included; silent, so still only possible.
        #expect(
            output.contains(
                """
                {"path":"/dev/ttyUSB0",\
                "by_id":"/dev/serial/by-id/usb-Prolific_Technology_Inc._USB-Serial_Controller_D-if00-port0",\
                "vendor_id":"067b","product_id":"2303","manufacturer":"Prolific Technology Inc.",\
                "product":"USB-Serial Controller D","driver":"pl2303","gps":"possible","bridge":"Prolific PL2303",\
                "probe":{"result":"no_nmea","tried":[
                """))
        #expect(!output.contains("\"gps\":\"yes\",\"bridge\""))
        // Probes run side by side within the time allowed.
        #expect(elapsed < .seconds(5))
        // The rate found was remembered for `nmea record`.
        let remembered = directory.read("state/nmea/baud-rates") ?? ""
        #expect(remembered == "path:/dev/ttyACM0 9600\n")
    }

    @Test(.enabled(if: Tools.available("socat"), "socat is not installed (scripts/test installs it)"))
    func probesANamedPtyAndCallsItAGPSOnlyWithNMEA() throws {
        let directory = TemporaryDirectory("probe-pty")
        defer { directory.remove() }
        let socat = SocatPair(directory: directory.path)
        defer { socat.stop() }
        #expect(socat.start())
        // Silent first: named devices are probed whatever they are, and stay "no".
        let silent = try ChildProcess(
            [Self.nmea, "devices", "--probe", "--probe-time", "1", "--json", socat.deviceSide],
            environment: ["XDG_STATE_HOME": directory.file("state")])
        #expect(silent.wait() == 0)
        #expect(silent.output.contains("\"gps\":\"no\",\"probe\":{\"result\":\"no_nmea\""))
        // Then talking.
        let feeder = NMEAFeeder(path: socat.receiverSide, interval: .milliseconds(50))
        feeder.start()
        defer { feeder.stop() }
        let talking = try ChildProcess(
            [Self.nmea, "devices", "--probe", socat.deviceSide],
            environment: ["XDG_STATE_HOME": directory.file("state")])
        #expect(talking.wait() == 0)
        let lines = talking.output.split(separator: "\n")
        let header =
            "PATH" + String(repeating: " ", count: socat.deviceSide.count - 2)
            + "GPS  USB ID  DRIVER  SERIAL  PROBE         DESCRIPTION"
        #expect(lines.first.map(String.init) == header)
        #expect(lines.count == 2 && lines[1].contains("  yes  ") && lines[1].contains("NMEA at 9600"))
    }

    @Test func missingNamedDeviceExitsOneWithAClearMessage() throws {
        let directory = TemporaryDirectory("missing")
        defer { directory.remove() }
        let process = try ChildProcess([Self.nmea, "devices", "/dev/ttyNoSuchGPS3"])
        #expect(process.wait() == 1)
        #expect(process.output == "")
        #expect(
            process.error == "Error: cannot open '/dev/ttyNoSuchGPS3': no such device. Is the receiver "
                + "plugged in? 'nmea devices' lists the serial devices it can see.\n")
        let usage = try ChildProcess([Self.nmea, "devices", "--probe-time", "x"])
        #expect(usage.wait() == 64)
        #expect(usage.error.hasPrefix("Error: The value 'x' is invalid for '--probe-time <seconds>'"))
    }

    @Test(.enabled(if: DevicesCommandTests.canSwitchUser, "needs root and setpriv to run as an unprivileged user"))
    func permissionDeniedNamesTheGroupAndTheFix() throws {
        let setpriv = try #require(Tools.which("setpriv"))
        let directory = TemporaryDirectory("denied")
        defer { directory.remove() }
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        chmod(pty.slavePath, 0o660)
        let process = try ChildProcess(
            [
                setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--",
                Self.nmea, "devices", "--probe", pty.slavePath,
            ],
            environment: ["XDG_STATE_HOME": directory.file("state")])
        #expect(process.wait() == 1)
        let group =
            (try? FileStatus(path: pty.slavePath)).flatMap { getgrgid($0.groupID) }
            .map { String(cString: $0.pointee.gr_name) } ?? "tty"
        #expect(
            process.error.contains(
                "Error: cannot open '\(pty.slavePath)': permission denied. Serial "
                    + "devices belong to the '\(group)' group; add yourself with "
                    + "'sudo usermod -aG \(group) $USER', then log out and back in."))
    }

    @Test(
        .enabled(if: DevicesCommandTests.canSwitchUser, "needs root and setpriv (root itself may open exclusive ports)")
    )
    func busyPortIsReportedAsInUse() throws {
        let setpriv = try #require(Tools.which("setpriv"))
        let directory = TemporaryDirectory("busy")
        defer { directory.remove() }
        let pty = try PseudoTerminal.open()
        defer { pty.close() }
        chmod(pty.slavePath, 0o666)
        let holder = try SerialPort(path: pty.slavePath)  // TIOCEXCL
        defer { holder.close() }
        let process = try ChildProcess(
            [
                setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--",
                Self.nmea, "devices", "--probe", pty.slavePath,
            ],
            environment: ["XDG_STATE_HOME": directory.file("state")])
        #expect(process.wait() == 1)
        // An unprivileged user cannot look into root's /proc/PID/fd, so the holder goes unnamed here.
        #expect(process.error.contains("Error: cannot open '\(pty.slavePath)': it is in use by "))
        #expect(process.error.contains("or choose another device."))
    }
}
