import Glibc
import NMEA
import SerialPort

/// Writes NMEA into a pty at the current time, as a receiver would: each epoch (an RMC and a GGA naming second
/// *S*) is written `delay` after *S* on the system clock, and the writer's own reading of that clock is kept.
struct LiveEpochs {
    /// What the epochs say.
    enum Kind {
        /// A 3D fix with today's date.
        case fix
        /// No fix: RMC status V, GGA quality 0, no position.
        case noFix
        /// A fix whose date is `days` before today (a replayed old log).
        case daysAgo(Int)
    }

    var kind = Kind.fix
    var delayNanoseconds: Int64 = 50_000_000

    /// Nanoseconds since 1970 on the system clock.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Sleeps until `nanoseconds` on the system clock.
    static func sleep(until nanoseconds: Int64) {  // pacing under test: a receiver's epochs on their seconds
        var spec = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        while clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &spec, nil) == EINTR {}  // pacing under test
    }

    /// The epoch naming second `second` (since 1970).
    func epoch(second: Int64) -> String {
        var named = second
        if case .daysAgo(let days) = kind { named -= Int64(days) * 86_400 }
        let (date, time) = UTCDate.moment(secondsSinceEpoch: named)
        func two(_ value: some BinaryInteger) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let hms = two(time.hour) + two(time.minute) + two(time.second) + ".00"
        let dmy = two(date.day) + two(date.month) + two(Int(date.year) % 100)
        let rmc: String
        let gga: String
        switch kind {
        case .noFix:
            rmc = "GPRMC,\(hms),V,,,,,,,\(dmy),,,N"
            gga = "GPGGA,\(hms),,,,,0,00,99.99,,,,,,"
        case .fix, .daysAgo:
            rmc = "GPRMC,\(hms),A,4807.038,N,01131.000,E,000.0,000.0,\(dmy),,,A"
            gga = "GPGGA,\(hms),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
        }
        return LiveEpochs.sentence(rmc) + LiveEpochs.sentence(gga)
    }

    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let hex = Array("0123456789ABCDEF")
        return "$\(body)*\(hex[Int(checksum >> 4)])\(hex[Int(checksum & 15)])\r\n"
    }

    /// Writes `count` epochs, one a second; returns the writer's clock at each write (nanoseconds since 1970).
    @discardableResult
    func write(_ count: Int, to pty: PseudoTerminal) -> [(second: Int64, written: Int64)] {
        var writes: [(Int64, Int64)] = []
        for _ in 0..<count {
            let second = LiveEpochs.now() / 1_000_000_000 + 1
            LiveEpochs.sleep(until: second * 1_000_000_000 + delayNanoseconds)  // pacing under test: 1 Hz
            let written = LiveEpochs.now()
            try? pty.write(epoch(second: second))
            writes.append((second, written))
        }
        return writes
    }
}
