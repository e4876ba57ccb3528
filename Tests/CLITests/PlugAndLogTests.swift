import Foundation
import Glibc
import TestSupport
import Testing

/// The plug-and-log files: the udev rule, the systemd units and scripts/install.
@Suite struct PlugAndLogTests {
    static let contrib = ToolSupport.repository.appendingPathComponent("contrib")
    static let rulePath = contrib.appendingPathComponent("udev/80-nmea-gps.rules").path
    static let recordUnit = contrib.appendingPathComponent("systemd/nmea-record@.service").path
    static let serveUnit = contrib.appendingPathComponent("systemd/nmea-serve.service").path
    static let collectUnit = contrib.appendingPathComponent("systemd/nmea-collect.service").path
    static let installScript = ToolSupport.repository.appendingPathComponent("scripts/install").path

    /// USB IDs of the receivers the rule claims: u-blox 5–9, Garmin USB, MediaTek/GlobalTop.
    static let knownReceivers: Set<String> = [
        "1546:01a5", "1546:01a6", "1546:01a7", "1546:01a8", "1546:01a9", "091e:0003", "0e8d:3329",
    ]
    /// USB-serial bridges that carry GPS pucks and much else: never claimed.
    static let bridges = ["067b", "10c4", "0403", "1a86"]

    // MARK: - udev

    /// The rule's keys, parsed: `KEY{attr}=="value"` or `KEY+="value"`, per line.
    static func ruleLines() throws -> [[(key: String, operation: String, value: String)]] {
        let text = try String(contentsOfFile: rulePath, encoding: .utf8)
        return text.split(separator: "\n").filter {
            !$0.hasPrefix("#")
                && !$0.trimmingCharacters(in: .whitespaces)
                    .isEmpty
        }.map { line in
            var pairs: [(String, String, String)] = []
            for part in line.components(separatedBy: "\", ") {
                let item = part.trimmingCharacters(in: .whitespaces)
                guard let operation = ["==", "!=", "+=", ":=", "="].first(where: { item.contains($0) }) else {
                    Issue.record("no operator in '\(item)'")
                    continue
                }
                let halves = item.components(separatedBy: operation)
                let value = halves.dropFirst().joined(separator: operation).trimmingCharacters(in: ["\""])
                pairs.append((halves[0], operation, value))
            }
            return pairs
        }
    }

    @Test func ruleClaimsExactlyTheKnownReceivers() throws {
        var claimed: Set<String> = []
        for line in try Self.ruleLines() {
            func value(_ key: String, _ operation: String = "==") -> String? {
                line.first { $0.key == key && $0.operation == operation }?.value
            }
            guard let vendor = value("ATTRS{idVendor}") else {
                // Only the guards that skip everything but added ttys, and the label.
                #expect(line.contains { $0.key == "GOTO" || $0.key == "LABEL" }, "\(line)")
                continue
            }
            let product = try #require(value("ATTRS{idProduct}"))
            claimed.insert("\(vendor):\(product)")
            #expect(value("SUBSYSTEM") == "tty")
            #expect(value("TAG", "+=") == "systemd")
            // A group may open it: the advice `nmea record` gives for a device only its owner may open.
            #expect(value("GROUP", "=") == "dialout")
            #expect(value("MODE", "=") == "0660")
            #expect(value("ENV{SYSTEMD_WANTS}", "+=") == "nmea-record@%k.service")
            #expect(!Self.bridges.contains(vendor))
        }
        #expect(claimed == Self.knownReceivers)
    }

    /// Runs `udevadm test` for the tty of the emulated device `description` (umockdev), with only our rule, in a
    /// private mount namespace: /run, the rules directories and /dev are replaced there, so nothing on the host
    /// changes (udevadm test writes its database and /dev/char links).
    static func udevadmTest(_ description: String, device: String) throws -> String {
        let directory = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = directory.appendingPathComponent("rules")
        let empty = directory.appendingPathComponent("empty")
        let dev = directory.appendingPathComponent("dev")
        for url in [rules, empty, dev, dev.appendingPathComponent("pts")] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(
            atPath: rulePath, toPath: rules.appendingPathComponent("80-nmea-gps.rules").path)
        for node in ["null", "zero", "urandom", "random"] {
            _ = FileManager.default.createFile(atPath: dev.appendingPathComponent(node).path, contents: nil)
        }
        try FileManager.default.createSymbolicLink(
            atPath: dev.appendingPathComponent("ptmx").path,
            withDestinationPath: "pts/ptmx")
        let umockdev = directory.appendingPathComponent("device.umockdev").path
        try Data(description.utf8).write(to: URL(fileURLWithPath: umockdev))
        let sandbox = """
            set -e
            mount -n -t tmpfs tmpfs /run
            mount -n --bind '\(rules.path)' /etc/udev/rules.d
            for directory in /lib/udev/rules.d /usr/lib/udev/rules.d; do
                [ -d "$directory" ] && mount -n --bind '\(empty.path)' "$directory"
            done
            for node in null zero urandom random; do mount -n --bind /dev/$node '\(dev.path)'/$node; done
            mount -n --bind /dev/pts '\(dev.path)/pts'
            mount -n --rbind '\(dev.path)' /dev
            exec umockdev-run -d '\(umockdev)' -- udevadm test --action=add /sys/class/tty/\(device)
            """
        let outcome = try ToolSupport.run("unshare", ["--mount", "--propagation", "private", "sh", "-c", sandbox])
        #expect(outcome.status == 0, "\(outcome.error)")
        return outcome.text + outcome.error
    }

    static let canSandboxUdev: Bool = {
        guard getuid() == 0, Tools.which("udevadm") != nil, Tools.which("umockdev-run") != nil,
            Tools.which("unshare") != nil,
            let probe = try? ToolSupport.run("unshare", ["--mount", "true"]), probe.status == 0
        else { return false }
        return true
    }()

    static func usbDevice(tty: String, driver: String, vendor: String, product: String, name: String) -> String {
        """
        P: /devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/tty/\(tty)
        N: \(tty)
        E: DEVNAME=/dev/\(tty)
        E: MAJOR=166
        E: MINOR=0
        E: SUBSYSTEM=tty
        A: dev=166:0\\n

        P: /devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0
        E: DEVTYPE=usb_interface
        E: DRIVER=\(driver)
        E: SUBSYSTEM=usb
        A: bInterfaceNumber=00\\n

        P: /devices/pci0000:00/0000:00:14.0/usb1/1-1
        N: bus/usb/001/002
        E: DEVNAME=/dev/bus/usb/001/002
        E: DEVTYPE=usb_device
        E: DRIVER=usb
        E: SUBSYSTEM=usb
        A: idProduct=\(product)\\n
        A: idVendor=\(vendor)\\n
        A: product=\(name)\\n

        """
    }

    @Test(.enabled(if: canSandboxUdev, "needs root, udevadm, umockdev-run and unshare"))
    func udevadmStartsTheRecorderForAReceiverOnly() throws {
        let devBefore = try FileManager.default.contentsOfDirectory(atPath: "/dev").sorted()
        let ublox = try Self.udevadmTest(
            Self.usbDevice(
                tty: "ttyACM0", driver: "cdc_acm", vendor: "1546", product: "01a7",
                name: "u-blox 7 - GPS/GNSS Receiver"), device: "ttyACM0")
        #expect(ublox.contains("Reading rules file: /etc/udev/rules.d/80-nmea-gps.rules"))
        #expect(ublox.contains("\nSYSTEMD_WANTS=nmea-record@ttyACM0.service\n"), "\(ublox)")
        #expect(ublox.contains("\nTAGS=:systemd:\n"))
        #expect(ublox.contains("\nID_NMEA_GPS=1\n"))
        #expect(!ublox.lowercased().contains("invalid"))

        let pl2303 = try Self.udevadmTest(
            Self.usbDevice(
                tty: "ttyUSB0", driver: "pl2303", vendor: "067b", product: "2303",
                name: "USB-Serial Controller"), device: "ttyUSB0")
        #expect(pl2303.contains("Reading rules file: /etc/udev/rules.d/80-nmea-gps.rules"))
        #expect(!pl2303.contains("SYSTEMD_WANTS"))
        #expect(!pl2303.contains("ID_NMEA_GPS"))
        // The sandbox kept udevadm's writes away from the host.
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").sorted() == devBefore)
    }

    // MARK: - systemd

    static func execStart(_ unit: String) throws -> String {
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        return String(line.dropFirst("ExecStart=".count))
    }

    @Test func unitsRunTheDocumentedCommands() throws {
        let record = try Self.execStart(Self.recordUnit)
        #expect(
            record == "/usr/local/bin/nmea record /dev/%I -o /var/lib/nmea/%%Y-%%m-%%d-%i.gpx "
                + "--raw /var/lib/nmea/%%Y-%%m-%%d-%i.nmea --rotate daily")
        // Every % is a systemd specifier we mean (%i, %I) or an escaped %% for nmea record's date pattern.
        var rest = Substring(record)
        while let percent = rest.firstIndex(of: "%") {
            let next = rest.index(after: percent)
            #expect(next < rest.endIndex && "iI%".contains(rest[next]), "\(record)")
            rest = rest[rest.index(after: next)...]
        }
        let text = try String(contentsOfFile: Self.recordUnit, encoding: .utf8)
        #expect(text.contains("\nBindsTo=dev-%i.device\n"))
        #expect(text.contains("\nStateDirectory=nmea\n"))
        #expect(text.contains("\nSupplementaryGroups=dialout\n"))
        #expect(try Self.execStart(Self.serveUnit) == "/usr/local/bin/nmea serve auto --listen 127.0.0.1:2947")
        // The collector reads both passwords from its credentials, never from its command line.
        let collect = try Self.execStart(Self.collectUnit)
        #expect(
            collect == "/usr/local/bin/nmea collect mqtt://collector@localhost --mqtt-password-file "
                + "%d/mqtt-password --db postgresql://fleet@localhost/fleet --share collectors")
        let collectText = try String(contentsOfFile: Self.collectUnit, encoding: .utf8)
        #expect(collectText.contains("\nLoadCredential=mqtt-password:/etc/nmea/mqtt-password\n"))
        #expect(collectText.contains("\nLoadCredential=pgpass:/etc/nmea/pgpass\n"))
        #expect(collectText.contains("\nEnvironment=PGPASSFILE=%d/pgpass\n"))
    }

    @Test(.enabled(if: Tools.which("systemd-analyze") != nil, "systemd-analyze is not installed"))
    func unitsVerify() throws {
        // Install into a staging root, then verify the installed units against the built binary (systemd checks
        // that the command exists) with the installed man page on MANPATH (it checks Documentation=man:nmea(1)).
        let root = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let install = try ToolSupport.run(Self.installScript, ["--root", root.path, "--binary", ToolSupport.nmea])
        #expect(install.status == 0, "\(install.error)")
        let verify = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: verify) }
        let units = root.appendingPathComponent("etc/systemd/system")
        for (name, instance) in [
            ("nmea-record@.service", "nmea-record@ttyACM0.service"),
            ("nmea-serve.service", "nmea-serve.service"), ("nmea-collect.service", "nmea-collect.service"),
        ] {
            let text = try String(contentsOf: units.appendingPathComponent(name), encoding: .utf8)
                .replacingOccurrences(of: "/usr/local/bin/nmea", with: ToolSupport.nmea)
            try Data(text.utf8).write(to: verify.appendingPathComponent(instance))
        }
        let outcome = try ToolSupport.run(
            "systemd-analyze",
            [
                "verify", verify.appendingPathComponent("nmea-record@ttyACM0.service").path,
                verify.appendingPathComponent("nmea-serve.service").path,
                verify.appendingPathComponent("nmea-collect.service").path,
            ],
            environment: ["MANPATH": root.appendingPathComponent("usr/local/share/man").path])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.error == "", "systemd-analyze: \(outcome.error)")
    }

    // MARK: - scripts/install

    static let installedFiles = [
        "usr/local/bin/nmea", "usr/local/share/man/man1/nmea.1", "usr/local/share/bash-completion/completions/nmea",
        "usr/local/share/zsh/site-functions/_nmea", "etc/udev/rules.d/80-nmea-gps.rules",
        "etc/systemd/system/nmea-record@.service", "etc/systemd/system/nmea-serve.service",
        "etc/systemd/system/nmea-collect.service", "etc/sysusers.d/nmea.conf",
    ]

    @Test func installPutsEveryFileInPlace() throws {
        let root = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let outcome = try ToolSupport.run(Self.installScript, ["--root", root.path, "--binary", ToolSupport.nmea])
        #expect(outcome.status == 0, "\(outcome.error)")
        for file in Self.installedFiles {
            let path = root.appendingPathComponent(file).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? Int) ?? 0
            #expect(mode == (file.hasSuffix("bin/nmea") ? 0o755 : 0o644), "\(file): \(String(mode, radix: 8))")
        }
        // The generated files come from the installed binary and match it.
        let bash = try String(contentsOf: root.appendingPathComponent(Self.installedFiles[2]), encoding: .utf8)
        #expect(bash == (try ToolSupport.nmea(["completion", "bash"])).text)
        let page = try String(contentsOf: root.appendingPathComponent(Self.installedFiles[1]), encoding: .utf8)
        #expect(page == (try ToolSupport.nmea(["help", "--man"])).text)
        // No reload or user creation for a staging root.
        #expect(!outcome.text.contains("systemctl") && !outcome.text.contains("systemd-sysusers"))
    }

    @Test func installWithAPrefixPointsTheUnitsAtIt() throws {
        let root = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let outcome = try ToolSupport.run(
            Self.installScript,
            [
                "--root", root.path, "--prefix", "/opt/nmea",
                "--binary", ToolSupport.nmea,
            ])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(FileManager.default.isExecutableFile(atPath: root.appendingPathComponent("opt/nmea/bin/nmea").path))
        let unit = root.appendingPathComponent("etc/systemd/system/nmea-record@.service").path
        #expect(try Self.execStart(unit).hasPrefix("/opt/nmea/bin/nmea record /dev/%I "))
        let serve = root.appendingPathComponent("etc/systemd/system/nmea-serve.service").path
        #expect(try Self.execStart(serve).hasPrefix("/opt/nmea/bin/nmea serve "))
    }

    @Test func dryRunChangesNothing() throws {
        let base = ToolSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("root")
        let outcome = try ToolSupport.run(
            Self.installScript,
            [
                "--dry-run", "--root", root.path,
                "--binary", ToolSupport.nmea,
            ])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(!FileManager.default.fileExists(atPath: root.path))
        for file in Self.installedFiles {
            #expect(outcome.text.contains(root.appendingPathComponent(file).path), "\(file)")
        }
        #expect(outcome.text.split(separator: "\n").allSatisfy { $0.hasPrefix("+ ") })
    }

    @Test func installRejectsBadArguments() throws {
        let unknown = try ToolSupport.run(Self.installScript, ["--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.error.hasPrefix("Error: Unknown option '--frobnicate'\n"))
        let relative = try ToolSupport.run(Self.installScript, ["--prefix", "usr/local", "--dry-run"])
        #expect(relative.status == 64)
        let help = try ToolSupport.run(Self.installScript, ["--help"])
        #expect(help.status == 0)
        #expect(help.text.hasPrefix("Usage: scripts/install"))
    }
}
