import Glibc

/// Which receiver to use: a path, any GPS that shows up, or a USB serial number.
public enum DeviceSelector: Sendable, Hashable, CustomStringConvertible {
    /// Any GPS receiver: known receivers first, then USB-serial bridges that turn out to send NMEA. Waits for one
    /// to be plugged in.
    case auto
    /// A device node or a link to one (`/dev/ttyACM0`, `/dev/serial/by-id/usb-u-blox…-if00`, a pty link).
    case path(String)
    /// The USB device with this serial number string (wherever the kernel puts it).
    case serialNumber(String)

    /// Reads a command-line argument: `auto` (or nothing); anything with a `/` is a path; a name that exists
    /// under `/dev/serial/by-id/` or `/dev/` is that path (`ttyUSB0`); anything else is a USB serial number.
    public init(argument: String?) {
        guard let argument, !argument.isEmpty, argument != "auto" else {
            self = .auto
            return
        }
        if argument.contains("/") {
            self = .path(argument)
        } else if access("/dev/serial/by-id/" + argument, F_OK) == 0 {
            self = .path("/dev/serial/by-id/" + argument)
        } else if access("/dev/" + argument, F_OK) == 0 {
            self = .path("/dev/" + argument)
        } else {
            self = .serialNumber(argument)
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .path(let path): path
        case .serialNumber(let serial): "serial number \(serial)"
        }
    }
}
