/// Text made safe for where it goes: the one escaping of XML and HTML, the one scrubbing of control characters, for
/// names that came from outside (a receiver's waypoint, a geocoder, a database, a client's request).
public enum TextEscaping {
    /// `true` for a control character: C0 (`U+0000`–`U+001F`), DEL, or C1 (`U+0080`–`U+009F`).
    @inlinable
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `true` when `text` holds a control character.
    public static func containsControl(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// `text` with every control character replaced by `replacement`: for a terminal, a file name, a log line.
    public static func replacingControls(_ text: String, with replacement: Unicode.Scalar = "?") -> String {
        guard containsControl(text) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isControl(scalar) ? replacement : scalar) }
        return String(scalars)
    }

    /// At most `limit` bytes of `bytes` as printable ASCII, anything else as `?`, and `…` when cut: for quoting
    /// what a peer or a file sent in a message.
    public static func printableASCII(_ bytes: some Collection<UInt8>, limit: Int) -> String {
        var result = String.UnicodeScalarView()
        for byte in bytes.prefix(limit) { result.append(byte >= 0x20 && byte < 0x7F ? Unicode.Scalar(byte) : "?") }
        return String(result) + (bytes.count > limit ? "…" : "")
    }

    /// `text` for XML or HTML text and attribute values: `&`, `<`, `>`, `"` and `'` as entities, and the control
    /// characters XML 1.0 allows nowhere (all but tab, line feed and carriage return) as `U+FFFD`.
    public static func xml(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        appendXML(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``xml(_:)``'s text to `out`.
    public static func appendXML(_ text: String, to out: inout [UInt8]) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += Array("&amp;".utf8)
            case "<": out += Array("&lt;".utf8)
            case ">": out += Array("&gt;".utf8)
            case "\"": out += Array("&quot;".utf8)
            case "'": out += Array("&apos;".utf8)
            case "\t", "\n", "\r": out.append(UInt8(scalar.value))
            default:
                if scalar.value < 0x20 {
                    out += Array("\u{FFFD}".utf8)
                } else {
                    out += Array(String(scalar).utf8)
                }
            }
        }
    }
}
