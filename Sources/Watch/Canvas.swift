import Presentation

/// A grid of terminal cells that text and boxes are drawn on; a line of it is exactly `columns` cells wide.
///
/// Each cell holds one character (a grapheme cluster). A wide character (CJK, most emoji) takes two cells: its own,
/// then an empty continuation cell. Control characters never get in: they are drawn as `?`, so text from a device
/// or a network peer cannot send escape sequences to the terminal.
public struct Canvas: Sendable, Hashable {
    public let columns: Int
    public let rows: Int
    /// `cells[row][column]`: a character, or `""` for the right half of a wide character.
    public private(set) var cells: [[String]]
    /// Rows drawn in reverse video (the header and footer bars).
    public var inverseRows: Set<Int> = []

    /// A blank canvas.
    /// - Complexity: O(`columns` × `rows`).
    public init(columns: Int, rows: Int) {
        self.columns = max(columns, 0)
        self.rows = max(rows, 0)
        cells = Array(repeating: Array(repeating: " ", count: self.columns), count: self.rows)
    }

    /// The rows as text, each `columns` cells wide.
    public var lines: [String] { cells.map { $0.joined() } }

    /// Draws `text` from (`row`, `column`), clipped to `width` cells (and to the canvas). Returns the cells used.
    /// - Complexity: O(*n*) in the text.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, width: Int? = nil) -> Int {
        guard row >= 0, row < rows, column < columns else { return 0 }
        let end = min(columns, width.map { column + max($0, 0) } ?? columns)
        var x = column
        for character in text {
            let shown = Canvas.printable(character)
            let cellWidth = Canvas.width(of: shown)
            if cellWidth == 0 { continue }
            if x + cellWidth > end {
                // A wide character that does not fit in the last cell leaves a blank there.
                if x < end && x >= 0 { set(" ", row: row, column: x) }
                break
            }
            if x >= 0 {
                set(shown, row: row, column: x)
                if cellWidth == 2 {
                    if x + 1 < columns, cells[row].indices.contains(x + 2), cells[row][x + 2] == "" {
                        cells[row][x + 2] = " "
                    }
                    cells[row][x + 1] = ""
                }
            }
            x += cellWidth
        }
        return x - column
    }

    private mutating func set(_ character: String, row: Int, column: Int) {
        if cells[row][column] == "" && column > 0 { cells[row][column - 1] = " " }
        if column + 1 < columns && cells[row][column + 1] == "" { cells[row][column + 1] = " " }
        cells[row][column] = character
    }

    /// Draws a box with `title` in its top border: `┌─ Fix ───┐`.
    public mutating func box(row: Int, column: Int, width: Int, height: Int, title: String, glyphs: Glyphs) {
        guard width >= 2, height >= 2 else { return }
        let inner = width - 2
        var top = glyphs.horizontal
        if !title.isEmpty && inner >= 4 {
            top += " " + Canvas.truncate(title, to: inner - 3, ellipsis: glyphs.ellipsis) + " "
        }
        top += String(repeating: glyphs.horizontal, count: max(0, inner - Canvas.width(of: top)))
        put(glyphs.topLeft + top + glyphs.topRight, row: row, column: column, width: width)
        for y in (row + 1)..<(row + height - 1) {
            put(glyphs.vertical, row: y, column: column, width: 1)
            put(glyphs.vertical, row: y, column: column + width - 1, width: 1)
        }
        put(
            glyphs.bottomLeft + String(repeating: glyphs.horizontal, count: inner) + glyphs.bottomRight,
            row: row + height - 1, column: column, width: width)
    }

    // MARK: Text measures

    /// The character as drawn: control characters (C0, DEL, C1) become `?`.
    static func printable(_ character: Character) -> String {
        for scalar in character.unicodeScalars where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
            return "?"
        }
        return String(character)
    }

    /// Cells a character takes: 2 for East Asian wide and fullwidth characters and emoji, 0 for a lone combining or
    /// format character, 1 otherwise (as `wcwidth` has it for the common cases).
    public static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        return width(of: first)
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value < 0x1100 { return 1 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// Cells the text takes.
    public static func width(of text: String) -> Int {
        text.reduce(0) { $0 + width(of: Character(printable($1))) }
    }

    /// `text` cut to at most `width` cells from its start, beginning with `ellipsis` when cut (`…/logs/day.nmea`).
    public static func truncateLeading(_ text: String, to width: Int, ellipsis: String) -> String {
        guard width > 0 else { return "" }
        if Canvas.width(of: text) <= width { return text }
        let room = width - Canvas.width(of: ellipsis)
        guard room > 0 else { return String(text.suffix(width)) }
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            let cells = Canvas.width(of: Character(printable(character)))
            if used + cells > room { break }
            kept.append(character)
            used += cells
        }
        return ellipsis + String(kept.reversed())
    }

    /// `text` cut to at most `width` cells, ending in `ellipsis` when cut.
    public static func truncate(_ text: String, to width: Int, ellipsis: String) -> String {
        guard width > 0 else { return "" }
        if Canvas.width(of: text) <= width { return text }
        let room = width - Canvas.width(of: ellipsis)
        guard room > 0 else { return String(text.prefix(width)) }
        var result = ""
        var used = 0
        for character in text {
            let cells = Canvas.width(of: Character(printable(character)))
            if used + cells > room { break }
            result.append(character)
            used += cells
        }
        return result + ellipsis
    }

    /// `text` padded with spaces on the left to `width` cells.
    public static func padLeft(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - Canvas.width(of: text))) + text
    }

    /// `text` padded with spaces on the right to `width` cells.
    public static func padRight(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - Canvas.width(of: text)))
    }
}
