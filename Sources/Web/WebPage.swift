import JSON
import NMEA
import Presentation

/// The page: one HTML document with its style and script inside, rendered with the state as it is, so the first
/// response already shows the position, the status and the trips (the script then keeps them live from
/// `/api/events`, and draws the map, the sky plot and the trip table).
enum WebPage {
    /// The `Content-Security-Policy` header: nothing loads from anywhere but this server (and the tile server, when
    /// one is given).
    static func contentSecurityPolicy(tiles: MapTiles?) -> String {
        var images = "'self' data:"
        if let origin = tiles?.imageOrigin { images += " " + origin }
        return "Content-Security-Policy: default-src 'none'; script-src 'self' 'unsafe-inline'; "
            + "style-src 'unsafe-inline'; connect-src 'self'; img-src \(images); base-uri 'none'; form-action 'none'"
    }

    /// `https://tile.example.org` of `https://tile.example.org/{z}/{x}/{y}.png`.
    static func origin(of template: String) -> String? {
        guard let schemeEnd = template.firstRange(of: "://") else { return nil }
        let rest = template[schemeEnd.upperBound...]
        let host = rest.prefix { $0 != "/" }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:[]".contains($0) }) else {
            return nil
        }
        return String(template[..<schemeEnd.upperBound]) + host
    }

    /// The page; with `history`, its day picker (`days`: `/api/days`' document), and `day`'s track and trips
    /// instead of today's when a day gone by is shown.
    static func render(
        _ snapshot: WebState.Snapshot, tiles: MapTiles?, days: [UInt8]? = nil, day: String? = nil
    ) -> [UInt8] {
        var html = template.replacing("{{style}}", with: style).replacing("{{map-style}}", with: mapStyle)
            .replacing("{{map-script}}", with: mapScript).replacing("{{days-panel}}", with: daysPanel)
        let fix = snapshot.position
        func value(_ text: String?) -> String { text.map(escaped) ?? "–" }
        let replacements: [(String, String)] = [
            ("{{decimal}}", value(fix.flatMap(WebConsumer.decimalDegrees))),
            ("{{dm}}", value(snapshot.degreesMinutes)),
            ("{{place}}", value(snapshot.place ?? (fix == nil ? nil : "no place name"))),
            ("{{fix}}", value(fix.map(Formatting.fixKind))),
            ("{{time}}", value(fix.flatMap { $0.timestamp }.map { ISO8601.string($0) })),
            ("{{initial}}", initialJSON(snapshot, tiles: tiles, days: days, day: day)),
            ("{{track-script}}", "/track.js" + (day.map { "?day=" + $0 } ?? "")),
        ]
        for (placeholder, text) in replacements {
            html = html.replacing(placeholder, with: text)
        }
        return Array(html.utf8)
    }

    /// The fleet's page, with `fleet` (`{"vehicles":…,"trips":…}`) in it and the vehicle rows rendered.
    /// `day` (vehicle and day, from the address) is the vehicle's day the page opens on.
    static func renderFleet(_ fleet: [UInt8], tiles: MapTiles?, day: (vehicle: String, day: String)? = nil) -> [UInt8] {
        var rows = ""
        if case .object(let members)? = try? JSONValue(parsing: fleet), let vehicles = members["vehicles"],
            case .object(let inner) = vehicles, case .array(let list)? = inner["vehicles"]
        {
            for vehicle in list {
                guard case .object(let fields) = vehicle else { continue }
                func text(_ name: String) -> String {
                    if case .string(let value)? = fields[name] { return escaped(value) }
                    return "–"
                }
                rows +=
                    "<tr data-vehicle=\"\(text("vehicle"))\"><td>\(text("vehicle"))</td><td>\(text("time"))</td>"
                    + "<td></td><td>\(text("place"))</td><td class=\"wide\"></td></tr>"
            }
        }
        let html = fleetTemplate.replacing("{{style}}", with: style).replacing("{{map-style}}", with: mapStyle)
            .replacing("{{map-script}}", with: mapScript).replacing("{{days-panel}}", with: daysPanel)
            .replacing(
                "{{day-script}}", with: escaped("/day.js" + (day.map { "?" + dayQuery($0.vehicle, $0.day) } ?? ""))
            )
            .replacing("{{rows}}", with: rows).replacing("{{fleet}}", with: scriptSafe(fleet))
            .replacing("{{tiles}}", with: tiles.map { scriptSafe($0.json) } ?? "null")
        return Array(html.utf8)
    }

    /// `vehicle=…&day=…`, percent-encoded.
    static func dayQuery(_ vehicle: String, _ day: String) -> String {
        var encoded = ""
        for byte in vehicle.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.properties.isAlphabetic && byte < 0x80 || (0x30...0x39).contains(byte)
                || "-._~".utf8.contains(byte)
            {
                encoded.unicodeScalars.append(scalar)
            } else {
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return "vehicle=" + encoded + "&day=" + day
    }

    /// A JSON string literal of `text`.
    static func quoted(_ text: String) -> [UInt8] {
        var json = JSONWriter(capacity: text.utf8.count + 2)
        json.string(text)
        return json.bytes
    }

    /// JSON text that is safe inside `<script>`: `<` (only ever inside strings) as `\u003c`.
    static func scriptSafe(_ json: [UInt8]) -> String {
        var text = ""
        text.reserveCapacity(json.count)
        for scalar in String(decoding: json, as: UTF8.self).unicodeScalars {
            if scalar == "<" { text += "\\u003c" } else { text.unicodeScalars.append(scalar) }
        }
        return text
    }

    /// `{"position":…,"status":…,"trips":…,"satellites":…,"tiles":…,"history":…}` for the script, safe inside `<script>`.
    static func initialJSON(
        _ snapshot: WebState.Snapshot, tiles: MapTiles?, days: [UInt8]? = nil, day: String? = nil
    ) -> String {
        var json = JSONWriter(capacity: 4096 + snapshot.trips.count + snapshot.vessels.count)
        json.beginObject()
        json.key("position")
        json.raw(WebRoutes.position(snapshot))
        json.key("status")
        json.raw(snapshot.status)
        json.key("trips")
        json.raw(snapshot.trips)
        json.key("satellites")
        json.raw(snapshot.satellites)
        json.key("vessels")
        json.raw(snapshot.vessels)
        json.key("tiles")
        if let tiles { json.raw(tiles.json) } else { json.null() }
        json.key("history")
        json.bool(days != nil)
        if let days {
            json.key("days")
            json.raw(days)
        }
        json.key("day")
        if let day { json.string(day) } else { json.null() }
        json.endObject()
        // `<` only occurs inside JSON strings, where \u003c means the same: no `</script>` can end the element.
        return scriptSafe(json.bytes)
    }

    /// Text for HTML element content and attribute values (``TextEscaping/xml(_:)``).
    static func escaped(_ text: String) -> String { TextEscaping.xml(text) }
}
