import Foundation
import NMEA
import TestSupport
import Testing
import UBX

/// The real u-blox logs of `../shared/gnss-corpus/ubx/` read as a receiver sending only UBX, against gpsd's
/// regression output (`.chk`: its TPV reports) and against pyubx2, an independent decoder.
@Suite("UBX against gpsd and pyubx2", .enabled(if: Locations.gnssCorpus != nil, "the GNSS corpus is absent"))
struct UBXCorpusTests {
    static func path(_ log: String) -> String { Locations.gnssCorpus! + "/ubx/" + log }

    static var logs: [String] {
        guard let directory = Locations.gnssCorpus.map({ $0 + "/ubx" }),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory)
        else { return [] }
        return names.filter { $0.hasSuffix(".log") }.sorted()
    }

    /// Every fix of a log through the one stream, UBX decoding on (as every command reads).
    static func fixes(_ log: String) throws -> [Fix] {
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path(log))))
        var reader = FixReader(options: FixReader.Options(frameDecoder: UBXEpochs.report))
        var fixes: [Fix] = []
        reader.read(bytes) { fixes.append($0) }
        reader.finish { fixes.append($0) }
        return fixes
    }

    /// A fix's time as gpsd writes it, to the millisecond: `2017-07-19T08:50:01.200Z`.
    static func millisecondTime(_ fix: Fix) -> String? {
        guard let date = fix.date, let time = fix.time else { return nil }
        let milliseconds = (time.nanosecondsSinceMidnight + 500_000) / 1_000_000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = String(1000 + milliseconds % 1000).dropFirst()
        let seconds = milliseconds / 1000
        return "\(date.year)-\(two(Int64(date.month)))-\(two(Int64(date.day)))T\(two(seconds / 3600)):"
            + "\(two(seconds / 60 % 60)):\(two(seconds % 60)).\(fraction)Z"
    }

    /// gpsd's complete fix of each epoch: its last TPV with a position (mode 2 or 3) for each time.
    static func gpsdFixes(_ log: String) throws -> [String: (latitude: Double, longitude: Double)] {
        let text = try String(contentsOfFile: path(log) + ".chk", encoding: .isoLatin1)
        var fixes: [String: (Double, Double)] = [:]
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let mode = object["mode"] as? Int, mode >= 2, let time = object["time"] as? String,
                let latitude = object["lat"] as? Double, let longitude = object["lon"] as? Double
            else { continue }
            fixes[time] = (latitude, longitude)
        }
        return fixes
    }

    /// The epochs gpsd dated with its default leap seconds (18) before the log's NAV-TIMEGPS gave the right ones:
    /// we date the same epoch with them (NAV-TIMEGPS comes later in that very epoch), so our fix is that many
    /// seconds later, at the same position.
    static let gpsdEarlyEpochs: [String: (time: String, seconds: Int)] = [
        "ublox-aek-4t.log": ("2007-12-23T23:11:19.999Z", 4),  // 14 leap seconds in 2007
        "ublox-lea-4t.log": ("2009-01-28T20:35:40.001Z", 3),  // 15 in 2009
    ]

    @Test("gpsd's complete fix of each epoch is ours, to 1e-6°, for at least 97 % of them; each difference named")
    func positionsAgreeWithGpsd() throws {
        var total = 0
        var matched = 0
        for log in Self.logs {
            let theirs = try Self.gpsdFixes(log)
            let ours = try Self.fixes(log).filter(\.hasPosition)
            if log == "ublox-sirf1.log" {
                // A u-blox in SiRF binary mode: SiRF is not UBX, so nothing of it is a fix here.
                #expect(ours.isEmpty)
                total += theirs.count
                continue
            }
            var byTime: [String: Fix] = [:]
            for fix in ours { if let time = Self.millisecondTime(fix) { byTime[time] = fix } }
            for (time, position) in theirs {
                total += 1
                var key = time
                if let early = Self.gpsdEarlyEpochs[log], early.time == time {
                    key = try #require(Self.shifted(time, by: early.seconds))
                }
                guard let fix = byTime[key], let latitude = fix.latitude, let longitude = fix.longitude else {
                    Issue.record("\(log) \(time): no fix of ours")
                    continue
                }
                let close = abs(latitude - position.latitude) <= 1e-6 && abs(longitude - position.longitude) <= 1e-6
                #expect(close, "\(log) \(time): \(latitude),\(longitude) against gpsd's \(position)")
                if close { matched += 1 }
            }
        }
        #expect(total >= 700)
        #expect(Double(matched) >= 0.97 * Double(total), "\(matched) of \(total)")
    }

    static func shifted(_ time: String, by seconds: Int) -> String? {
        // Only the seconds field moves here (no minute carries in the named epochs).
        let start = time.index(time.startIndex, offsetBy: 17)
        let end = time.index(start, offsetBy: 2)
        guard let value = Int(time[start..<end]), value + seconds < 60 else { return nil }
        let text = value + seconds < 10 ? "0\(value + seconds)" : "\(value + seconds)"
        return time.replacingCharacters(in: start..<end, with: text)
    }

    @Test("the logs whose positions gpsd does not report still give tracks: LOG-BATCH and LOG-RETRIEVEPOS")
    func loggerLogsGiveTracks() throws {
        let batch = try Self.fixes("ublox-zoe-m8b-logbatch.log").filter(\.hasPosition)
        let retrieved = try Self.fixes("ublox-zoe-m8b-logretrieve.log").filter(\.hasPosition)
        #expect(batch.count == 62)
        #expect(retrieved.count == 34)
        #expect(batch.allSatisfy { $0.date != nil && $0.time != nil })
    }

    @Test("pyubx2 decodes every NAV-PVT of the corpus as we do", arguments: logs)
    func navPVTAgreesWithPyubx2(_ log: String) throws {
        guard let python = PythonOracles.pyubx2 else {
            Issue.record("pyubx2 could not be installed from PyPI into .build/venv-oracles")
            return
        }
        let oracle = try ChildProcess.run([python, Locations.packageRoot + "/scripts/ubx-oracle", Self.path(log)])
        #expect(oracle.status == 0)
        let theirs = try oracle.output.split(whereSeparator: \.isNewline).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let ours = try Self.navPVTs(log)
        #expect(ours.count == theirs.count)
        for (index, (mine, pyubx2)) in zip(ours, theirs).enumerated() {
            let context = "\(log) NAV-PVT \(index)"
            func integer(_ name: String) -> Int64? { (pyubx2[name] as? NSNumber)?.int64Value }
            func number(_ name: String) -> Double? { (pyubx2[name] as? NSNumber)?.doubleValue }
            #expect(Int64(mine.iTOW) == integer("iTOW"), "\(context)")
            #expect(Int64(mine.fixType) == integer("fixType"), "\(context)")
            #expect(Int64(mine.numSV) == integer("numSV"), "\(context)")
            #expect(Int64(mine.nano) == integer("nano"), "\(context)")
            #expect(abs(mine.latitude - (number("lat") ?? .nan)) < 1e-9, "\(context)")
            #expect(abs(mine.longitude - (number("lon") ?? .nan)) < 1e-9, "\(context)")
            #expect(abs(mine.headingOfMotionDegrees - (number("headMot") ?? .nan)) < 1e-7, "\(context)")
            // pyubx2 gives millimetres and mm/s; we give metres and m/s.
            for (value, name) in [
                (mine.heightMeters, "height"), (mine.heightMSLMeters, "hMSL"), (mine.horizontalAccuracyMeters, "hAcc"),
                (mine.verticalAccuracyMeters, "vAcc"), (mine.groundSpeed, "gSpeed"), (mine.speedAccuracy, "sAcc"),
                (mine.velocityDown, "velD"),
            ] {
                #expect(Int64((value * 1000).rounded()) == integer(name), "\(context) \(name)")
            }
            #expect(abs(mine.pDOP - (number("pDOP") ?? .nan)) < 1e-9, "\(context)")
        }
    }

    /// Every NAV-PVT of a log, as its payload's values.
    struct PVT {
        var iTOW: UInt32, fixType: UInt8, numSV: UInt8, nano: Int32
        var latitude: Double, longitude: Double, heightMeters: Double, heightMSLMeters: Double
        var horizontalAccuracyMeters: Double, verticalAccuracyMeters: Double, groundSpeed: Double
        var speedAccuracy: Double, velocityDown: Double, headingOfMotionDegrees: Double, pDOP: Double
    }

    static func navPVTs(_ log: String) throws -> [PVT] {
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path(log))))
        var framer = Framer()
        var found: [PVT] = []
        bytes.withUnsafeBytes { buffer in
            framer.feed(buffer) { event in
                guard case .binaryFrame(let frame) = event, let ubx = UBXFrame(frame), ubx.id == .navPVT,
                    let pvt = NAVPVT(ubx.payload)
                else { return }
                found.append(
                    PVT(
                        iTOW: pvt.iTOW, fixType: pvt.fixType, numSV: pvt.numSV, nano: pvt.nano,
                        latitude: pvt.latitude, longitude: pvt.longitude, heightMeters: pvt.heightMeters,
                        heightMSLMeters: pvt.heightMSLMeters, horizontalAccuracyMeters: pvt.horizontalAccuracyMeters,
                        verticalAccuracyMeters: pvt.verticalAccuracyMeters, groundSpeed: pvt.groundSpeed,
                        speedAccuracy: pvt.speedAccuracy, velocityDown: pvt.velocityDown,
                        headingOfMotionDegrees: pvt.headingOfMotionDegrees, pDOP: pvt.pDOP))
            }
        }
        return found
    }
}
