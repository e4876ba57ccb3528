import CUdev
import Glibc
import System

/// Tells when tty devices come and go: a udev monitor on the "udev" netlink source where udevd runs (events after
/// udevd has created the node and its links), the "kernel" source otherwise (containers). Its descriptor can be
/// polled beside others; callers should still rescan now and then, since events can be missed (no netlink in a
/// network namespace, a full socket buffer).
///
/// Not thread-safe: use it on one thread.
public final class HotplugMonitor {
    private let discovery: DeviceDiscovery
    private let monitor: OpaquePointer
    /// `udev` or `kernel`.
    public let source: String
    /// The descriptor that becomes readable when an event is waiting.
    public let fileDescriptor: FileDescriptor

    /// What happened to a device.
    public struct Event: Sendable, Hashable {
        /// `add`, `remove`, `change`, `bind`…
        public var action: String
        /// The device node, when the event names one.
        public var path: String?
        public var sysPath: String?
    }

    /// - Returns: `nil` when no monitor can be made (no netlink here); rescan instead.
    public init?(discovery: DeviceDiscovery) {
        let source = DeviceDiscovery.udevdIsRunning ? "udev" : "kernel"
        guard let monitor = udev_monitor_new_from_netlink(discovery.udev, source) else { return nil }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "tty", nil)
        guard udev_monitor_enable_receiving(monitor) >= 0 else {
            udev_monitor_unref(monitor)
            return nil
        }
        let fd = udev_monitor_get_fd(monitor)
        guard fd >= 0 else {
            udev_monitor_unref(monitor)
            return nil
        }
        self.discovery = discovery
        self.monitor = monitor
        self.source = source
        fileDescriptor = FileDescriptor(rawValue: fd)
        try? fileDescriptor.setNonBlocking(true)
    }

    deinit { udev_monitor_unref(monitor) }

    /// Every event waiting now (never blocks).
    public func pendingEvents() -> [Event] {
        var events: [Event] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? "change"
            let node =
                udev_device_get_devnode(device).map { String(cString: $0) }
                ?? udev_device_get_property_value(device, "DEVNAME").map { name in
                    let text = String(cString: name)
                    return text.hasPrefix("/") ? text : "/dev/" + text
                }
            events.append(
                Event(
                    action: action, path: node,
                    sysPath: udev_device_get_syspath(device).map { String(cString: $0) }))
            if events.count > 1000 { break }
        }
        return events
    }
}
