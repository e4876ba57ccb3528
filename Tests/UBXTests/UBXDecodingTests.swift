import CAllocationCounter
import Foundation
import Geodesy
import JSON
import NMEA
import Simulation
import Testing
import UBX

@Suite struct UBXDecodingTests {
    /// The fixes of `bytes`, read through the one stream with UBX decoding, in chunks of `chunk` bytes.
    static func fixes(_ bytes: [UInt8], chunk: Int = .max) -> [Fix] {
        var reader = FixReader(options: FixReader.Options(frameDecoder: UBXEpochs.report))
        var fixes: [Fix] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            reader.read(bytes[start..<end]) { fixes.append($0) }
            start = end
        }
        reader.finish { fixes.append($0) }
        return fixes
    }

    @Test("NAV-PVT: every field in units, and one fix with its accuracies")
    func navPVT() throws {
        let frame = UBXSamples.navPVT()
        #expect(Array(frame.prefix(6)) == [0xB5, 0x62, 0x01, 0x07, 92, 0])
        let fixes = Self.fixes(frame)
        let fix = try #require(fixes.first)
        #expect(fixes.count == 1)
        #expect(fix.date == UTCDate(year: 2026, month: 12, day: 6))
        #expect(fix.time == UTCTime(hour: 10, minute: 20, second: 30, nanoseconds: 400_000_000))
        #expect(fix.latitude == 48.1374)
        #expect(fix.longitude == 11.5755)
        #expect(fix.altitudeMeters == 520.1)
        #expect(abs((fix.geoidSeparationMeters ?? 0) - 47.7) < 1e-9)
        #expect(fix.mode == .threeD)
        #expect(fix.quality == .differential)
        #expect(fix.speed == 3.536)
        #expect(fix.courseDegrees == 315)
        #expect(fix.climb == 0.1)
        #expect(fix.pdop == 1.45)
        #expect(fix.satellitesUsed == 14)
        #expect(fix.horizontalErrorMeters == 1.25)
        #expect(fix.verticalErrorMeters == 2.1)
        #expect(fix.speedErrorMetersPerSecond == 0.3)
        #expect(fix.timeErrorSeconds == 25e-9)
    }

    @Test("NAV-PVT as a JSON line: the interface description's names, in units")
    func navPVTJSON() throws {
        let frame = UBXSamples.navPVT()
        var json = JSONWriter()
        frame.withUnsafeBytes { bytes in
            json.writeUBX(UBXFrame(BinaryFrame(kind: .ubx, bytes: bytes))!)
        }
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(
            text.hasPrefix(
                "{\"protocol\":\"UBX\",\"message\":\"NAV-PVT\",\"iTOW\":\(UBXSamples.sundayTimeOfWeek),\"year\":2026,"
                    + "\"month\":12,\"day\":6,\"hour\":10,\"min\":20,\"sec\":30,\"valid\":7,\"tAcc\":25,"
                    + "\"nano\":400000000,\"fixType\":3,\"flags\":3,\"flags2\":0,\"numSV\":14,\"lon\":11.5755,"
                    + "\"lat\":48.1374,\"height\":567.8,\"hMSL\":520.1,\"hAcc\":1.25,\"vAcc\":2.1,\"velN\":2.5,"
                    + "\"velE\":-2.5,\"velD\":-0.1,\"gSpeed\":3.536,\"headMot\":315,"), "\(text)")
        #expect(text.hasSuffix("\"magDec\":3.5,\"magAcc\":0.5}"), "\(text)")
    }

    @Test("a fix type of none, or a position flagged invalid, gives a fix without a position")
    func noFix() throws {
        let fixes = Self.fixes(UBXSamples.navPVT(fixType: 0, flags: 0))
        #expect(fixes.count == 1)
        #expect(fixes.first?.hasPosition == false)
        #expect(fixes.first?.latitude == nil)
    }

    @Test("Earth-centred to WGS 84: gpsd's values for a receiver in Oregon, and the poles and the equator")
    func earthCentred() {
        let (latitude, longitude, height) = Geodesy.geodetic(x: -2_386_071.16, y: -3_922_189.40, z: 4_414_361.02)
        #expect(abs(latitude - 44.068817081) < 5e-10)
        #expect(abs(longitude - -121.314317437) < 5e-10)
        #expect(abs(height - 1110.2328) < 5e-5)
        let pole = Geodesy.geodetic(x: 0, y: 0, z: 6_356_752.314_245 + 10)
        #expect(pole.latitude == 90)
        #expect(abs(pole.height - 10) < 1e-6)
        let equator = Geodesy.geodetic(x: 6_378_137 + 100, y: 0, z: 0)
        #expect(abs(equator.latitude) < 1e-12)
        #expect(equator.longitude == 0)
        #expect(abs(equator.height - 100) < 1e-6)
    }

    @Test("NAV-SOL and NAV-TIMEGPS: the position from Earth-centred coordinates, the date from the GPS week")
    func navSOLWithWeek() throws {
        let iTOW: UInt32 = 86_400_000 * 3 + 2 * 3_600_000 + 15_000 + 18_000  // Wednesday 02:00:15 UTC
        let bytes =
            UBXSamples.navSOL(
                iTOW: iTOW, week: 2043, x: -238_607_116, y: -392_218_940, z: 441_436_102, vx: 100, vy: 0, vz: 0)
            + UBXSamples.navTIMEGPS(iTOW: iTOW, week: 2043, leapSeconds: 18)
            + UBXSamples.navEOE(iTOW: iTOW)
        let fix = try #require(Self.fixes(bytes).first)
        #expect(fix.date == UTCDate(year: 2019, month: 3, day: 6))
        #expect(fix.time == UTCTime(hour: 2, minute: 0, second: 15))
        #expect(abs((fix.latitude ?? 0) - 44.068817081) < 5e-10)
        #expect(abs((fix.longitude ?? 0) - -121.314317437) < 5e-10)
        #expect(fix.mode == .threeD)
        // 1 m/s along x, seen from 44.07° N 121.31° W: mostly west and a little south and up.
        let velocity = Geodesy.northEastDown(vx: 1, vy: 0, vz: 0, latitude: 44.068817081, longitude: -121.314317437)
        let track = Geodesy.groundTrack(north: velocity.north, east: velocity.east)
        #expect(abs((fix.speed ?? 0) - track.speed) < 1e-9)
        #expect(abs((fix.courseDegrees ?? 0) - track.courseDegrees) < 1e-5)
        #expect(abs((fix.climb ?? 0) - -velocity.down) < 1e-9)
    }

    @Test("an NMEA sentence and a UBX message of the same moment make one epoch")
    func mixedEpoch() throws {
        let gga = Array("$GPGGA,102030.40,4808.2440,N,01134.5300,E,1,08,0.9,520.1,M,47.7,M,,*6C\r\n".utf8)
        let fixes = Self.fixes(gga + UBXSamples.navPVT())
        #expect(fixes.count == 1)
        #expect(fixes.first?.latitude == 48.1374)  // NAV-PVT's, the later and finer
        #expect(fixes.first?.hdop == 0.9)  // GGA's
    }

    @Test("the same fixes whatever the chunking: whole, byte by byte, in sevens")
    func chunking() {
        let bytes =
            UBXSamples.navPVT() + Array("$GPTXT,01,01,02,hello*2F\r\n".utf8)
            + UBXSamples.navPVT(iTOW: UBXSamples.sundayTimeOfWeek + 1000, second: 31)
        let whole = Self.fixes(bytes)
        #expect(whole.count == 2)
        #expect(Self.fixes(bytes, chunk: 1).map(\.latitude) == whole.map(\.latitude))
        #expect(Self.fixes(bytes, chunk: 7).map(\.time) == whole.map(\.time))
    }

    @Test("reading UBX into fixes allocates nothing: NAV-PVT, NAV-SAT, NAV-DOP, NAV-STATUS, NAV-POSLLH, TIMEGPS, EOE")
    func allocationFree() throws {
        let receiver = UBloxReceiver(model: .f9)
        var settings = ReceiverSettings()
        settings.ubxMessages = [.navPVT, .navSAT, .navDOP, .navSTATUS, .navPOSLLH, .navTIMEGPS, .navEOE]
        _ = receiver.receive(try UBXConfigurationPlan.commands(for: settings, .configurationInterface).flatMap(\.frame))
        var bytes: [UInt8] = []
        for index in 0..<100 {
            bytes += receiver.epoch(
                atNanoseconds: 1_796_000_000_000_000_000 + Int64(index) * 1_000_000_000, index: index)
        }
        var reader = FixReader(options: FixReader.Options(frameDecoder: UBXEpochs.report))
        var count = 0
        var satellites = 0
        let half = bytes.count / 2
        bytes.withUnsafeBytes { buffer in
            reader.read(UnsafeRawBufferPointer(rebasing: buffer[..<half])) { _ in count += 1 }  // warm-up
            nmea_allocation_window_open()
            reader.read(UnsafeRawBufferPointer(rebasing: buffer[half...])) { fix in
                count += 1
                satellites = fix.satellites.count
            }
            let allocations = nmea_allocation_window_close()
            #expect(allocations == 0)
        }
        #expect(count == 100)
        #expect(satellites > 0)
        #expect(reader.statistics.framer.ubxFrames >= 700)
    }

    @Test("a frame builder's frame: header, length and Fletcher checksum as the interface description gives them")
    func frameBuilder() {
        var payload = UBXPayloadBuilder()
        payload.u2(100)
        payload.u2(1)
        payload.u2(1)
        #expect(
            payload.frame(.cfgRATE) == [
                0xB5, 0x62, 0x06, 0x08, 0x06, 0x00, 0x64, 0x00, 0x01, 0x00, 0x01, 0x00, 0x7A, 0x12,
            ])
    }
}
