import SerialPort

/// What the commands that read a receiver share (`record`, `serve`, `watch`).
enum ReceiverOptions {
    /// `--baud RATE|auto`: a standard rate, or `nil` to find it (autobaud).
    static func baudRate(_ arguments: ParsedArguments) throws(UsageError) -> BaudRate? {
        guard let text = arguments.value("baud"), text != "auto" else { return nil }
        guard let number = Int(text), let rate = BaudRate(rawValue: number) else {
            throw arguments.invalid(text, for: "baud", because: "expected a standard rate (4800…921600) or 'auto'")
        }
        return rate
    }
}
