import NMEA
import Pipeline

/// Where a receiver stands, as a user interface shows it: the connection, the kind of fix, the satellites.
///
///     connected /dev/ttyACM0 at 9600 baud · 3D fix · 9/14 satellites
///
/// A ``PositionPublisher`` sends one on its ``PositionPublisher/status`` stream whenever any part changes.
public struct PublisherStatus: Sendable, Hashable, CustomStringConvertible {
    /// The receiver's connection.
    public enum Connection: Sendable, Hashable, CustomStringConvertible {
        /// Waiting for a device to appear (a path, a serial number, `auto`), or for the source to start.
        case searching(device: String)
        /// A device is open; its rate is being found, or no sentence has arrived yet.
        case connecting(device: String, baudRate: Int)
        /// Reading: a serial device at `baudRate`, or a file or stream (`baudRate` 0).
        case connected(device: String, baudRate: Int)
        /// The device went away (unplugged, hung up, unreadable); it may come back.
        case disconnected(device: String, reason: ReceiverStatus.Reason)
        /// The source ended (end of a file) or the publisher was stopped: nothing more will come.
        case ended(reason: ReceiverStatus.Reason)

        /// The device path (empty when unknown or ended).
        public var device: String {
            switch self {
            case .searching(let device), .connecting(let device, _), .connected(let device, _),
                .disconnected(let device, _):
                device
            case .ended: ""
            }
        }

        /// `true` while reading from a device or file.
        public var isConnected: Bool {
            if case .connected = self { return true }
            return false
        }

        public var description: String {
            switch self {
            case .searching(let device): device.isEmpty || device == "auto" ? "searching" : "waiting for \(device)"
            case .connecting(let device, let rate): "connecting to \(device)" + (rate > 0 ? " at \(rate) baud" : "")
            case .connected(let device, let rate): "connected to \(device)" + (rate > 0 ? " at \(rate) baud" : "")
            case .disconnected(let device, let reason): "disconnected from \(device) (\(reason))"
            case .ended(let reason): "ended (\(reason))"
            }
        }
    }

    /// The kind of fix: the dimension, or the correction that makes it better than a plain 3D fix.
    public enum FixKind: Sendable, Hashable, CustomStringConvertible {
        /// No position.
        case none
        /// Latitude and longitude.
        case twoD
        /// Latitude, longitude and altitude.
        case threeD
        /// Corrected by DGPS or SBAS.
        case dgps
        /// RTK with floating ambiguities (decimetres).
        case rtkFloat
        /// RTK with fixed ambiguities (centimetres).
        case rtkFixed
        /// Dead reckoning: estimated without satellites.
        case estimated

        /// The kind of `fix`: ``none`` without a position; otherwise its correction (DGPS, RTK, dead reckoning) or,
        /// for a plain fix, its dimension.
        public init(_ fix: Fix) {
            guard fix.hasPosition else {
                self = .none
                return
            }
            switch fix.quality {
            case .differential: self = .dgps
            case .rtkFloat: self = .rtkFloat
            case .rtkFixed: self = .rtkFixed
            case .deadReckoning: self = .estimated
            default: self = fix.mode == .threeD ? .threeD : .twoD
            }
        }

        public var description: String {
            switch self {
            case .none: "no fix"
            case .twoD: "2D fix"
            case .threeD: "3D fix"
            case .dgps: "DGPS fix"
            case .rtkFloat: "RTK float"
            case .rtkFixed: "RTK fixed"
            case .estimated: "dead reckoning"
            }
        }
    }

    public var connection: Connection
    public var fix: FixKind
    /// Satellites the solution used (the receiver's count, else those GSA listed).
    public var satellitesUsed: Int
    /// Satellites in view (from the last complete set of GSV sentences).
    public var satellitesInView: Int

    public init(connection: Connection, fix: FixKind = .none, satellitesUsed: Int = 0, satellitesInView: Int = 0) {
        self.connection = connection
        self.fix = fix
        self.satellitesUsed = satellitesUsed
        self.satellitesInView = satellitesInView
    }

    /// `connected to /dev/ttyACM0 at 9600 baud · 3D fix · 9/14 satellites`.
    public var description: String {
        "\(connection) · \(fix) · \(satellitesUsed)/\(satellitesInView) satellites"
    }
}

extension PublisherStatus.Connection {
    /// The connection a pipeline's status record describes.
    public init(_ status: ReceiverStatus) {
        let device = status.device.string
        switch status.state {
        case .searching: self = .searching(device: device)
        case .connecting: self = .connecting(device: device, baudRate: Int(status.baudRate))
        case .connected: self = .connected(device: device, baudRate: Int(status.baudRate))
        case .disconnected: self = .disconnected(device: device, reason: status.reason)
        case .ended: self = .ended(reason: status.reason)
        }
    }
}
