import System

/// A one-line progress bar on standard error, redrawn at most every percent or tenth of a second.
///
/// Only for terminals: callers check ``Console/standardErrorIsTerminal`` first, so logs and pipes never see it.
final class ProgressBar {
    let label: String
    let totalBytes: Int
    private var lastPercent = -1
    private var lastDraw = 0.0
    private var drawn = false

    init(label: String, totalBytes: Int) {
        self.label = label
        self.totalBytes = max(totalBytes, 1)
    }

    /// Shows `doneBytes` of the total.
    func update(_ doneBytes: Int) {
        let percent = min(100, doneBytes * 100 / totalBytes)
        let now = MonotonicTime.now().seconds
        guard percent != lastPercent || now - lastDraw >= 0.1 else { return }
        guard now - lastDraw >= 0.05 || percent == 100 else { return }
        lastPercent = percent
        lastDraw = now
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let megabytes = "\(doneBytes / 1_000_000)/\(totalBytes / 1_000_000) MB"
        Console.error("\r\(label) [\(bar)] \(percent)% \(megabytes)\u{1B}[K")
        drawn = true
    }

    /// Erases the bar.
    func clear() {
        if drawn { Console.error("\r\u{1B}[K") }
        drawn = false
    }
}
