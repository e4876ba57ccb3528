import CShims
import Glibc
import System

/// Writes samples into NTP's shared-memory reference clock segment: unit *N* is the System V segment with key
/// `0x4e545030 + N` that ntpd's `127.127.28.N` driver and chrony's `refclock SHM N` read (`struct shmTime`, mode 1:
/// a count bumped before and after each write, and `valid` set last).
///
/// As gpsd does, units 0 and 1 are made readable and writable by root only (`0600`: only root may feed ntpd's
/// trusted units), units 2 and up by everyone (`0666`). A segment that already exists is reused as it is.
public final class NTPSharedMemory {
    /// The key of unit 0 ("NTP0").
    public static let baseKey: Int32 = 0x4e54_5030
    public let unit: Int
    public let identifier: Int32
    private let segment: UnsafeMutablePointer<nmea_shm_time>
    public private(set) var written = 0

    /// Attaches unit `unit`, creating its segment if there is none.
    /// - Throws: the `shmget` or `shmat` errno: `EACCES` for a unit 0–1 segment when not root.
    public init(unit: Int) throws(Errno) {
        precondition(unit >= 0 && unit < 256, "an NTP SHM unit is 0…255")
        self.unit = unit
        let mode: Int32 = unit < 2 ? 0o600 : 0o666
        let id = shmget(
            key_t(NTPSharedMemory.baseKey + Int32(unit)), MemoryLayout<nmea_shm_time>.size, IPC_CREAT | mode)
        guard id >= 0 else { throw Errno(rawValue: errno) }
        guard let address = shmat(id, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw Errno(rawValue: errno)
        }
        identifier = id
        segment = address.bindMemory(to: nmea_shm_time.self, capacity: 1)
    }

    deinit { shmdt(segment) }

    /// Writes `sample` (reference and receive times, leap indicator; precision 2⁻¹⁰ s, about a serial line's).
    public func write(_ sample: TimeSample) {
        nmea_shm_store(segment, sample.referenceNanoseconds, sample.receivedNanoseconds, sample.leap.rawValue, -10)
        written += 1
    }

    /// Marks the segment for removal once every process has detached (for tests that made their own).
    public static func remove(identifier: Int32) {
        shmctl(identifier, IPC_RMID, nil)
    }

    /// Whether unit `unit`'s segment exists already (someone such as gpsd may hold it).
    public static func exists(unit: Int) -> Bool {
        shmget(key_t(baseKey + Int32(unit)), 0, 0) >= 0
    }
}

extension NTPSharedMemory {
    /// Removes unit `unit`'s segment, if there is one (tests that made theirs, through chronyd or us).
    public static func remove(unit: Int) {
        let id = shmget(key_t(baseKey + Int32(unit)), 0, 0)
        if id >= 0 { remove(identifier: id) }
    }

    /// The first unit from `start` up with no segment yet (another process such as gpsd may hold some).
    public static func firstFreeUnit(from start: Int = 2) -> Int? {
        (start..<256).first { !exists(unit: $0) }
    }
}
