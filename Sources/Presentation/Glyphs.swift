/// The characters the screen is drawn with: box drawing, block elements and symbols on a UTF-8 terminal, plain ASCII
/// elsewhere (a `C` or `POSIX` locale, where a terminal or tmux would show non-ASCII bytes as `_` or garbage).
public struct Glyphs: Sendable, Hashable {
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    public var horizontal: String
    public var vertical: String
    /// A whole cell of a signal bar.
    public var barFull: String
    /// Partly filled cells, one eighth to seven eighths (empty for ASCII: bars round to whole cells).
    public var barEighths: [String]
    /// The unfilled part of a bar.
    public var barEmpty: String
    /// Marks a satellite used in the solution.
    public var used: String
    /// After decimal degrees and the degrees of degrees-minutes (`°`; nothing in ASCII).
    public var degree: String
    /// Separates the parts of the header and footer.
    public var separator: String
    /// Ends text cut short.
    public var ellipsis: String
    /// The horizon circle of the sky plot.
    public var horizon: String
    /// The zenith of the sky plot.
    public var zenith: String
    /// "times" in a replay speed (`10×`).
    public var times: String

    public static let unicode = Glyphs(
        topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│",
        barFull: "█", barEighths: ["▏", "▎", "▍", "▌", "▋", "▊", "▉"], barEmpty: "░", used: "✓", degree: "°",
        separator: " · ", ellipsis: "…", horizon: "·", zenith: "+", times: "×")

    public static let ascii = Glyphs(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|",
        barFull: "#", barEighths: [], barEmpty: ".", used: "*", degree: "", separator: " | ", ellipsis: "...",
        horizon: ".", zenith: "+", times: "x")

    /// Unicode when the locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`, as setlocale
    /// reads them), ASCII otherwise.
    public static func forLocale(_ environment: (String) -> String?) -> Glyphs {
        let name =
            [environment("LC_ALL"), environment("LC_CTYPE"), environment("LANG")]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let lower = name.lowercased()
        return lower.contains("utf-8") || lower.contains("utf8") ? .unicode : .ascii
    }
}
