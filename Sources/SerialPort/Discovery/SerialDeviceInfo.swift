import NMEA

/// A serial device found by ``DeviceDiscovery``: where it is, what USB device it belongs to, and whether it is a GPS.
public struct SerialDeviceInfo: Sendable, Hashable {
    /// The device node: `/dev/ttyACM0`.
    public var path: String
    /// The sysfs path of the tty device, when it came from udev.
    public var sysPath: String?
    /// The stable link under `/dev/serial/by-id/` that points at ``path``, when there is one.
    public var byIDLink: String?
    /// The USB vendor ID (`idVendor`).
    public var vendorID: UInt16?
    /// The USB product ID (`idProduct`).
    public var productID: UInt16?
    /// The USB manufacturer string.
    public var manufacturer: String?
    /// The USB product string.
    public var product: String?
    /// The USB serial number string.
    public var serialNumber: String?
    /// The kernel driver: `cdc_acm`, `pl2303`, `cp210x`, `ftdi_sio`, `ch341`…
    public var driver: String?
    /// The USB interface's name, when the device gives one (some receivers name it "GPS").
    public var interfaceName: String?
    /// Whether it is a GPS receiver, as far as its identity tells.
    public var classification: GPSClassification

    public init(
        path: String, sysPath: String? = nil, byIDLink: String? = nil, vendorID: UInt16? = nil,
        productID: UInt16? = nil, manufacturer: String? = nil, product: String? = nil,
        serialNumber: String? = nil, driver: String? = nil, interfaceName: String? = nil,
        classification: GPSClassification? = nil
    ) {
        self.path = path
        self.sysPath = sysPath
        self.byIDLink = byIDLink
        self.vendorID = vendorID
        self.productID = productID
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
        self.driver = driver
        self.interfaceName = interfaceName
        self.classification =
            classification
            ?? KnownDevices.classify(
                vendorID: vendorID, productID: productID, product: product,
                interfaceName: interfaceName)
    }

    /// `1546:01a7`, or `nil` without USB IDs.
    public var usbID: String? {
        guard let vendorID, let productID else { return nil }
        return "\(hex4(vendorID)):\(hex4(productID))"
    }

    /// A key that stays the same when the device is unplugged and plugged back in: its by-id link, else its USB
    /// IDs and serial number, else its path.
    public var stableKey: String {
        if let byIDLink { return "by-id:" + byIDLink.split(separator: "/").last.map(String.init)! }
        if let usbID, let serialNumber { return "usb:\(usbID):\(serialNumber)" }
        return "path:" + path
    }
}

/// Whether a serial device is a GPS receiver.
public enum GPSClassification: Sendable, Hashable {
    /// Its USB identity belongs to a GPS receiver (the model, as known).
    case gps(model: String)
    /// A USB-serial bridge that GPS receivers often use, and other hardware too: only NMEA on the line tells.
    case possibleGPS(bridge: String)
    /// Nothing suggests a GPS.
    case notGPS

    /// `yes`, `possible` or `no`, as `nmea devices` prints it.
    public var label: String {
        switch self {
        case .gps: "yes"
        case .possibleGPS: "possible"
        case .notGPS: "no"
        }
    }

    /// The model or bridge name.
    public var detail: String? {
        switch self {
        case .gps(let model): model
        case .possibleGPS(let bridge): bridge
        case .notGPS: nil
        }
    }
}

/// USB identities of GPS receivers and of the bridges GPS pucks are built on.
public enum KnownDevices {
    /// Receivers whose USB vendor and product IDs are their own (the chip maker's or the GPS maker's).
    public static let receivers: [UInt32: String] = [
        0x1546_01a5: "u-blox 5",
        0x1546_01a6: "u-blox 6",
        0x1546_01a7: "u-blox 7",
        0x1546_01a8: "u-blox 8",
        0x1546_01a9: "u-blox 9",
        0x091e_0003: "Garmin GPS (USB)",
        0x0e8d_3329: "MediaTek/GlobalTop GPS",
        // DeLorme's own vendor ID: Earthmate receivers (Cypress M8 inside); listed in gpsd's udev rules.
        0x1163_0100: "DeLorme Earthmate",
        0x1163_0200: "DeLorme Earthmate LT-20/LT-40",
    ]

    /// USB-serial bridges used by many GPS pucks (and by much else).
    public static let bridges: [UInt32: String] = [
        0x067b_2303: "Prolific PL2303",
        0x10c4_ea60: "Silicon Labs CP210x",
        0x0403_6001: "FTDI FT232R",
        0x0403_6015: "FTDI FT-X",
        0x1a86_7523: "WCH CH340",
    ]

    /// Classifies a device by its USB IDs; failing that, a product or interface name that says GPS or GNSS (as
    /// u-blox and others write it) counts as a receiver.
    public static func classify(
        vendorID: UInt16?, productID: UInt16?, product: String? = nil,
        interfaceName: String? = nil
    ) -> GPSClassification {
        if let vendorID, let productID {
            let key = UInt32(vendorID) << 16 | UInt32(productID)
            if let model = receivers[key] { return .gps(model: model) }
            if let bridge = bridges[key] { return .possibleGPS(bridge: bridge) }
        }
        for name in [interfaceName, product].compactMap({ $0 }) where saysGPS(name) {
            return .gps(model: name)
        }
        return .notGPS
    }

    private static func saysGPS(_ name: String) -> Bool {
        let words = name.uppercased().split { !$0.isLetter && !$0.isNumber }
        return words.contains("GPS") || words.contains("GNSS")
    }
}

/// `0x1546` → `1546`: a USB vendor or product ID as `lsusb` writes it.
public func hex4(_ value: UInt16) -> String {
    Hex.string(UInt64(value), minimumDigits: 4, uppercase: false)
}
