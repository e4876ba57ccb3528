import JSON
import SerialPort
import System
import Threading

/// `nmea devices`: the serial devices present, and which are GPS receivers.
enum DevicesCommand: Command {
    static let spec = CommandSpec(
        name: "devices",
        abstract: "List serial devices and tell which are GPS receivers.",
        discussion: """
            Lists every USB serial device with its path, /dev/serial/by-id link, USB vendor and product IDs, \
            manufacturer, product, serial number and driver. GPS is 'yes' for receivers known by their USB IDs \
            (u-blox, Garmin, MediaTek, DeLorme), 'possible' for USB-serial bridges that GPS pucks and much else \
            are built on (Prolific, Silicon Labs, FTDI, CH340), 'no' otherwise.
            --probe opens each 'yes' and 'possible' port for a few seconds, trying rates until it sees \
            checksum-valid NMEA; only then is a 'possible' port called a GPS. Ports that are not GPS-like are \
            never opened. Rates found are remembered for 'nmea record'.
            Named devices (paths, including ptys and built-in ports) are described, and probed with --probe, \
            whatever they are; the exit status is 1 when one of them cannot be found or opened.
            """,
        arguments: [devices],
        options: [json, probe, probeTime],
        examples: [
            "nmea devices",
            "nmea devices --probe --json",
            "nmea devices --probe /dev/ttyUSB0",
        ])

    /// One device and what the probe found.
    struct Row {
        var info: SerialDeviceInfo
        var probe: (outcome: DeviceProbe.Outcome, elapsed: Duration)?

        /// The verdict after probing: a possible GPS that sent NMEA is a GPS; nothing else changes.
        var gps: String {
            if case .nmea = probe?.outcome { return "yes" }
            return info.classification.label
        }
    }

    private static let devices = Argument<[String]>(
        repeating: "devices", help: "Device paths to describe instead of every USB serial device.")
    private static let json = Flag(long: "json", help: "Print one JSON document instead of a table.")
    private static let probe = Flag(long: "probe", help: "Open GPS-like ports briefly and look for NMEA.")
    private static let probeTime = Option<Double>(
        long: "probe-time", valueName: "seconds", help: "The longest probe of one port.", default: 4, in: 0.5...60)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let probing = arguments.flag(probe)
        let probeTime = try arguments.value(Self.probeTime)
        guard let discovery = DeviceDiscovery() else {
            throw RuntimeError("cannot use libudev to list devices")
        }
        var status = ExitStatus.success
        var rows: [Row] = []
        let paths = arguments.value(devices)
        let named = !paths.isEmpty
        if named {
            for path in paths {
                guard let info = discovery.device(atPath: path) else {
                    let error: String =
                        (try? FileStatus(path: path)) == nil
                        ? SerialPortError(kind: .notFound, path: path, operation: "open").description
                        : "'\(path)' is not a serial device (not a character device)."
                    Console.error("Error: \(error)\n")
                    status = ExitStatus.failure
                    continue
                }
                rows.append(Row(info: info))
            }
        } else {
            rows = discovery.serialDevices().map { Row(info: $0) }
        }

        if probing {
            let targets = rows.indices.filter { named || rows[$0].info.classification != .notGPS }
            let results = probeAll(targets.map { rows[$0].info }, budget: .milliseconds(Int64(probeTime * 1000)))
            for (index, result) in zip(targets, results) {
                rows[index].probe = result
                if case .failed(let error) = result.outcome {
                    Console.error((named ? "Error: " : "Warning: ") + error.description + "\n")
                    if named { status = ExitStatus.failure }
                }
            }
        }

        let output = Console.standardOutput
        if arguments.flag(json) {
            output.write(jsonText(rows))
        } else if rows.isEmpty {
            if !named { Console.error("No USB serial devices found.\n") }
        } else {
            output.write(table(rows, probed: probing))
        }
        output.flush()
        return status
    }

    /// Probes each device on its own thread, so the whole takes about one budget.
    static func probeAll(_ devices: [SerialDeviceInfo], budget: Duration)
        -> [(outcome: DeviceProbe.Outcome, elapsed: Duration)]
    {
        let results = UnsafeMutableBufferPointer<(outcome: DeviceProbe.Outcome, elapsed: Duration)?>
            .allocate(capacity: devices.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        nonisolated(unsafe) let slots = results
        let memory = BaudRateMemory.standard
        // One thread per port (not a pool sized by cores): the probes mostly wait.
        let threads = devices.indices.map { index in
            NativeThread {
                let device = devices[index]
                // Each thread writes only its own slot.
                slots[index] = DeviceProbe.probe(
                    path: device.path, budget: budget, memory: memory,
                    key: device.stableKey)
            }
        }
        for thread in threads { thread.join() }
        return results.map { $0! }
    }

    // MARK: Output

    static func table(_ rows: [Row], probed: Bool) -> String {
        var header = ["PATH", "GPS", "USB ID", "DRIVER", "SERIAL"]
        if probed { header.append("PROBE") }
        header.append("DESCRIPTION")
        var lines = [header]
        var links: [String?] = [nil]
        for row in rows {
            let info = row.info
            var line = [info.path, row.gps, info.usbID ?? "-", info.driver ?? "-", info.serialNumber ?? "-"]
            if probed { line.append(row.probe.map { probeSummary($0.outcome) } ?? "-") }
            let names = [info.manufacturer, info.product].compactMap { $0 }
            var description = names.isEmpty ? "-" : names.joined(separator: " ")
            if let detail = row.info.classification.detail, !description.contains(detail) {
                description += " [\(detail)]"
            }
            line.append(description)
            lines.append(line)
            links.append(info.byIDLink)
        }
        var widths = [Int](repeating: 0, count: header.count)
        for line in lines {
            for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var text = ""
        for (line, link) in zip(lines, links) {
            var cells: [String] = []
            for (column, cell) in line.enumerated() {
                let isLast = column == line.count - 1
                cells.append(isLast ? cell : cell + String(repeating: " ", count: widths[column] - cell.count))
            }
            text += cells.joined(separator: "  ") + "\n"
            if let link { text += String(repeating: " ", count: 2) + "by-id: \(link)\n" }
        }
        return text
    }

    static func probeSummary(_ outcome: DeviceProbe.Outcome) -> String {
        switch outcome {
        case .nmea(let rate): "NMEA at \(rate)"
        case .noNMEA: "no NMEA"
        case .failed(let error): "failed (\(error.kind))"
        }
    }

    static func jsonText(_ rows: [Row]) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("devices")
        json.beginArray()
        for row in rows {
            let info = row.info
            json.beginObject()
            json.field("path", info.path)
            json.field("by_id", info.byIDLink)
            json.field("vendor_id", info.vendorID.map(hex4))
            json.field("product_id", info.productID.map(hex4))
            json.field("manufacturer", info.manufacturer)
            json.field("product", info.product)
            json.field("serial", info.serialNumber)
            json.field("driver", info.driver)
            json.field("gps", row.gps)
            switch info.classification {
            case .gps(let model): json.field("model", model)
            case .possibleGPS(let bridge): json.field("bridge", bridge)
            case .notGPS: break
            }
            if let probe = row.probe {
                json.key("probe")
                json.beginObject()
                switch probe.outcome {
                case .nmea(let rate):
                    json.field("result", "nmea")
                    json.field("baud", rate.rawValue)
                case .noNMEA(let tried):
                    json.field("result", "no_nmea")
                    json.key("tried")
                    json.beginArray()
                    for rate in tried { json.number(rate.rawValue) }
                    json.endArray()
                case .failed(let error):
                    json.field("result", "error")
                    json.field("error", error.description)
                }
                json.field(
                    "seconds",
                    Double(probe.elapsed.components.seconds)
                        + Double(probe.elapsed.components.attoseconds) / 1e18, decimals: 2)
                json.endObject()
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.string + "\n"
    }

}
