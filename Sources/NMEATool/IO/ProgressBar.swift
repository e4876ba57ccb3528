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
    private let start = MonotonicTime.now().seconds

    init(label: String, totalBytes: Int) {
        self.label = label
        self.totalBytes = max(totalBytes, 1)
    }

    /// A ``SentenceInput/onChunk`` handler that shows the bytes read over several files, one after another.
    func fileUpdater() -> (_ bytesRead: Int, _ fileSize: Int?) -> Void {
        var finishedBytes = 0
        var lastSize = 0
        var lastRead = 0
        return { read, size in
            if read < lastRead { finishedBytes += lastSize }  // a new file began
            lastRead = read
            lastSize = size ?? read
            self.update(finishedBytes + read)
        }
    }

    /// Shows `doneBytes` of the total, with `detail` (`12/365 files`) when given, the rate and the time left, cut to
    /// the terminal's width.
    func update(_ doneBytes: Int, detail: String? = nil) {
        let percent = min(100, doneBytes * 100 / totalBytes)
        let now = MonotonicTime.now().seconds
        guard percent != lastPercent || now - lastDraw >= 0.1 else { return }
        guard now - lastDraw >= 0.05 || percent == 100 else { return }
        lastPercent = percent
        lastDraw = now
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        var line = "\(label) [\(bar)] \(percent)% \(doneBytes / 1_000_000)/\(totalBytes / 1_000_000) MB"
        if let detail { line += ", \(detail)" }
        let elapsed = now - start
        if elapsed >= 1 && doneBytes > 0 {
            let rate = Double(doneBytes) / elapsed
            let left = Int(Double(totalBytes - doneBytes) / rate)
            line += ", \(Int(rate / 1_000_000)) MB/s, \(left / 60):\(left % 60 < 10 ? "0" : "")\(left % 60) left"
        }
        let columns = (try? FileDescriptor.standardError.windowSize().columns) ?? 80
        if line.count >= columns { line = String(line.prefix(max(columns - 1, 0))) }
        Console.error("\r\(line)\u{1B}[K")
        drawn = true
    }

    /// Erases the bar.
    func clear() {
        if drawn { Console.error("\r\u{1B}[K") }
        drawn = false
    }
}
