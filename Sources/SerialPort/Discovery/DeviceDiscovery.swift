import CUdev
import Glibc
import System

/// Lists USB serial devices through libudev.
///
/// Each tty device with a USB parent is described from the udev database (`ID_VENDOR_ID`, `ID_SERIAL_SHORT`,
/// `ID_USB_DRIVER`…) where udevd runs, and from the parent USB device's sysfs attributes (`idVendor`, `idProduct`,
/// `manufacturer`, `product`, `serial`) where it does not (containers) or where a property is missing. The
/// `/dev/serial/by-id` link is found by resolving the links in that directory.
///
/// Not thread-safe (libudev is not): use one per thread.
public final class DeviceDiscovery {
    let udev: OpaquePointer
    /// Where the by-id links live; changeable for tests.
    public var byIDDirectory = "/dev/serial/by-id"

    /// - Returns: `nil` when libudev cannot be initialised.
    public init?() {
        guard let udev = udev_new() else { return nil }
        self.udev = udev
    }

    deinit { udev_unref(udev) }

    /// Whether udevd runs (its control socket exists), so the udev database and udev events are there.
    public static var udevdIsRunning: Bool { access("/run/udev/control", F_OK) == 0 }

    /// Every tty device with a USB parent, sorted by path.
    public func serialDevices() -> [SerialDeviceInfo] {
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "tty")
        udev_enumerate_scan_devices(enumerate)
        let links = byIDLinks()
        var devices: [SerialDeviceInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            defer { entry = udev_list_entry_get_next(current) }
            guard let name = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, name)
            else { continue }
            defer { udev_device_unref(device) }
            if let info = describe(device, links: links) { devices.append(info) }
        }
        return devices.sorted { $0.path < $1.path }
    }

    /// The device at `path` (a node or a link to one), described as ``serialDevices()`` would; a tty without a
    /// USB parent (a pty, a built-in UART) gets a description with only its path.
    public func device(atPath path: String) -> SerialDeviceInfo? {
        let resolved = resolvePath(path) ?? path
        guard let info = try? FileStatus(path: resolved), info.kind == .characterDevice else { return nil }
        if let device = udev_device_new_from_devnum(udev, CChar(UInt8(ascii: "c")), dev_t(info.deviceNumber)) {
            defer { udev_device_unref(device) }
            if var described = describe(device, links: byIDLinks()) {
                described.path = path
                return described
            }
        }
        return SerialDeviceInfo(path: path, byIDLink: byIDLinks()[resolved])
    }

    /// Describes a tty device, or `nil` when it has no USB parent.
    func describe(_ device: OpaquePointer, links: [String: String]) -> SerialDeviceInfo? {
        guard let usb = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device") else { return nil }
        let interface = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_interface")
        let devnode =
            string(udev_device_get_devnode(device))
            ?? property(device, "DEVNAME").map { $0.hasPrefix("/") ? $0 : "/dev/" + $0 }
            ?? string(udev_device_get_sysname(device)).map { "/dev/" + $0 }
        guard let path = devnode else { return nil }
        let vendor = property(device, "ID_VENDOR_ID") ?? attribute(usb, "idVendor")
        let product = property(device, "ID_MODEL_ID") ?? attribute(usb, "idProduct")
        let byID =
            links[path]
            ?? property(device, "DEVLINKS")?.split(separator: " ")
            .first { $0.hasPrefix(byIDDirectory + "/") }.map(String.init)
        return SerialDeviceInfo(
            path: path,
            sysPath: string(udev_device_get_syspath(device)),
            byIDLink: byID,
            vendorID: vendor.flatMap { UInt16($0, radix: 16) },
            productID: product.flatMap { UInt16($0, radix: 16) },
            manufacturer: attribute(usb, "manufacturer") ?? property(device, "ID_VENDOR_ENC").map(decodeUdevString)
                ?? property(device, "ID_VENDOR"),
            product: attribute(usb, "product") ?? property(device, "ID_MODEL_ENC").map(decodeUdevString)
                ?? property(device, "ID_MODEL"),
            serialNumber: property(device, "ID_SERIAL_SHORT") ?? attribute(usb, "serial"),
            driver: property(device, "ID_USB_DRIVER") ?? driver(of: device, upTo: usb),
            interfaceName: interface.flatMap { attribute($0, "interface") })
    }

    /// The driver of the nearest device from `device` up to (not including) `usb` that has one: the usb-serial
    /// port (`pl2303`) or the interface (`cdc_acm`).
    private func driver(of device: OpaquePointer, upTo usb: OpaquePointer) -> String? {
        var current: OpaquePointer? = device
        while let node = current, node != usb {
            if let driver = string(udev_device_get_driver(node)) { return driver }
            current = udev_device_get_parent(node)
        }
        return nil
    }

    /// `/dev/serial/by-id` links by the device node they resolve to.
    func byIDLinks() -> [String: String] {
        var links: [String: String] = [:]
        for name in Directory.entries(byIDDirectory).sorted() {
            let link = byIDDirectory + "/" + name
            if let target = resolvePath(link), links[target] == nil { links[target] = link }
        }
        return links
    }

    private func property(_ device: OpaquePointer, _ name: String) -> String? {
        string(udev_device_get_property_value(device, name)).flatMap { $0.isEmpty ? nil : $0 }
    }

    private func attribute(_ device: OpaquePointer, _ name: String) -> String? {
        string(udev_device_get_sysattr_value(device, name)).flatMap { value in
            let trimmed = value.trimmingNewline
            return trimmed.isEmpty ? nil : trimmed
        }
    }
}

/// `realpath(3)` of `path`, or `nil` when it does not resolve.
func resolvePath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// Decodes udev's `\x20`-style escapes (`ID_MODEL_ENC`).
func decodeUdevString(_ text: String) -> String {
    var bytes: [UInt8] = []
    let utf8 = Array(text.utf8)
    var index = 0
    while index < utf8.count {
        if utf8[index] == UInt8(ascii: "\\"), index + 3 < utf8.count, utf8[index + 1] == UInt8(ascii: "x"),
            let value = UInt8(String(decoding: utf8[(index + 2)...(index + 3)], as: UTF8.self), radix: 16)
        {
            bytes.append(value)
            index += 4
        } else {
            bytes.append(utf8[index])
            index += 1
        }
    }
    return String(decoding: bytes, as: UTF8.self).trimmingCharacters(of: " ")
}

extension String {
    func trimmingCharacters(of character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
