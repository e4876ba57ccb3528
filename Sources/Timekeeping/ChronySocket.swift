import CShims
import Glibc
import System

/// Sends samples to chrony's `refclock SOCK PATH`: one `struct sock_sample` datagram each (receive time as a
/// `timeval`, offset of the reference from it in seconds, pulse flag, leap indicator, magic `0x534f434b`) over a
/// Unix datagram socket that chronyd binds at `PATH`.
///
/// chronyd may start after us or restart: a send it is not there for fails (`ENOENT`, `ECONNREFUSED`) and is
/// counted in ``failed``; the next one tries again.
public final class ChronySocket {
    public let path: String
    private let descriptor: Int32
    private var address = sockaddr_un()
    public private(set) var sent = 0
    public private(set) var failed = 0
    /// The errno of the latest failed send (0 for none).
    public private(set) var lastError: Int32 = 0

    /// Opens an unbound datagram socket for `path` (a path longer than `sun_path` throws `ENAMETOOLONG`).
    public init(path: String) throws(Errno) {
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Errno(rawValue: ENAMETOOLONG) }
        self.path = path
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// The datagram for `sample`, as chrony reads it.
    public static func datagram(_ sample: TimeSample) -> nmea_sock_sample {
        var datagram = nmea_sock_sample()
        let seconds = sample.receivedNanoseconds / 1_000_000_000
        let remainder = sample.receivedNanoseconds % 1_000_000_000
        datagram.tv.tv_sec = Int(seconds)
        datagram.tv.tv_usec = Int(remainder / 1000)
        // chrony adds the offset to the receive time to get the reference's: the microseconds cut from `tv` are
        // put back here.
        datagram.offset =
            Double(sample.referenceNanoseconds - (seconds * 1_000_000_000 + remainder / 1000 * 1000)) / 1e9
        datagram.pulse = sample.isPulse ? 1 : 0
        datagram.leap = sample.leap.rawValue
        datagram.magic = 0x534f_434b
        return datagram
    }

    /// Sends `sample`; `false` (counted) when chronyd did not take it.
    @discardableResult
    public func send(_ sample: TimeSample) -> Bool {
        var datagram = ChronySocket.datagram(sample)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(
                    descriptor, &datagram, MemoryLayout<nmea_sock_sample>.size, Int32(MSG_DONTWAIT), socketAddress,
                    socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result == MemoryLayout<nmea_sock_sample>.size {
            sent += 1
            return true
        }
        failed += 1
        lastError = errno
        return false
    }
}
