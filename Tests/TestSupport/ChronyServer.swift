import Glibc
import System

/// A real `chronyd` for reference-clock tests: started with `-x -d -f CONF` (it never touches the system clock),
/// its command port on 127.0.0.1 and a free port, a SOCK and an SHM refclock, and `chronyc` to read its sources.
///
/// Both refclocks are `noselect`: with `-x` chronyd still keeps its own estimate of the true time, and once it
/// selects a refclock it measures every later sample against that corrected estimate, so the offsets it shows
/// would decay to zero. Unselected, they stay the raw difference between the system clock and the reference.
public final class ChronyServer {
    public let directory: TemporaryDirectory
    public let socketPath: String
    public let sharedMemoryUnit: Int
    public let commandPort: Int
    public let process: ChildProcess

    /// One source as `chronyc -c -n sources` tells it.
    public struct Source: Sendable {
        public var name: String
        /// The reach register (octal in chronyc's output): one bit per poll with a sample, the newest lowest.
        public var reach: Int
        /// The last sample's offset as chronyc prints it: the system clock less the reference, in seconds.
        public var offsetSeconds: Double

        /// `true` when each of the seven polls before the newest had a sample. The newest is left out: chronyc is
        /// asked after the feed has stopped, and on a busy machine a poll can come between the two (reach `376`).
        public var hadASampleEveryPoll: Bool { (reach >> 1) & 0o177 == 0o177 }
    }

    public static var isAvailable: Bool { Tools.available("chronyd", "chronyc") }

    /// Starts chronyd with `refclock SOCK <dir>/refclock.sock refid NMEA` and `refclock SHM <unit> refid SHM`,
    /// each polled every second. The SOCK refclock's median filter is 1 sample long: at its default (64) chronyd
    /// waits for 4 samples between polls, which a 1 Hz receiver gives a 1 s poll only now and then (SHM's filter
    /// chronyd shortens by itself, as it polls the segment).
    public init(sharedMemoryUnit: Int) throws {
        directory = TemporaryDirectory("chronyd")
        socketPath = directory.file("refclock.sock")
        self.sharedMemoryUnit = sharedMemoryUnit
        commandPort = Ports.freeUDP()
        let configuration = """
            cmdport \(commandPort)
            bindcmdaddress 127.0.0.1
            bindcmdaddress \(directory.file("chronyd.sock"))
            pidfile \(directory.file("chronyd.pid"))
            refclock SOCK \(socketPath) refid NMEA poll 0 filter 1 noselect
            refclock SHM \(sharedMemoryUnit) refid SHM poll 0 noselect

            """
        directory.write(configuration, to: "chrony.conf")
        process = try ChildProcess(
            ["chronyd", "-x", "-d", "-u", "root", "-f", directory.file("chrony.conf")], newProcessGroup: true)
        let started = waitUntil(timeout: .seconds(10)) { [process, socketPath] in
            !process.isRunning || access(socketPath, F_OK) == 0
        }
        guard started, process.isRunning else {
            let error = process.error
            process.stop(SIGKILL)
            throw ChronyError(description: "chronyd did not start: \(error)")
        }
    }

    /// `chronyc -c -n sources`, parsed.
    public func sources() -> [Source] {
        guard
            let outcome = try? ChildProcess.run(
                ["chronyc", "-h", "127.0.0.1", "-p", String(commandPort), "-c", "-n", "sources"])
        else { return [] }
        return outcome.outputLines.compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 10, let reach = Int(fields[5], radix: 8), let offset = Double(fields[7]) else {
                return nil
            }
            return Source(name: String(fields[2]), reach: reach, offsetSeconds: offset)
        }
    }

    /// The source named `name` (`NMEA`, `SHM`), if chronyd lists it.
    public func source(_ name: String) -> Source? { sources().first { $0.name == name } }

    /// Stops chronyd and removes its directory.
    public func stop() {
        process.stop(SIGTERM, timeout: .seconds(10))
        directory.remove()
    }
}

public struct ChronyError: Error, CustomStringConvertible {
    public var description: String
}
