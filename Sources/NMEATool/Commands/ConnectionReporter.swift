import Pipeline

/// The status consumer of `nmea record` and `nmea serve`: each connection change as a line on standard error (the
/// error that ends a receiver is left to the command, which prints it once, as its error), and on a terminal the
/// status line, drawn after every batch of records and at least four times a second.
final class ConnectionReporter: RecordConsumer {
    private let console: StatusLine
    private let statusText: (() -> String)?
    private let onFinish: (() -> Void)?
    private var last: ReceiverStatus?

    /// - Parameters:
    ///   - statusText: the status line's text, made on the consumer's thread; `nil` for none.
    ///   - onFinish: called on the consumer's thread when the ring has ended.
    init(_ console: StatusLine, statusText: (() -> String)? = nil, onFinish: (() -> Void)? = nil) {
        self.console = console
        self.statusText = statusText
        self.onFinish = onFinish
    }

    /// How it reads: an idle call at least every 250 ms, to keep the line fresh.
    static let options = RingConsumerLoop.Options(batchSize: 64, idleInterval: .milliseconds(250))

    func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
        for record in records {
            guard case .status(let status) = record.content, status != last else { continue }
            last = status
            guard status.state != .ended, status.reason != .failed else { continue }
            console.print(status.summary)
        }
        draw()
    }

    func idle() { draw() }

    func finish() { onFinish?() }

    private func draw() {
        guard console.isEnabled, let statusText else { return }
        console.show(statusText())
    }
}
