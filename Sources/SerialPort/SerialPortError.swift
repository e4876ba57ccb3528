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
    /// For ``Kind/busy``: the processes found holding the device.
    public var holders: [DeviceHolder] = []
    /// For ``Kind/permissionDenied``: the group that owns the device node (usually `dialout`).
    public var deviceGroup: String?

    public init(kind: Kind, path: String, operation: String, errno: Errno? = nil, holders: [DeviceHolder] = [],
                deviceGroup: String? = nil) {
        self.kind = kind
        self.path = path
        self.operation = operation
        self.errno = errno
        self.holders = holders
        self.deviceGroup = deviceGroup
    }

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
        if kind == .permissionDenied { deviceGroup = groupName(ofFileAt: path) }
    }

    public var description: String {
        let reason = errno.map { String(describing: $0).lowercased() } ?? "failed"
        switch kind {
        case .notFound:
            return "cannot open '\(path)': no such device. Is the receiver plugged in? "
                + "'nmea devices' lists the serial devices it can see."
        case .permissionDenied:
            let group = deviceGroup ?? "dialout"
            return "cannot open '\(path)': permission denied. Serial devices belong to the '\(group)' group; "
                + "add yourself with 'sudo usermod -aG \(group) $USER', then log out and back in."
        case .busy:
            if holders.isEmpty {
                return "cannot open '\(path)': it is in use by another program (device busy). "
                    + "Close the program that has it open (gpsd, ModemManager, a terminal program), "
                    + "or choose another device."
            }
            let names = holders.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", ")
            var text = "cannot open '\(path)': it is in use by \(names). Stop "
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


/// A small text file's contents (sysfs attributes, /proc entries), or `nil`.
func readSmallFile(_ path: String, limit: Int = 4096) -> String? {
    guard let fd = try? FileDescriptor.open(path, .readOnly) else { return nil }
    defer { try? fd.close() }
    var bytes = [UInt8](repeating: 0, count: limit)
    let count = bytes.withUnsafeMutableBytes { (try? fd.read(into: $0)) ?? -1 }
    guard count >= 0 else { return nil }
    return String(decoding: bytes[..<count], as: UTF8.self)
}

/// The name of the group owning the file at `path`.
func groupName(ofFileAt path: String) -> String? {
    guard let info = try? FileStatus(path: path), let group = getgrgid(info.groupID) else { return nil }
    return String(cString: group.pointee.gr_name)
}

extension String {
    /// Without one trailing newline.
    var trimmingNewline: String {
        var text = self
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
