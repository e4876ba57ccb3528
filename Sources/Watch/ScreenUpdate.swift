/// The escape sequences that take a terminal from one ``Canvas`` to the next: only the cells that changed are
/// written, each changed stretch of a row after one cursor movement.
///
/// Sequences used (ECMA-48 / VT100, as xterm, tmux and the Linux console all take them):
///
/// | sequence | meaning |
/// | --- | --- |
/// | `ESC [ ? 1049 h` / `l` | switch to / back from the alternate screen (the shell's screen comes back as it was) |
/// | `ESC [ ? 25 l` / `h` | hide / show the cursor |
/// | `ESC [ ? 7 l` / `h` | auto-wrap off / on (so writing the last cell never scrolls) |
/// | `ESC [ 2 J` | erase the whole screen |
/// | `ESC [ row ; column H` | move the cursor (1-based) |
/// | `ESC [ 7 m` / `ESC [ 0 m` | reverse video / normal |
public enum ScreenUpdate {
    static let escape = "\u{1B}["

    /// Entering the full-screen view: alternate screen, cursor hidden, no auto-wrap, screen cleared.
    public static let enter =
        escape + "?1049h" + escape + "?25l" + escape + "?7l" + escape + "0m" + escape + "H"
        + escape + "2J"
    /// Leaving it: attributes reset, auto-wrap and cursor back, the shell's screen restored.
    public static let leave = escape + "0m" + escape + "?7h" + escape + "?25h" + escape + "?1049l"

    /// The text that turns `previous` (what the terminal shows; `nil` when unknown, after a resize or a
    /// suspension) into `next`. Empty when nothing changed.
    /// - Complexity: O(cells).
    public static func update(from previous: Canvas?, to next: Canvas) -> String {
        var output = ""
        let full = previous.map { $0.columns != next.columns || $0.rows != next.rows } ?? true
        if full { output += escape + "0m" + escape + "H" + escape + "2J" }
        for row in 0..<next.rows {
            let cells = next.cells[row]
            let inverse = next.inverseRows.contains(row)
            var first = 0
            var last = cells.count - 1
            if !full, let previous, previous.inverseRows.contains(row) == inverse {
                let old = previous.cells[row]
                guard let start = cells.indices.first(where: { cells[$0] != old[$0] }) else { continue }
                first = start
                last = cells.indices.last(where: { cells[$0] != old[$0] })!
                // Never start or end in the middle of a wide character.
                if cells[first] == "" && first > 0 { first -= 1 }
                if last + 1 < cells.count && cells[last + 1] == "" { last += 1 }
            }
            guard last >= first else { continue }
            output += escape + "\(row + 1);\(first + 1)H"
            if inverse { output += escape + "7m" }
            output += cells[first...last].joined()
            if inverse { output += escape + "0m" }
        }
        return output
    }
}
