import Glibc
import System

/// Why a serial port could not be opened, configured or read, with a message that says what to do.
///
/// It carries the `Errno` behind it, so `catch Errno.permissionDenied` matches it too.
public struct SerialPortError: Error, ErrnoCarrying, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, in terms a caller can act on.
    public enum Kind: Sendable, Hashable {
        /// The device does not exist (ENOENT, ENODEV, ENXIO on open).
        case notFound
        /// The user may not open it (EACCES, EPERM).
        case permissionDenied
        /// Another process holds it exclusively (EBUSY).
        case busy
        /// The path is not a terminal (ENOTTY, or a directory).
        case notATerminal
        /// The driver refused the rate or mode.
        case unsupportedSettings
        /// The device went away while in use (EOF, EIO, ENXIO, POLLHUP/POLLERR).
        case disconnected
        /// Autobaud tried every rate and saw no checksum-valid NMEA.
        case noNMEA
        /// Anything else.
        case other
    }

    public var kind: Kind
    /// The device path as given.
    public var path: String
    /// What was being done: `open`, `configure`, `read`.
    public var operation: String
    /// The system error behind it, if any.
    public var errno: Errno?
    /// For ``Kind/busy``: the processes found holding the device (its lock, when ``operation`` is `lock`).
    public var holders: [DeviceHolder] = []
    /// For ``Kind/permissionDenied``: who the device node lets in.
    public var access: DeviceAccess?

    public init(
        kind: Kind, path: String, operation: String, errno: Errno? = nil, holders: [DeviceHolder] = [],
        access: DeviceAccess? = nil
    ) {
        self.kind = kind
        self.path = path
        self.operation = operation
        self.errno = errno
        self.holders = holders
        self.access = access
    }

    /// A permission error for a device whose group, `deviceGroup`, may open it.
    public init(kind: Kind, path: String, operation: String, errno: Errno? = nil, deviceGroup: String) {
        self.init(
            kind: kind, path: path, operation: operation, errno: errno,
            access: DeviceAccess(ownerID: 0, groupID: 0, owner: nil, group: deviceGroup, permissions: 0o660))
    }

    /// For ``Kind/permissionDenied``: the group that owns the device node, when known.
    public var deviceGroup: String? { access?.group }

    /// Classifies a failure of `operation` on `path`.
    init(_ errno: Errno, path: String, operation: String) {
        let kind: Kind
        switch errno {
        case .noSuchFileOrDirectory, .noSuchDevice, .notDirectory: kind = .notFound
        case .noSuchDeviceOrAddress: kind = operation == "open" ? .notFound : .disconnected
        case .permissionDenied, .notPermitted: kind = .permissionDenied
        case .resourceBusy: kind = .busy
        case .notATerminal, .isDirectory: kind = .notATerminal
        case .ioError: kind = operation == "open" || operation == "configure" ? .other : .disconnected
        default: kind = .other
        }
        self.init(kind: kind, path: path, operation: operation, errno: errno)
        if kind == .busy { holders = DeviceHolder.find(path: path) }
        if kind == .permissionDenied { access = DeviceAccess(path: path) }
    }

    public var description: String {
        let reason = errno.map { String(describing: $0).lowercased() } ?? "failed"
        switch kind {
        case .notFound:
            return "cannot open '\(path)': no such device. Is the receiver plugged in? "
                + "'nmea devices' lists the serial devices it can see."
        case .permissionDenied:
            let denied = "cannot open '\(path)': permission denied. "
            if let access, !access.groupCanOpen {
                let owner = " (\(access.owner ?? "uid \(access.ownerID)"), \(access.modeText))"
                return denied + "Only its owner\(owner) may open it, so no group you could join would help. "
                    + "A udev rule that gives it a group does, as contrib/udev/80-nmea-gps.rules does for known "
                    + "receivers (GROUP=\"dialout\", MODE=\"0660\"; scripts/install installs it); "
                    + "then add yourself to that group."
            }
            let group = access.map { $0.group ?? "gid \($0.groupID)" } ?? "dialout"
            return denied + "Serial devices belong to the '\(group)' group; "
                + "add yourself with 'sudo usermod -aG \(group) $USER', then log out and back in."
        case .busy:
            if operation == "lock" {
                let names = holders.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
                return "cannot open '\(path)': another logger has it locked"
                    + (holders.isEmpty ? "" : ": \(names)") + ". Two loggers would split its bytes between them; "
                    + "stop " + (holders.count == 1 ? "it" : "the other one") + " or choose another device."
            }
            if holders.isEmpty {
                return "cannot open '\(path)': it is in use by another program (device busy). "
                    + "Close the program that has it open (gpsd, ModemManager, a terminal program), "
                    + "or choose another device."
            }
            let names = holders.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
            var text =
                "cannot open '\(path)': it is in use by \(names). Stop "
                + (holders.count == 1 ? "it" : "them") + " or choose another device."
            if holders.contains(where: { $0.name == "gpsd" }) {
                text += " For gpsd: 'sudo systemctl stop gpsd.socket gpsd'."
            }
            return text
        case .notATerminal:
            if errno == .isDirectory { return "'\(path)' is a directory, not a serial device." }
            return "'\(path)' is not a serial device (not a terminal)."
        case .unsupportedSettings:
            return "cannot \(operation) '\(path)': the driver refused the settings (\(reason))."
        case .disconnected:
            return "'\(path)' went away (\(errno == nil ? "hang-up" : reason)); was it unplugged?"
        case .noNMEA:
            let rates = BaudRate.autobaudOrder.map(\.description).joined(separator: ", ")
            return "no NMEA from '\(path)' at any rate (\(rates)). Is it a GPS receiver? "
                + "Does it send binary only (UBX, SiRF)?"
        case .other:
            return "cannot \(operation) '\(path)': \(reason)."
        }
    }
}

/// Who may open a device node: its owner, its group and their permission bits.
public struct DeviceAccess: Sendable, Hashable {
    public var ownerID: UInt32
    public var groupID: UInt32
    /// The user and group names (`nil` when the IDs have none).
    public var owner: String?
    public var group: String?
    /// The permission bits (`0o600` for `crw-------`).
    public var permissions: UInt32

    public init(ownerID: UInt32, groupID: UInt32, owner: String?, group: String?, permissions: UInt32) {
        self.ownerID = ownerID
        self.groupID = groupID
        self.owner = owner
        self.group = group
        self.permissions = permissions
    }

    /// The node at `path`, or `nil` when it cannot be looked at.
    public init?(path: String) {
        guard let info = try? FileStatus(path: path) else { return nil }
        self.init(
            ownerID: info.ownerID, groupID: info.groupID, owner: userName(info.ownerID),
            group: groupName(info.groupID), permissions: info.permissions)
    }

    /// `true` when members of the group may open it for reading and writing (as a port is opened): only then does
    /// joining the group help.
    public var groupCanOpen: Bool { permissions & 0o060 == 0o060 }

    /// The permissions as `ls -l` writes them for a character device: `crw-------`.
    public var modeText: String {
        let letters = Array("rwxrwxrwx")
        return "c" + String((0..<9).map { permissions & (0o400 >> UInt32($0)) != 0 ? letters[$0] : "-" })
    }
}

/// A process that has a device open.
public struct DeviceHolder: Sendable, Hashable {
    public var pid: Int32
    /// Its command name (`/proc/PID/comm`).
    public var name: String

    public init(pid: Int32, name: String) {
        self.pid = pid
        self.name = name
    }

    /// The processes with `path` open, found through `/proc/*/fd` (only those this user may look into).
    public static func find(path: String, excludingSelf: Bool = true) -> [DeviceHolder] {
        guard let target = try? FileStatus(path: path), target.kind == .characterDevice else { return [] }
        let own = getpid()
        var holders: [DeviceHolder] = []
        for pid in Directory.entries("/proc").compactMap({ Int32($0) }) where !(excludingSelf && pid == own) {
            let fdDirectory = "/proc/\(pid)/fd"
            for entry in Directory.entries(fdDirectory) {
                guard let info = try? FileStatus(path: "\(fdDirectory)/\(entry)"), info.kind == .characterDevice,
                    info.deviceNumber == target.deviceNumber
                else { continue }
                let name = readSmallFile("/proc/\(pid)/comm")?.trimmingNewline ?? "pid \(pid)"
                holders.append(DeviceHolder(pid: pid, name: name))
                break
            }
        }
        return holders
    }
}

extension DeviceHolder {
    /// The processes holding a `flock` on `path` (`/proc/locks`, which anyone may read: unlike `/proc/PID/fd`, it
    /// names other users' processes too).
    public static func lockHolders(path: String) -> [DeviceHolder] {
        guard let target = try? FileStatus(path: path), let text = readProcFile("/proc/locks") else { return [] }
        let device = target.fileSystemDevice
        // `major:minor:inode`, the numbers in hexadecimal, hexadecimal, decimal (`fs/locks.c`).
        let major = (device >> 8) & 0xfff | (device >> 32) & ~0xfff
        let minor = device & 0xff | (device >> 12) & ~0xff
        let file = String(major, radix: 16) + ":" + String(minor, radix: 16) + ":" + String(target.inode)
        var holders: [DeviceHolder] = []
        for line in text.split(separator: "\n") {
            // `1: FLOCK  ADVISORY  WRITE 2981 00:19:5 0 EOF`; waiters are marked `->` and are not holders.
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]) else { continue }
            let parts = fields[5].split(separator: ":")
            guard parts.count == 3, let fileMajor = UInt(parts[0], radix: 16), let fileMinor = UInt(parts[1], radix: 16)
            else { continue }
            let name = "\(String(fileMajor, radix: 16)):\(String(fileMinor, radix: 16)):\(parts[2])"
            guard name == file, !holders.contains(where: { $0.pid == pid }) else { continue }
            let command = readSmallFile("/proc/\(pid)/comm")?.trimmingNewline ?? "pid \(pid)"
            holders.append(DeviceHolder(pid: pid, name: command))
        }
        return holders
    }
}

/// A small text file's contents (sysfs attributes, /proc entries), or `nil`.
func readSmallFile(_ path: String, limit: Int = 4096) -> String? {
    guard let fd = try? FileDescriptor.open(path, .readOnly) else { return nil }
    defer { try? fd.close() }
    var bytes = [UInt8](repeating: 0, count: limit)
    let count = bytes.withUnsafeMutableBytes { (try? fd.read(into: $0)) ?? -1 }
    guard count >= 0 else { return nil }
    return String(decoding: bytes[..<count], as: UTF8.self)
}

/// A `/proc` file's whole text (read until its end: such files come a page at a time), or `nil`.
func readProcFile(_ path: String, limit: Int = 1 << 20) -> String? {
    guard let fd = try? FileDescriptor.open(path, .readOnly) else { return nil }
    defer { try? fd.close() }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while bytes.count < limit {
        guard let count = chunk.withUnsafeMutableBytes({ try? fd.read(into: $0) }) else { return nil }
        if count == 0 { break }
        bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The name of the group `id`, or `nil`.
func groupName(_ id: UInt32) -> String? {
    guard let group = getgrgid(id) else { return nil }
    return String(cString: group.pointee.gr_name)
}

/// The name of the user `id`, or `nil`.
func userName(_ id: UInt32) -> String? {
    guard let user = getpwuid(id) else { return nil }
    return String(cString: user.pointee.pw_name)
}

extension String {
    /// Without one trailing newline.
    var trimmingNewline: String {
        var text = self
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
