/// Colors and sizes shared by the parts of the picture.
enum Palette {
    static let background = "#ffffff"
    static let map = "#f4f2ec"
    static let mapBorder = "#c9c4b6"
    static let text = "#222222"
    static let mutedText = "#5c5c5c"
    static let grid = "#e4e4e4"
    static let frame = "#9a9a9a"
    static let start = RGB(0x1a, 0x98, 0x50)
    static let end = RGB(0x1b, 0x1b, 0x1b)
    static let stop = RGB(0x7b, 0x32, 0x94)
    static let stopSpan = "#d9c2e8"
    static let plainTrack = RGB(0x1f, 0x5f, 0xa8)
    static let speedLine = "#2c7bb6"
    static let altitudeLine = "#8c6d31"
    static let altitudeFill = "#e3d6bb"
}
