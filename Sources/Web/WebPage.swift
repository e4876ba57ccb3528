import JSON
import NMEA
import Watch

/// The page: one HTML document with its style and script inside, rendered with the state as it is, so the first
/// response already shows the position, the status and the trips (the script then keeps them live from
/// `/api/events`, and draws the map, the sky plot and the trip table).
enum WebPage {
    /// The `Content-Security-Policy` header: nothing loads from anywhere but this server (and the tile server, when
    /// one is given).
    static func contentSecurityPolicy(tiles: String?) -> String {
        var images = "'self' data:"
        if let tiles, let origin = origin(of: tiles) { images += " " + origin }
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

    static func render(_ snapshot: WebState.Snapshot, tiles: String?) -> [UInt8] {
        var html = template
        let fix = snapshot.position
        func value(_ text: String?) -> String { text.map(escaped) ?? "–" }
        let replacements: [(String, String)] = [
            ("{{decimal}}", value(fix.flatMap(WebConsumer.decimalDegrees))),
            ("{{dm}}", value(snapshot.degreesMinutes)),
            ("{{place}}", value(snapshot.place ?? (fix == nil ? nil : "no place name"))),
            ("{{fix}}", value(fix.map(Formatting.fixKind))),
            ("{{time}}", value(fix.flatMap { $0.timestamp }.map { ISO8601.string($0) })),
            ("{{initial}}", initialJSON(snapshot, tiles: tiles)),
        ]
        for (placeholder, text) in replacements {
            html = html.replacing(placeholder, with: text)
        }
        return Array(html.utf8)
    }

    /// `{"position":…,"status":…,"trips":…,"satellites":…,"tiles":…}` for the script, safe inside `<script>`.
    static func initialJSON(_ snapshot: WebState.Snapshot, tiles: String?) -> String {
        var json = JSONWriter(capacity: 4096 + snapshot.trips.count)
        json.beginObject()
        json.key("position")
        json.raw(WebRoutes.position(snapshot))
        json.key("status")
        json.raw(snapshot.status)
        json.key("trips")
        json.raw(snapshot.trips)
        json.key("satellites")
        json.raw(snapshot.satellites)
        json.key("tiles")
        if let tiles { json.string(tiles) } else { json.null() }
        json.endObject()
        // `<` only occurs inside JSON strings, where \u003c means the same: no `</script>` can end the element.
        var text = ""
        text.reserveCapacity(json.bytes.count)
        for scalar in String(decoding: json.bytes, as: UTF8.self).unicodeScalars {
            if scalar == "<" { text += "\\u003c" } else { text.unicodeScalars.append(scalar) }
        }
        return text
    }

    /// Text for HTML element content and attribute values.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
