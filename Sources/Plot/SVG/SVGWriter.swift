import NMEA

/// Writes SVG markup into a string: elements, escaped text, and numbers with one decimal (a tenth of a pixel is
/// finer than any screen shows, and keeps the file small).
struct SVGWriter {
    private(set) var text = ""
    private var depth = 0

    init() {
        text.reserveCapacity(64 * 1024)
    }

    /// A number for the picture (``DecimalFormatter``): at most `maximumDecimals` decimals, trailing zeros dropped
    /// — one by default, for pixel coordinates and lengths — and `0` for NaN and the infinities, which SVG lacks.
    static func number(_ value: Double, maximumDecimals: Int = 1) -> String {
        value.isFinite ? DecimalFormatter.string(value, maximumDecimals: maximumDecimals) : "0"
    }

    /// A number for machines (the `data-` attributes): its shortest exact digits, `0` for NaN and the infinities.
    static func exact(_ value: Double) -> String { value.isFinite ? DecimalFormatter.string(value) : "0" }

    /// `&`, `<`, `>`, `"` and `'` escaped for text and attribute values (``TextEscaping/xml(_:)``).
    static func escape(_ value: String) -> String { TextEscaping.xml(value) }

    mutating func raw(_ markup: String) { text += markup }

    mutating func comment(_ content: String) {
        indent()
        text += "<!-- " + content.replacingDoubleHyphens() + " -->\n"
    }

    /// `<name a="1" …>` and one level deeper.
    mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        indent()
        text += "<" + name
        append(attributes)
        text += ">\n"
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        indent()
        text += "</" + name + ">\n"
    }

    /// `<name a="1" …/>`.
    mutating func element(_ name: String, _ attributes: [(String, String)]) {
        indent()
        text += "<" + name
        append(attributes)
        text += "/>\n"
    }

    /// `<name …>content</name>` with `content` escaped.
    mutating func element(_ name: String, _ attributes: [(String, String)], content: String) {
        indent()
        text += "<" + name
        append(attributes)
        text += ">" + Self.escape(content) + "</" + name + ">\n"
    }

    private mutating func append(_ attributes: [(String, String)]) {
        for (key, value) in attributes {
            text += " " + key + "=\"" + Self.escape(value) + "\""
        }
    }

    private mutating func indent() {
        for _ in 0..<depth { text += " " }
    }
}

/// Path data (`d`): `M x y L x y x y …`, numbers with one decimal.
struct PathData {
    private(set) var text = ""
    private(set) var isEmpty = true

    /// Adds `points` as one subpath. A single point becomes a dot (a tiny segment drawn with round caps).
    mutating func addLine(_ points: [PixelPoint]) {
        guard let first = points.first else { return }
        text += "M" + SVGWriter.number(first.x) + " " + SVGWriter.number(first.y)
        if points.count == 1 {
            text += "h0.1"
        } else {
            text += "L"
            for (index, point) in points.dropFirst().enumerated() {
                if index > 0 { text += " " }
                text += SVGWriter.number(point.x) + " " + SVGWriter.number(point.y)
            }
        }
        isEmpty = false
    }

    /// Adds `points` as a closed area down to `baseline`.
    mutating func addArea(_ points: [PixelPoint], baseline: Double) {
        guard let first = points.first, let last = points.last else { return }
        text += "M" + SVGWriter.number(first.x) + " " + SVGWriter.number(baseline) + "L"
        for point in points { text += SVGWriter.number(point.x) + " " + SVGWriter.number(point.y) + " " }
        text += SVGWriter.number(last.x) + " " + SVGWriter.number(baseline) + "Z"
        isEmpty = false
    }
}

extension String {
    /// `--` is not allowed inside an XML comment.
    fileprivate func replacingDoubleHyphens() -> String {
        var out = ""
        var previousWasHyphen = false
        for character in self {
            if character == "-" && previousWasHyphen {
                out += " -"
                previousWasHyphen = true
                continue
            }
            previousWasHyphen = character == "-"
            out.append(character)
        }
        return out
    }
}
