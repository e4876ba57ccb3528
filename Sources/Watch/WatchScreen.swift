import Glibc
import NMEA
import Presentation
import Trips

/// The screen of `nmea watch` as a pure function of a ``WatchState`` and the terminal's size.
///
///      nmea watch · /dev/ttyACM0 · 9600 baud · 1 Hz                                          q quit
///     ┌─ Fix ────────────────────────────────────┐┌─ Satellites ─────────────────────────────────────┐
///     │ Fix        3D fix (GPS) · 0.4 s ago      ││ GPS 10/12 used                                   │
///     │ Latitude    48.137400° N   48°08.2440' N ││ G02 ████████████▌░░░ 40 ✓  G18 ██████████… 43 ✓  │
///     │ …                                        ││ …                                                │
///     └──────────────────────────────────────────┘│                                                  │
///     ┌─ Sky ────────────────────────────────────┐│                                                  │
///     │                 · · N · ·                ││                                                  │
///     │              ·      G   r   ·            ││                                                  │
///      connected · 120 fixes · 0 rejected
///
/// **Layout.** A header bar (source, device, rate) and a footer bar (connection state, counts) frame the body. With
/// at least 74 columns and 12 body rows, the body has two columns: the fix panel (44 columns, wider up to half the
/// screen when a value would be cut) above the sky plot on the left, the satellites on the right. Narrower, the panels stack: fix, then satellites, then the sky while rows
/// remain. Smaller than one fix panel (44 × 12), the fix's lines are shown without a box, as many as fit, most
/// important first. Every line is exactly `columns` cells wide.
public enum WatchScreen {
    /// The fix panel's width and height (box included).
    public static let fixPanelWidth = 44
    public static let fixPanelHeight = 12
    /// The narrowest satellites panel beside the fix panel.
    public static let minimumSatellitesWidth = 30
    /// The label column of the fix panel.
    static let labelWidth = 11

    /// Draws the screen for `state` on a terminal of `columns` × `rows`.
    /// - Complexity: O(`columns` × `rows` + satellites).
    public static func render(_ state: WatchState, columns: Int, rows: Int, glyphs: Glyphs) -> Canvas {
        var canvas = Canvas(columns: columns, rows: rows)
        guard columns > 0, rows > 0 else { return canvas }
        var top = 0
        var bottom = rows
        if rows >= 3 {
            bar(
                &canvas, row: 0, left: headerText(state, width: columns - 8, glyphs: glyphs), right: "q quit ",
                glyphs: glyphs)
            bar(&canvas, row: rows - 1, left: " " + footerText(state, glyphs: glyphs), right: "", glyphs: glyphs)
            top = 1
            bottom = rows - 1
        }
        let body = bottom - top
        if columns >= fixPanelWidth + minimumSatellitesWidth && body >= fixPanelHeight {
            let fixWidth = fixWidth(state, columns: columns, glyphs: glyphs)
            fixPanel(&canvas, state, row: top, column: 0, width: fixWidth, glyphs: glyphs)
            let skyRows = body - fixPanelHeight
            skyPanel(
                &canvas, state, row: top + fixPanelHeight, column: 0, width: fixWidth, height: skyRows,
                glyphs: glyphs)
            satellitesPanel(
                &canvas, state, row: top, column: fixWidth, width: columns - fixWidth, height: body, glyphs: glyphs)
        } else if columns >= fixPanelWidth && body >= fixPanelHeight {
            fixPanel(&canvas, state, row: top, column: 0, width: columns, glyphs: glyphs)
            var row = top + fixPanelHeight
            let remaining = bottom - row
            if remaining >= 4 {
                let needed =
                    satelliteLines(state.fix, contentWidth: columns - 4, rows: remaining - 2, glyphs: glyphs)
                    .count + 2
                let height = min(remaining, needed)
                satellitesPanel(&canvas, state, row: row, column: 0, width: columns, height: height, glyphs: glyphs)
                row += height
            }
            skyPanel(&canvas, state, row: row, column: 0, width: columns, height: bottom - row, glyphs: glyphs)
        } else {
            // Too small for panels: the fix's lines alone, most important first.
            let fields = fixFields(state, valueWidth: columns - 1 - labelWidth, glyphs: glyphs)
            for (index, field) in fields.prefix(body).enumerated() {
                canvas.put(" " + Canvas.padRight(field.label, labelWidth) + field.value, row: top + index, column: 0)
            }
        }
        return canvas
    }

    // MARK: Bars

    private static func bar(_ canvas: inout Canvas, row: Int, left: String, right: String, glyphs: Glyphs) {
        let columns = canvas.columns
        let rightWidth = Canvas.width(of: right)
        if rightWidth + 1 < columns {
            canvas.put(
                Canvas.truncate(left, to: columns - rightWidth - 1, ellipsis: glyphs.ellipsis), row: row,
                column: 0)
            canvas.put(right, row: row, column: columns - rightWidth)
        } else {
            canvas.put(Canvas.truncate(left, to: columns, ellipsis: glyphs.ellipsis), row: row, column: 0)
        }
        canvas.inverseRows.insert(row)
    }

    /// The fix panel's width beside the satellites: ``fixPanelWidth``, or wider — up to half the screen, leaving
    /// the satellites ``minimumSatellitesWidth`` — when a value (a long place name) would be cut at that width.
    public static func fixWidth(_ state: WatchState, columns: Int, glyphs: Glyphs) -> Int {
        let widest = fixFields(state, valueWidth: columns, glyphs: glyphs).map { Canvas.width(of: $0.value) }.max()
        let wanted = labelWidth + 4 + (widest ?? 0)
        return max(fixPanelWidth, min(wanted, columns / 2, columns - minimumSatellitesWidth))
    }

    /// ` nmea watch · ` and the source, in at most `width` cells: a long path is shortened from its start
    /// (`…/logs/day.nmea`), so the replay's speed and the rate stay in view.
    public static func headerText(_ state: WatchState, width: Int, glyphs: Glyphs) -> String {
        let prefix = " nmea watch" + glyphs.separator
        var parts = sourceParts(state, glyphs: glyphs)
        let full = prefix + parts.joined(separator: glyphs.separator)
        let excess = Canvas.width(of: full) - width
        // A name of 24 cells or fewer (a device) stays whole, and a path keeps its last 16.
        guard excess > 0, let name = parts.first, Canvas.width(of: name) > 24 else { return full }
        parts[0] = Canvas.truncateLeading(
            name, to: max(16, Canvas.width(of: name) - excess), ellipsis: glyphs.ellipsis)
        return prefix + parts.joined(separator: glyphs.separator)
    }

    /// The header's account of the source: `/dev/ttyACM0 · 9600 baud · 1 Hz`, `day.nmea · replay 10× · 1 Hz`,
    /// `gpsd localhost:2947 · /dev/ttyUSB0 · 1 Hz`.
    public static func sourceText(_ state: WatchState, glyphs: Glyphs) -> String {
        sourceParts(state, glyphs: glyphs).joined(separator: glyphs.separator)
    }

    /// The parts of ``sourceText(_:glyphs:)``, the source's name first.
    static func sourceParts(_ state: WatchState, glyphs: Glyphs) -> [String] {
        var parts: [String] = []
        switch state.source {
        case .device(let selector):
            parts.append(state.device ?? selector)
        case .replay(let name, let speed):
            parts.append(name == "-" ? "standard input" : name)
            parts.append("replay " + Formatting.speedFactor(speed, glyphs: glyphs))
        case .gpsd(let host, let port):
            parts.append("gpsd " + (host.contains(":") ? "[\(host)]" : host) + ":" + String(port))
            if let device = state.device { parts.append(device) }
        }
        if let baud = state.baudRate, baud > 0 { parts.append("\(baud) baud") }
        if let rate = state.fixRateHz { parts.append(Formatting.rate(rate)) }
        return parts
    }

    /// The footer: the connection's state, fixes received, lines rejected, and — once there is a trip — the trips,
    /// their distance and the stops between them, as `nmea trips` counts them: `2 trips · 68.34 km · 1 stop`.
    public static func footerText(_ state: WatchState, glyphs: Glyphs) -> String {
        var parts: [String] = []
        if !state.status.isEmpty { parts.append(state.status) }
        parts.append(state.fixCount == 1 ? "1 fix" : "\(state.fixCount) fixes")
        if let rejected = state.rejectedLines { parts.append("\(rejected) rejected") }
        if let trips = state.trips, trips.trips > 0 {
            parts.append(trips.trips == 1 ? "1 trip" : "\(trips.trips) trips")
            parts.append(TripText.distance(trips.distanceMeters))
            if trips.trips > 1 { parts.append(trips.stops == 1 ? "1 stop" : "\(trips.stops) stops") }
        }
        return parts.joined(separator: glyphs.separator)
    }

    // MARK: Fix

    /// The fix panel's lines as label and value, most important first; values fit `valueWidth` cells.
    public static func fixFields(_ state: WatchState, valueWidth: Int, glyphs: Glyphs) -> [(
        label: String, value: String
    )] {
        let none = "-"
        guard let fix = state.fix else {
            return [
                ("Fix", "waiting for data"), ("Time", none), ("Latitude", none), ("Longitude", none),
                ("Place", placeText(state, width: valueWidth, glyphs: glyphs)), ("Speed", none),
                ("Course", none), ("Altitude", none), ("DOP", none), ("Satellites", none),
            ]
        }
        var kind = Formatting.fixKind(fix)
        if let age = state.fixAgeSeconds { kind += glyphs.separator + Formatting.age(age) + " ago" }
        func coordinate(_ value: Double?, positive: String, negative: String) -> String {
            guard let value else { return none }
            let decimal =
                Canvas.padLeft(Formatting.fixed(abs(value), 6), 10) + glyphs.degree + " "
                + (value < 0 ? negative : positive)
            let minutes = Canvas.padLeft(
                Formatting.degreesMinutes(value, positive: positive, negative: negative, glyphs: glyphs), 14)
            let both = decimal + "  " + minutes
            return Canvas.width(of: both) <= valueWidth ? both : decimal
        }
        var speed = none
        if let metersPerSecond = fix.speed {
            speed =
                Formatting.fixed(metersPerSecond * 3.6, 1) + " km/h  "
                + Formatting.fixed(metersPerSecond * 3600 / 1852, 1) + " kn"
        }
        var course = none
        if let degrees = fix.courseDegrees {
            course = Formatting.fixed(degrees, 1) + glyphs.degree + " " + Formatting.compassPoint(degrees)
        }
        let altitude = fix.altitudeMeters.map { Formatting.fixed($0, 1) + " m" } ?? none
        var dop = none
        if fix.hdop != nil || fix.vdop != nil || fix.pdop != nil {
            func text(_ value: Double?) -> String { value.map { Formatting.fixed($0, 2) } ?? none }
            dop = "H \(text(fix.hdop))  V \(text(fix.vdop))  P \(text(fix.pdop))"
        }
        var satellites = none
        let used = fix.satellitesUsed ?? (fix.satellites.isEmpty ? nil : fix.satellitesUsedInView)
        if let used, fix.satellites.isEmpty {
            satellites = "\(used) used (no GSV: the satellites in view are not sent)"
        } else if let used {
            satellites = "\(used) used of \(fix.satellites.count) in view"
        } else if !fix.satellites.isEmpty {
            satellites = "\(fix.satellites.count) in view"
        }
        return [
            ("Fix", kind), ("Time", Formatting.dateTime(fix) ?? none),
            ("Latitude", coordinate(fix.hasPosition ? fix.latitude : nil, positive: "N", negative: "S")),
            ("Longitude", coordinate(fix.hasPosition ? fix.longitude : nil, positive: "E", negative: "W")),
            ("Place", placeText(state, width: valueWidth, glyphs: glyphs)), ("Speed", speed), ("Course", course),
            ("Altitude", altitude), ("DOP", dop), ("Satellites", satellites),
        ].map { ($0.0, Canvas.truncate($0.1, to: valueWidth, ellipsis: glyphs.ellipsis)) }
    }

    private static func placeText(_ state: WatchState, width: Int, glyphs: Glyphs) -> String {
        let text = state.place ?? state.placeNote.map { "- (\($0))" } ?? "-"
        return Canvas.truncate(text, to: width, ellipsis: glyphs.ellipsis)
    }

    private static func fixPanel(
        _ canvas: inout Canvas, _ state: WatchState, row: Int, column: Int, width: Int,
        glyphs: Glyphs
    ) {
        canvas.box(row: row, column: column, width: width, height: fixPanelHeight, title: "Fix", glyphs: glyphs)
        let valueWidth = width - 4 - labelWidth
        for (index, field) in fixFields(state, valueWidth: valueWidth, glyphs: glyphs).enumerated() {
            canvas.put(
                Canvas.padRight(field.label, labelWidth) + field.value, row: row + 1 + index,
                column: column + 2, width: width - 4)
        }
    }

    // MARK: Satellites

    /// The systems in the order the panel lists them.
    static let systemOrder: [GNSSSystem?] = [.gps, .glonass, .galileo, .beidou, .qzss, .navic, nil]

    /// A line of the satellites panel and the satellites it shows.
    struct SatelliteLine {
        var text: String
        var satellites: Int
    }

    /// The satellites panel's lines for `contentWidth` cells and at most `rows` rows: per system a heading
    /// (`GPS 10/12 used`) and its satellites in number order, down columns, as few columns as fit the rows (as many as
    /// fit the width when none do, then `+N more` in the last row).
    static func satelliteLines(_ fix: Fix?, contentWidth: Int, rows: Int, glyphs: Glyphs) -> [SatelliteLine] {
        guard rows > 0, contentWidth > 0 else { return [] }
        let satellites = fix.map { Array($0.satellites) } ?? []
        guard !satellites.isEmpty else { return [SatelliteLine(text: "no satellites reported", satellites: 0)] }
        let groups: [(system: GNSSSystem?, satellites: [SatelliteInView])] = systemOrder.compactMap { system in
            let members = satellites.filter { $0.system == system }.sorted { $0.prn < $1.prn }
            return members.isEmpty ? nil : (system, members)
        }
        let nameWidth = satellites.map { Formatting.satelliteName($0).count }.max() ?? 3
        // Two cells for whole SNRs, as wide as the widest with decimals (`24.5`) when a receiver sends them.
        let snrWidth = max(2, satellites.map { snrText($0.snr).count }.max() ?? 2)
        let minimumBar = 6
        let gap = 2
        let fixedWidth = nameWidth + 1 + 1 + snrWidth + 1 + 1  // name, space, (bar), space, snr, space, mark
        let minimumCell = fixedWidth + minimumBar
        let mostColumns = max(1, (contentWidth + gap) / (minimumCell + gap))
        func rowsNeeded(_ columns: Int) -> Int {
            groups.reduce(0) { $0 + 1 + ($1.satellites.count + columns - 1) / columns }
        }
        let columns = (1...mostColumns).first { rowsNeeded($0) <= rows } ?? mostColumns
        let cellWidth = columns == 1 ? contentWidth : (contentWidth - gap * (columns - 1)) / columns
        let barWidth = max(1, min(cellWidth - fixedWidth, 20))
        var lines: [SatelliteLine] = []
        for group in groups {
            let used = group.satellites.filter(\.isUsed).count
            lines.append(
                SatelliteLine(
                    text: "\(systemName(group.system)) \(used)/\(group.satellites.count) used", satellites: 0))
            let height = (group.satellites.count + columns - 1) / columns
            for line in 0..<height {
                var text = ""
                var count = 0
                for column in 0..<columns {
                    let index = column * height + line
                    guard index < group.satellites.count else { break }
                    if column > 0 { text += String(repeating: " ", count: gap) }
                    let cell = satelliteCell(
                        group.satellites[index], nameWidth: nameWidth, snrWidth: snrWidth, barWidth: barWidth,
                        glyphs: glyphs)
                    text += Canvas.padRight(cell, cellWidth)
                    count += 1
                }
                lines.append(SatelliteLine(text: text, satellites: count))
            }
        }
        if lines.count > rows {
            let kept = lines.prefix(rows - 1)
            let hidden = satellites.count - kept.reduce(0) { $0 + $1.satellites }
            lines = Array(kept) + [SatelliteLine(text: "+\(hidden) more", satellites: 0)]
        }
        return lines
    }

    /// `G05 ████████▌░░░ 42 ✓`: name, signal bar (0–50 dB-Hz), signal to noise (right-aligned in `snrWidth` cells),
    /// used mark.
    static func satelliteCell(
        _ satellite: SatelliteInView, nameWidth: Int, snrWidth: Int, barWidth: Int, glyphs: Glyphs
    ) -> String {
        let name = Canvas.padRight(Formatting.satelliteName(satellite), nameWidth)
        let text = snrText(satellite.snr)
        let snr = String(repeating: " ", count: max(0, snrWidth - text.count)) + text
        return name + " " + signalBar(satellite.snr, width: barWidth, glyphs: glyphs) + " " + snr + " "
            + (satellite.isUsed ? glyphs.used : " ")
    }

    /// An SNR as the panel shows it: with the decimals the receiver sent (`24.5`, `42`), `--` when not tracked, 99 at
    /// most.
    static func snrText(_ snr: SignalToNoise?) -> String {
        guard let snr else { return "--" }
        return snr.hundredths < 9_900 ? snr.description : "99"
    }

    /// A bar `width` cells long, full at 50 dB-Hz and above, in eighths of a cell where the glyphs have them.
    public static func signalBar(_ snr: SignalToNoise?, width: Int, glyphs: Glyphs) -> String {
        let fraction = min(snr?.doubleValue ?? 0, 50) / 50
        let steps = glyphs.barEighths.count + 1
        let filled = Int((fraction * Double(width * steps)).rounded(.toNearestOrAwayFromZero))
        let whole = filled / steps
        let part = filled % steps
        var text = String(repeating: glyphs.barFull, count: whole)
        var cells = whole
        if part > 0 {
            text += glyphs.barEighths[part - 1]
            cells += 1
        }
        return text + String(repeating: glyphs.barEmpty, count: max(0, width - cells))
    }

    static func systemName(_ system: GNSSSystem?) -> String { system?.name ?? "Other" }

    private static func satellitesPanel(
        _ canvas: inout Canvas, _ state: WatchState, row: Int, column: Int,
        width: Int, height: Int, glyphs: Glyphs
    ) {
        guard height >= 3, width >= 6 else { return }
        canvas.box(row: row, column: column, width: width, height: height, title: "Satellites", glyphs: glyphs)
        let lines = satelliteLines(state.fix, contentWidth: width - 4, rows: height - 2, glyphs: glyphs)
        for (index, line) in lines.enumerated() {
            canvas.put(line.text, row: row + 1 + index, column: column + 2, width: width - 4)
        }
    }

    // MARK: Sky

    /// The sky plot: the horizon as an ellipse twice as wide as high (terminal cells are about twice as high as
    /// wide), the zenith in the middle, north up and east right; each satellite with an elevation and azimuth is
    /// its system's letter (`G`, `R`, `E`, `C`, `J`, `I`, `S` for SBAS), upper case when used, lower case when not.
    /// Where two fall in one cell the used one, then the stronger, shows.
    /// - Returns: `height` lines of `2 × height − 1` cells (`height` odd, at least 3).
    public static func skyPlot(_ satellites: [SatelliteInView], height: Int, glyphs: Glyphs) -> [String] {
        let height = max(3, height | 1)
        let width = 2 * height - 1
        var grid = Array(repeating: Array(repeating: " ", count: width), count: height)
        let centerX = Double(width - 1) / 2
        let centerY = Double(height - 1) / 2
        func cell(_ radius: Double, _ azimuthDegrees: Double) -> (x: Int, y: Int) {
            let angle = azimuthDegrees * .pi / 180
            let x = (centerX + radius * centerX * sin(angle)).rounded(.toNearestOrAwayFromZero)
            let y = (centerY - radius * centerY * cos(angle)).rounded(.toNearestOrAwayFromZero)
            return (min(max(Int(x), 0), width - 1), min(max(Int(y), 0), height - 1))
        }
        for step in 0..<720 {
            let point = cell(1, Double(step) / 2)
            grid[point.y][point.x] = glyphs.horizon
        }
        grid[Int(centerY)][Int(centerX)] = glyphs.zenith
        grid[0][Int(centerX)] = "N"
        grid[height - 1][Int(centerX)] = "S"
        grid[Int(centerY)][width - 1] = "E"
        grid[Int(centerY)][0] = "W"
        let plotted = satellites.filter { $0.elevationDegrees != nil && $0.azimuthDegrees != nil }.sorted {
            (
                $0.isUsed ? 1 : 0, Int($0.snr?.hundredths ?? 0), Int($0.elevationDegrees!),
                Int($0.system?.rawValue ?? 0),
                Int($0.prn)
            ) < (
                $1.isUsed ? 1 : 0, Int($1.snr?.hundredths ?? 0), Int($1.elevationDegrees!),
                Int($1.system?.rawValue ?? 0), Int($1.prn)
            )
        }
        for satellite in plotted {
            let elevation = min(max(Double(satellite.elevationDegrees!), 0), 90)
            let point = cell((90 - elevation) / 90, Double(satellite.azimuthDegrees!))
            let letter = Formatting.satelliteLetter(satellite)
            grid[point.y][point.x] = satellite.isUsed ? letter : letter.lowercased()
        }
        return grid.map { $0.joined() }
    }

    private static func skyPanel(
        _ canvas: inout Canvas, _ state: WatchState, row: Int, column: Int, width: Int,
        height: Int, glyphs: Glyphs
    ) {
        let innerWidth = width - 2
        var plotHeight = min(height - 3, (innerWidth + 1) / 2, 21)
        if plotHeight % 2 == 0 { plotHeight -= 1 }
        guard plotHeight >= 5 else { return }
        canvas.box(row: row, column: column, width: width, height: plotHeight + 3, title: "Sky", glyphs: glyphs)
        let plotWidth = 2 * plotHeight - 1
        let left = column + 1 + (innerWidth - plotWidth) / 2
        let satellites = state.fix.map { Array($0.satellites) } ?? []
        for (index, line) in skyPlot(satellites, height: plotHeight, glyphs: glyphs).enumerated() {
            canvas.put(line, row: row + 1 + index, column: left, width: plotWidth)
        }
        let legend = "upper case: used in fix"
        canvas.put(
            legend, row: row + 1 + plotHeight, column: column + 1 + max(0, (innerWidth - legend.count) / 2),
            width: innerWidth)
    }
}
