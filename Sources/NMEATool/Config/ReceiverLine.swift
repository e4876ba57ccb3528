import NMEA
import SerialPort
import System
import UBX

/// A conversation with a receiver on its serial port for `nmea config`: messages out, answers framed as they come
/// in (UBX frames and NMEA sentences, the receiver's own output going on around them), each wait bounded.
final class ReceiverLine {
    let port: SerialPort
    let path: String
    private(set) var baudRate: BaudRate
    private var framer = Framer()
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)

    /// `false` when the port is someone else's (a live command's connection), left open at the end.
    private let closesPort: Bool

    init(port: SerialPort, path: String, baudRate: BaudRate, closesPort: Bool = true) {
        self.port = port
        self.path = path
        self.baudRate = baudRate
        self.closesPort = closesPort
    }

    deinit {
        buffer.deallocate()
        if closesPort { port.close() }
    }

    /// What the line brought while waiting.
    enum Heard {
        case frame(UBXMessageID, [UInt8])
        case sentence(String)
    }

    /// Sends `bytes`.
    func send(_ bytes: [UInt8]) throws(SerialPortError) {
        let result: Result<Void, SerialPortError> = bytes.withUnsafeBytes { raw in
            do throws(SerialPortError) {
                return .success(try port.write(raw))
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Reads until `match` returns a value or `timeout` passes (`nil`); the receiver's other output is skipped.
    func wait<T>(_ timeout: Duration, _ match: (Heard) -> T?) throws(SerialPortError) -> T? {
        let deadline = MonotonicTime.now() + timeout
        var found: T?
        while found == nil {
            let remaining = deadline - MonotonicTime.now()
            guard remaining > .zero else { return nil }
            switch try port.read(into: buffer, timeout: remaining, stop: nil) {
            case .data(let count):
                framer.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { event in
                    guard found == nil else { return }
                    switch event {
                    case .binaryFrame(let frame):
                        guard let ubx = UBXFrame(frame) else { return }
                        found = match(.frame(ubx.id, Array(ubx.payload.bytes)))
                    case .sentence(let sentence):
                        found = match(.sentence(String(decoding: sentence.bytes, as: UTF8.self)))
                    case .rejected:
                        break
                    }
                }
            case .timedOut, .stopped:
                return nil
            case .disconnected(let reason):
                throw SerialPortError(kind: .disconnected, path: path, operation: "read: \(reason)")
            }
        }
        return found
    }

    /// Changes the port's rate (the receiver's must change with it) and forgets a half-read frame.
    func setBaudRate(_ rate: BaudRate) throws(SerialPortError) {
        try port.setBaudRate(rate)
        baudRate = rate
        framer.reset()
    }

    /// Where a receiver told to change its rate was found.
    enum RateFollowed {
        /// Answering at the new rate, where the port now is.
        case answering
        /// Still answering at the old rate, where the port is again.
        case stayed
        /// Answering at neither.
        case lost
    }

    /// After a command that changes the receiver's rate (u-blox CFG-PRT or CFG-VALSET, MediaTek PMTK251): follows it
    /// to `rate` and asks whether it answers there (`answers`, MON-VER or PMTK605); when it does not, goes back to
    /// the old rate and asks again. The one rate switch of both conversations.
    func follow(to rate: BaudRate, answers: () throws(SerialPortError) -> Bool) throws(SerialPortError) -> RateFollowed
    {
        let old = baudRate
        try setBaudRate(rate)
        if try answers() { return .answering }
        try setBaudRate(old)
        return try answers() ? .stayed : .lost
    }
}
