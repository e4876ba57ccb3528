import Testing
import Watch

/// The writer's half: the escape sequences between two canvases, and the canvas's cells.
@Suite struct ScreenUpdateTests {
    static let escape = "\u{1B}["

    static func canvas(_ lines: [String], inverse: Set<Int> = []) -> Canvas {
        var canvas = Canvas(columns: 10, rows: lines.count)
        for (row, line) in lines.enumerated() { canvas.put(line, row: row, column: 0) }
        canvas.inverseRows = inverse
        return canvas
    }

    @Test func firstFrameClearsAndDrawsEveryRow() {
        let next = Self.canvas(["title", "body"], inverse: [0])
        let e = Self.escape
        #expect(
            ScreenUpdate.update(from: nil, to: next)
                == "\(e)0m\(e)H\(e)2J\(e)1;1H\(e)7mtitle     \(e)0m\(e)2;1Hbody      ")
    }

    @Test func nothingChangedWritesNothing() {
        let frame = Self.canvas(["title", "body"], inverse: [0])
        #expect(ScreenUpdate.update(from: frame, to: frame) == "")
    }

    @Test func onlyTheChangedStretchIsWritten() {
        let before = Self.canvas(["age 0.4 s", "fixed"])
        let after = Self.canvas(["age 0.5 s", "fixed"])
        #expect(ScreenUpdate.update(from: before, to: after) == "\(Self.escape)1;7H5")
        let further = Self.canvas(["age 1.0 s", "fixed"])
        #expect(ScreenUpdate.update(from: before, to: further) == "\(Self.escape)1;5H1.0")
    }

    @Test func changedInverseRowIsRedrawnWhole() {
        let before = Self.canvas(["a", "b"], inverse: [])
        let after = Self.canvas(["a", "b"], inverse: [0])
        #expect(
            ScreenUpdate.update(from: before, to: after)
                == "\(Self.escape)1;1H\(Self.escape)7ma         \(Self.escape)0m")
    }

    @Test func aNewSizeRedrawsEverything() {
        let before = Self.canvas(["a"])
        var after = Canvas(columns: 4, rows: 1)
        after.put("a", row: 0, column: 0)
        #expect(
            ScreenUpdate.update(from: before, to: after)
                == "\(Self.escape)0m\(Self.escape)H\(Self.escape)2J\(Self.escape)1;1Ha   ")
    }

    @Test func wideCharactersAreNeverSplit() {
        var before = Canvas(columns: 6, rows: 1)
        before.put("ab日c", row: 0, column: 0)
        #expect(before.cells[0] == ["a", "b", "日", "", "c", " "])
        var after = before
        after.put("月", row: 0, column: 2)
        #expect(ScreenUpdate.update(from: before, to: after) == "\(Self.escape)1;3H月")
        // Writing over the right half of a wide character blanks its left half.
        var over = before
        over.put("x", row: 0, column: 3)
        #expect(over.cells[0] == ["a", "b", " ", "x", "c", " "])
        #expect(ScreenUpdate.update(from: before, to: over) == "\(Self.escape)1;3H x")
        // A wide character that would stick out of the canvas leaves a blank.
        var edge = Canvas(columns: 3, rows: 1)
        edge.put("ab日", row: 0, column: 0)
        #expect(edge.lines == ["ab "])
    }

    @Test func controlCharactersNeverReachTheTerminal() {
        var canvas = Canvas(columns: 12, rows: 1)
        canvas.put("a\u{1B}[31mb\u{9B}c\u{7}", row: 0, column: 0)
        #expect(canvas.lines == ["a?[31mb?c?  "])
    }

    @Test func textMeasures() {
        #expect(Canvas.width(of: "Zürich") == 6)
        #expect(Canvas.width(of: "東京") == 4)
        #expect(Canvas.width(of: "e\u{301}") == 1)
        #expect(Canvas.truncate("Sydney, New South Wales", to: 10, ellipsis: "…") == "Sydney, N…")
        #expect(Canvas.truncate("東京都", to: 4, ellipsis: "…") == "東…")
        #expect(Canvas.truncate("short", to: 10, ellipsis: "...") == "short")
    }

    @Test func enterAndLeaveUseTheAlternateScreen() {
        #expect(ScreenUpdate.enter.hasPrefix("\(Self.escape)?1049h\(Self.escape)?25l\(Self.escape)?7l"))
        #expect(ScreenUpdate.leave == "\(Self.escape)0m\(Self.escape)?7h\(Self.escape)?25h\(Self.escape)?1049l")
    }
}
