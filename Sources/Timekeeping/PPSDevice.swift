import CShims
import Glibc
import System

/// A kernel PPS source (`/dev/ppsN`, Linux's RFC 2783 implementation): each assert edge's time on the system clock,
/// fetched with `time_pps_fetch` (the `PPS_FETCH` ioctl).
///
/// A pulse marks the top of a UTC second; which second is told by the NMEA epoch that follows, so a pulse becomes a
/// ``TimeSample`` with ``TimeSample/isPulse`` and a reference time rounded to the nearest second, and chrony's
/// `refclock SOCK` (or SHM) uses only its fraction. On a machine without PPS the device is absent and
/// ``init(path:)`` says so.
public final class PPSDevice {
    public let path: String
    private let descriptor: Int32

    /// Why a PPS device cannot be used.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Opens `path` and checks that it is a PPS device.
    public init(path: String) throws(Unavailable) {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let error = Errno(rawValue: errno)
            let hint =
                error.rawValue == ENOENT
                ? "this machine exposes no such PPS device (is the pps-gpio or pps-ldisc module loaded?)"
                : "\(error)"
            throw Unavailable(description: "cannot open \(path): \(hint)")
        }
        guard nmea_pps_check(fd) == 0 else {
            close(fd)
            throw Unavailable(description: "\(path) is not a PPS device (PPS_GETPARAMS failed)")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Waits up to `timeoutMilliseconds` for the next assert edge; its time in nanoseconds since 1970 and sequence
    /// number, or `nil` when none came.
    public func fetch(timeoutMilliseconds: Int32 = 1500) -> (nanoseconds: Int64, sequence: UInt32)? {
        var nanoseconds: Int64 = 0
        var sequence: UInt32 = 0
        guard nmea_pps_fetch(descriptor, timeoutMilliseconds, &nanoseconds, &sequence) == 0 else { return nil }
        return (nanoseconds, sequence)
    }

    /// The pulse sample of an edge at `nanoseconds`: the reference is the nearest whole second.
    public static func sample(edgeAt nanoseconds: Int64) -> TimeSample {
        let second = (nanoseconds + 500_000_000) / 1_000_000_000 * 1_000_000_000
        return TimeSample(referenceNanoseconds: second, receivedNanoseconds: nanoseconds, isPulse: true)
    }
}
