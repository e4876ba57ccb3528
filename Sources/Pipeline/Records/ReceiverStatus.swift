/// The state of the receiver's connection, as the reader thread saw it change: small codes and short inline text,
/// no `String`, so it travels through the ring as a record.
///
///     .searching(device: "auto")
///     .connecting(device: "/dev/ttyACM0", baudRate: 9600)       // opened, trying a rate
///     .connected(device: "/dev/ttyACM0", baudRate: 9600)
///     .disconnected(device: "/dev/ttyACM0", reason: .hangUp)
///     .ended()                                                  // the source has no more bytes, ever
@frozen
public struct ReceiverStatus: Sendable, Hashable, BitwiseCopyable {
    /// Where the connection stands.
    @frozen
    public enum State: UInt8, Sendable, Hashable, BitwiseCopyable, CustomStringConvertible {
        /// Waiting for a device to appear or come back.
        case searching
        /// A device is open; its rate is being tried (autobaud) or no valid sentence has arrived yet.
        case connecting
        /// Reading from a device (or a file, or a stream).
        case connected
        /// The device went away or could not be used; see ``ReceiverStatus/reason``.
        case disconnected
        /// The source ended (end of a file, or the pipeline was stopped): no more records will follow.
        case ended

        public var description: String {
            switch self {
            case .searching: "searching"
            case .connecting: "connecting"
            case .connected: "connected"
            case .disconnected: "disconnected"
            case .ended: "ended"
            }
        }
    }

    /// Why a connection ended.
    @frozen
    public enum Reason: UInt8, Sendable, Hashable, BitwiseCopyable, CustomStringConvertible {
        case none
        /// `read` returned 0 (end of a file; a pty whose other end closed).
        case endOfFile
        /// `poll` reported `POLLHUP`/`POLLERR`.
        case hangUp
        /// A read failed; ``ReceiverStatus/errorNumber`` says how (EIO, ENXIO, ENODEV…).
        case readError
        /// The device node disappeared (unplugged).
        case removed
        /// The device could not be opened or used (permission, busy, no NMEA at any rate); see ``detail``.
        case unavailable
        /// The pipeline was asked to stop.
        case stopped
        /// The device could not be used and the connection gave up (a named device missing, no permission, held
        /// by another logger…); see ``detail``. The command reports it as its error, once.
        case failed

        public var description: String {
            switch self {
            case .none: "none"
            case .endOfFile: "end of file"
            case .hangUp: "hang-up"
            case .readError: "read error"
            case .removed: "device removed"
            case .unavailable: "unavailable"
            case .stopped: "stopped"
            case .failed: "failed"
            }
        }
    }

    /// The longest device path kept (longer ones are cut and flagged ``InlineBytes/isTruncated``). Paths under
    /// `/dev/serial/by-id/` run to about 100 bytes.
    public static let deviceCapacity = 192
    /// The longest detail text kept: room for the longest advice a device error gives.
    public static let detailCapacity = 512

    public var state: State
    /// Why it disconnected or ended (``Reason/none`` otherwise).
    public var reason: Reason
    /// The line rate in baud; 0 when unknown or not a serial line.
    public var baudRate: UInt32
    /// The `errno` of a failed read or open; 0 otherwise.
    public var errorNumber: Int32
    /// The device path (or file name, or `-`), possibly empty.
    public var device: InlineBytes<192>
    /// Short human-readable text (an error message, "trying 38400 baud"), possibly empty.
    public var detail: InlineBytes<512>

    /// - Complexity: O(size of the record).
    public init(
        state: State, reason: Reason = .none, baudRate: UInt32 = 0, errorNumber: Int32 = 0,
        device: String = "", detail: String = ""
    ) {
        self.state = state
        self.reason = reason
        self.baudRate = baudRate
        self.errorNumber = errorNumber
        self.device = InlineBytes(device)
        self.detail = InlineBytes(detail)
    }

    /// Waiting for `device` (a path, a serial number, `auto`) to appear.
    public static func searching(device: String = "", detail: String = "") -> ReceiverStatus {
        ReceiverStatus(state: .searching, device: device, detail: detail)
    }

    /// `device` is open at `baudRate`, but no valid sentence has arrived yet.
    public static func connecting(device: String, baudRate: UInt32 = 0, detail: String = "") -> ReceiverStatus {
        ReceiverStatus(state: .connecting, baudRate: baudRate, device: device, detail: detail)
    }

    /// Reading from `device` at `baudRate` (0 for a file or a stream).
    public static func connected(device: String, baudRate: UInt32 = 0, detail: String = "") -> ReceiverStatus {
        ReceiverStatus(state: .connected, baudRate: baudRate, device: device, detail: detail)
    }

    /// `device` went away or cannot be used.
    public static func disconnected(
        device: String = "", reason: Reason, errorNumber: Int32 = 0,
        detail: String = ""
    ) -> ReceiverStatus {
        ReceiverStatus(state: .disconnected, reason: reason, errorNumber: errorNumber, device: device, detail: detail)
    }

    /// No more input: the source ended (``Reason/endOfFile``) or the pipeline was stopped (``Reason/stopped``).
    public static func ended(reason: Reason = .endOfFile, detail: String = "") -> ReceiverStatus {
        ReceiverStatus(state: .ended, reason: reason, detail: detail)
    }
}

extension ReceiverStatus: CustomStringConvertible {
    /// `connected /dev/ttyACM0 9600 baud`, `disconnected /dev/ttyACM0 (hang-up)`, `ended (end of file)`.
    public var description: String {
        var text = state.description
        if !device.isEmpty { text += " " + device.string }
        if baudRate != 0 { text += " \(baudRate) baud" }
        if reason != .none { text += " (\(reason)\(errorNumber != 0 ? ", errno \(errorNumber)" : ""))" }
        if !detail.isEmpty { text += ": " + detail.string }
        return text
    }
}
