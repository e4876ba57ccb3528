import CShims
import NMEA
import Testing
import Timekeeping

/// Which fixes may reach a clock, and each refusal counted by its reason.
struct TimeSamplerTests {
    /// 2030-01-01 00:00:00 UTC, after any build of this program.
    static let second: Int64 = 1_893_456_000

    /// A 3D fix at `second` with a date of its own, its first byte received `late` nanoseconds after.
    static func fix(at second: Int64 = second, late: Int64 = 50_000_000) -> Fix {
        let (date, time) = UTCDate.moment(secondsSinceEpoch: second)
        var fix = Fix(
            date: date, time: time, latitude: 48.1, longitude: 11.5, altitudeMeters: 545, quality: .gps,
            mode: .threeD)
        fix.dateIsFromEpoch = true
        fix.receivedNanoseconds = second * 1_000_000_000 + late
        return fix
    }

    @Test("A trusted fix gives a sample: the reference is the second named plus --time-offset")
    func acceptsATrustedFix() throws {
        var sampler = TimeSampler(delayNanoseconds: 20_000_000)
        let taken = sampler.sample(Self.fix())
        let sample = try #require(taken)
        #expect(sample.referenceNanoseconds == Self.second * 1_000_000_000 + 20_000_000)
        #expect(sample.receivedNanoseconds == Self.second * 1_000_000_000 + 50_000_000)
        #expect(abs(sample.offsetSeconds - -0.030) < 1e-9)
        #expect(sampler.accepted == 1 && sampler.refused == 0)
    }

    @Test("No fix, a provisional fix, a date not the epoch's own, no receive time: each refused and counted")
    func refusesUntrustedFixes() {
        var sampler = TimeSampler()
        var noFix = Self.fix()
        noFix.latitude = nil
        noFix.mode = .none
        var invalid = Self.fix()
        invalid.quality = .none
        var provisional = Self.fix()
        provisional.isProvisional = true
        var carried = Self.fix()
        carried.dateIsFromEpoch = false
        var unstamped = Self.fix()
        unstamped.receivedNanoseconds = nil
        for fix in [noFix, invalid, provisional, carried, unstamped] {
            let taken = sampler.sample(fix)
            #expect(taken == nil)
        }
        #expect(sampler.refusals == [.noFix: 2, .provisional: 1, .dateNotTrusted: 1, .noReceiveTime: 1])
        #expect(sampler.accepted == 0)
    }

    @Test("A time before the build date is refused (a rollover missed, an old log replayed)")
    func refusesBeforeBuildDate() throws {
        let build = try #require(BuildDate.nanoseconds)
        var sampler = TimeSampler()
        do {
            let taken = sampler.sample(Self.fix(at: build / 1_000_000_000 - 86_400))
            #expect(taken == nil)
        }
        #expect(sampler.refusals == [.beforeBuildDate: 1])
        do {
            let taken = sampler.sample(Self.fix(at: build / 1_000_000_000 + 86_400))
            #expect(taken != nil)
        }
    }

    @Test("A jump of the receiver's time is refused until 3 epochs in a row agree on the new offset")
    func refusesAJumpUntilConfirmed() {
        var sampler = TimeSampler()
        for n in 0..<3 {
            let taken = sampler.sample(Self.fix(at: Self.second + Int64(n)))
            #expect(taken != nil)
        }
        // The receiver's time jumps an hour ahead of the system clock's.
        func jumped(_ n: Int64) -> Fix {
            var fix = Self.fix(at: Self.second + 3_600 + n)
            fix.receivedNanoseconds = (Self.second + n) * 1_000_000_000 + 50_000_000
            return fix
        }
        do {
            let taken = sampler.sample(jumped(3))
            #expect(taken == nil)
        }
        do {
            let taken = sampler.sample(jumped(4))
            #expect(taken == nil)
        }
        do {
            let taken = sampler.sample(jumped(5))
            #expect(taken != nil)
        }
        #expect(sampler.refusals == [.timeJump: 2])
        // A slip of less than a second is no jump.
        do {
            let taken = sampler.sample(jumped(6))
            #expect(taken != nil)
        }
    }

    @Test("The build date reads from the compiler's __DATE__")
    func buildDateReads() throws {
        let day = try #require(BuildDate.day)
        #expect(day.year >= 2025)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let text = String(cString: nmea_build_date())
        #expect(text.hasPrefix(months[Int(day.month) - 1]))
    }

    @Test("chrony's sock_sample: 40 bytes on 64-bit Linux, magic SOCK, tv + offset = the reference")
    func chronyDatagram() {
        #expect(MemoryLayout<nmea_sock_sample>.size == 40)
        #expect(MemoryLayout<nmea_shm_time>.size == 96)
        let sample = TimeSample(
            referenceNanoseconds: Self.second * 1_000_000_000,
            receivedNanoseconds: Self.second * 1_000_000_000 + 50_123_456)
        let datagram = ChronySocket.datagram(sample)
        #expect(datagram.magic == 0x534f_434b)
        #expect(datagram.tv.tv_sec == Int(Self.second))
        #expect(datagram.tv.tv_usec == 50_123)
        #expect(abs(datagram.offset - -0.050_123) < 1e-9)
        #expect(datagram.pulse == 0 && datagram.leap == 0)
    }
}

/// ``Fix/receivedNanoseconds``: the time of the read that delivered the epoch's first byte.
struct ReceiveStampTests {
    @Test("An epoch's fix carries the read time of its first byte, across chunks that split sentences")
    func firstByteReadTime() {
        var reader = FixReader()
        let first = Array(LiveEpochs().epoch(second: TimeSamplerTests.second).utf8)
        let second = Array(LiveEpochs().epoch(second: TimeSamplerTests.second + 1).utf8)
        var fixes: [Fix] = []
        // Epoch 1: its RMC split across two reads.
        reader.noteRead(atNanoseconds: 1_000)
        reader.read(first[..<10]) { fixes.append($0) }
        reader.noteRead(atNanoseconds: 2_000)
        reader.read(first[10...]) { fixes.append($0) }
        // Epoch 2: read 5 µs later, its first sentence split again.
        reader.noteRead(atNanoseconds: 5_000)
        reader.read(second[..<20]) { fixes.append($0) }
        reader.noteRead(atNanoseconds: 6_000)
        reader.read(second[20...]) { fixes.append($0) }
        reader.finish { fixes.append($0) }
        #expect(fixes.map(\.receivedNanoseconds) == [1_000, 5_000])
        #expect(fixes.allSatisfy { $0.dateIsFromEpoch })
    }

    @Test("A reader never told its read times leaves receivedNanoseconds nil")
    func unstampedReader() {
        var reader = FixReader()
        var fixes: [Fix] = []
        reader.read(Array(LiveEpochs().epoch(second: TimeSamplerTests.second).utf8)) { fixes.append($0) }
        reader.finish { fixes.append($0) }
        #expect(fixes.count == 1 && fixes[0].receivedNanoseconds == nil)
    }
}
