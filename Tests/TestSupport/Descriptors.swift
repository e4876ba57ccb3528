import Glibc
import System

/// The bytes waiting to be read in a pipe, FIFO, socket or terminal that `descriptor` is open on (`ioctl(FIONREAD)`):
/// zero once the program at the other end has read everything written to it. `nil` when the descriptor cannot tell.
public func unreadBytes(in descriptor: FileDescriptor) -> Int? {
    var count: Int32 = 0
    let result = withUnsafeMutablePointer(to: &count) { ioctl(descriptor.rawValue, UInt(FIONREAD), $0) }
    return result == 0 ? Int(count) : nil
}
