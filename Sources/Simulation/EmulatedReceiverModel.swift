/// A receiver emulated as a state machine (``UBloxReceiver``, ``MediaTekReceiver``): bytes from the host in, its
/// answers out; an epoch of output at its rate; its line at its baud rate. The pty around it is the caller's.
public protocol EmulatedReceiverModel: AnyObject {
    /// The time between epochs, ms.
    var epochMilliseconds: Int { get }
    /// The rate its serial line runs at.
    var lineRate: Int { get }
    /// Takes bytes the host sent: the answer, and the rate the line switches to once it is sent (if it does).
    func answer(_ bytes: [UInt8]) -> (bytes: [UInt8], baudRateAfter: Int?)
    /// Its output for the epoch at `nanoseconds` since 1970, `index` epochs after it started.
    func epoch(atNanoseconds nanoseconds: Int64, index: Int) -> [UInt8]
    /// The power goes off and on: what was not saved is lost.
    func powerCycle()
}

extension UBloxReceiver: EmulatedReceiverModel {
    public var epochMilliseconds: Int { settings.rateMilliseconds }
    public var lineRate: Int { settings.baudRate }
    public func answer(_ bytes: [UInt8]) -> (bytes: [UInt8], baudRateAfter: Int?) {
        let answer = receive(bytes)
        return (answer.bytes, answer.baudRateAfter)
    }
}
