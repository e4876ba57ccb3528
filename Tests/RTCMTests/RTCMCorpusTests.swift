import Foundation
import JSON
import NMEA
import RTCM
import TestSupport
import Testing

/// The RTCM 3 logs of `../shared/gnss-corpus/rtcm/` against gpsd's regression output (its `"class":"RTCM3"` objects)
/// and pyrtcm, an independent decoder.
@Suite("RTCM 3 against gpsd and pyrtcm", .enabled(if: Locations.gnssCorpus != nil, "the GNSS corpus is absent"))
struct RTCMCorpusTests {
    static let logs = [
        "rtcm3.2.log", "rtcm3.log", "rtcm3_102x135.log", "ublox-f9p-rtcm.log", "ublox-zed-f9t-rtcm3.log",
    ]

    static func path(_ log: String) -> String { Locations.gnssCorpus! + "/rtcm/" + log }

    /// Every RTCM 3 message of a log, framed and written as JSON, read back as objects.
    static func ours(_ log: String) throws -> [[String: Any]] {
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path(log))))
        var framer = Framer()
        var texts: [[UInt8]] = []
        bytes.withUnsafeBytes { buffer in
            framer.feed(buffer) { event in
                guard case .binaryFrame(let frame) = event, let rtcm = RTCMFrame(frame) else { return }
                var json = JSONWriter()
                json.writeRTCM3(rtcm)
                texts.append(json.bytes)
            }
        }
        return try texts.map { try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]) }
    }

    /// gpsd's RTCM3 reports of a log, without its repeats: after a report of its own (a TPV or SKY from the UBX
    /// frames of the same stream) gpsd writes the last RTCM 3 message again, and that is not a message of the log.
    static func gpsd(_ log: String) throws -> (messages: [[String: Any]], repeats: Int) {
        let text = try String(contentsOfFile: path(log) + ".chk", encoding: .isoLatin1)
        var messages: [[String: Any]] = []
        var last: Substring?
        var otherSince = false
        var repeats = 0
        for line in text.split(whereSeparator: \.isNewline) {
            guard line.hasPrefix("{\"class\":\"RTCM3\"") else {
                otherSince = otherSince || line.hasPrefix("{")
                continue
            }
            defer {
                last = line
                otherSince = false
            }
            if otherSince && line == last {
                repeats += 1
                continue
            }
            messages.append(try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]))
        }
        return (messages, repeats)
    }

    @Test(
        "gpsd's sequence of messages: type, length and station for each; every field gpsd gives of the types we decode",
        arguments: logs)
    func agreesWithGpsd(_ log: String) throws {
        let ours = try Self.ours(log)
        let (theirs, repeats) = try Self.gpsd(log)
        #expect(ours.count == theirs.count)
        #expect(repeats == ["ublox-zed-f9t-rtcm3.log": 22, "ublox-f9p-rtcm.log": 1][log, default: 0])
        var compared = 0
        for (index, (mine, gpsd)) in zip(ours, theirs).enumerated() {
            let type = gpsd["type"] as? Int ?? -1
            #expect(mine["type"] as? Int == type, "\(log) \(index)")
            #expect(mine["length"] as? Int == gpsd["length"] as? Int, "\(log) \(index)")
            if let station = gpsd["station_id"] as? Int {
                #expect(mine["station_id"] as? Int == station, "\(log) \(index) \(type)")
            }
            // The types we do not decode (the transformation messages 1021–1027, ephemerides, 4072) are compared by
            // type, length and station only. gpsd writes 1029's text a byte a character (we decode the UTF-8 the
            // message says it is); its MSM NCell is satellites × signals, where ours (and pyrtcm's) is the cells the
            // mask holds; and it reads 1230's biases three bits early, inside the signal mask (its l1_ca of 16384 is
            // the mask's last bits: pyrtcm and we read the biases after it, 0 in these logs).
            guard mine["data"] == nil else { continue }
            let skipped = ["class", "device", "msg", "satellites", "data", "NCell", "l1_ca", "l1_p", "l2_ca", "l2_p"]
            for (key, value) in gpsd where !skipped.contains(key) {
                #expect(mine[key] != nil, "\(log) \(index) \(type): no \(key) (gpsd: \(value))")
                guard let mineValue = mine[key] else { continue }
                if let number = value as? NSNumber, let other = mineValue as? NSNumber {
                    // gpsd writes some flags as true/false and others as 0/1.
                    let tolerance = ["x", "y", "z", "h"].contains(key) ? 0.00005 : 0
                    #expect(abs(number.doubleValue - other.doubleValue) <= tolerance, "\(log) \(index) \(type) \(key)")
                } else {
                    #expect("\(value)" == "\(mineValue)", "\(log) \(index) \(type) \(key)")
                }
                compared += 1
            }
        }
        #expect(compared > 0)
    }

    @Test("1029's text is the UTF-8 it declares")
    func textIsUTF8() throws {
        let text = try Self.ours("rtcm3.log").first { $0["type"] as? Int == 1029 }
        #expect(text?["msg"] as? String == "UTF-8 проверка wörter")
        #expect(text?["len"] as? Int == 21)
    }

    @Test("pyrtcm agrees on every message's number, station, station coordinates and MSM masks", arguments: logs)
    func agreesWithPyrtcm(_ log: String) throws {
        guard let python = PythonOracles.pyrtcm else {
            Issue.record("pyrtcm could not be installed from PyPI into .build/venv-oracles")
            return
        }
        let oracle = try ChildProcess.run([python, Locations.packageRoot + "/scripts/rtcm-oracle", Self.path(log)])
        #expect(oracle.status == 0)
        let theirs = try oracle.output.split(whereSeparator: \.isNewline).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        // pyrtcm leaves out the messages it cannot read (type 63, some of 1021…1027): each of its messages is the
        // next of ours with its number.
        let ours = try Self.ours(log)
        var next = 0
        var compared = 0
        for (index, pyrtcm) in theirs.enumerated() {
            let context = "\(log) \(index)"
            guard let number = (pyrtcm["DF002"] as? NSNumber)?.intValue else { continue }
            while next < ours.count && ours[next]["type"] as? Int != number { next += 1 }
            guard next < ours.count else {
                Issue.record("\(context): pyrtcm's \(number) is not among ours")
                break
            }
            let mine = ours[next]
            next += 1
            compared += 1
            if mine["station_id"] != nil, let station = (pyrtcm["DF003"] as? NSNumber)?.intValue {
                #expect(mine["station_id"] as? Int == station, "\(context)")
            }
            for (ourName, theirName) in [("l1_ca", "DF423"), ("l1_p", "DF424"), ("l2_ca", "DF425"), ("l2_p", "DF426")] {
                guard let raw = (mine[ourName] as? NSNumber)?.int64Value else { continue }
                let meters = Double(Int16(truncatingIfNeeded: raw)) * 0.02
                #expect(abs(meters - ((pyrtcm[theirName] as? NSNumber)?.doubleValue ?? .nan)) < 1e-9, "\(context)")
            }
            for (ourName, theirName) in [("x", "DF025"), ("y", "DF026"), ("z", "DF027")] {
                guard let value = (mine[ourName] as? NSNumber)?.doubleValue else { continue }
                let other = (pyrtcm[theirName] as? NSNumber)?.doubleValue ?? .nan
                #expect(abs(value - other) < 0.00005, "\(context) \(ourName)")
            }
            for (ourName, theirName) in [
                ("MaskSat", "DF394"), ("MaskSig", "DF395"), ("MaskCell", "DF396"), ("NSat", "NSat"), ("NSig", "NSig"),
                ("NCell", "NCell"),
            ] {
                guard let value = mine[ourName] as? NSNumber else { continue }
                #expect(value.uint64Value == (pyrtcm[theirName] as? NSNumber)?.uint64Value, "\(context) \(ourName)")
            }
        }
        // Every message pyrtcm numbers (it gives u-blox's proprietary 4072 none).
        #expect(compared == theirs.filter { $0["DF002"] is NSNumber }.count)
        #expect(compared >= theirs.count * 8 / 10, "\(compared) of pyrtcm's \(theirs.count)")
    }
}

/// RTCM 2: the framer locks on the six-bit words by their parity and hands out each message; its header against
/// gpsd's `"class":"RTCM2"` objects.
@Suite("RTCM 2 headers against gpsd", .enabled(if: Locations.gnssCorpus != nil, "the GNSS corpus is absent"))
struct RTCM2CorpusTests {
    static let keys = ["type", "station_id", "zcount", "seqnum", "length", "station_health"]

    static func headers(_ objects: [[String: Any]]) -> [[Double]] {
        objects.map { object in keys.map { (object[$0] as? NSNumber)?.doubleValue ?? .nan } }
    }

    @Test(
        "every message gpsd reports, in order, with its header; gpsd's sniffer starts two messages later",
        arguments: ["rtcm2.log", "rtcm2.bend.log"])
    func headersAgree(_ log: String) throws {
        let path = Locations.gnssCorpus! + "/rtcm/" + log
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        var framer = Framer()
        var ours: [[String: Any]] = []
        framer.feed(bytes) { event in
            guard case .binaryFrame(let frame) = event, let message = RTCM2Message(frame) else { return }
            var json = JSONWriter()
            json.writeRTCM2(message)
            if let object = try? JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any] {
                ours.append(object)
            }
        }
        #expect(framer.statistics.rtcm2Frames == ours.count)
        #expect(framer.statistics.sentences == 0 && framer.statistics.rejected == 0)
        let text = try String(contentsOfFile: path + ".chk", encoding: .isoLatin1)
        let gpsd = try text.split(whereSeparator: \.isNewline).filter { $0.contains(#""class":"RTCM2""#) }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(gpsd.count == (log == "rtcm2.log" ? 5 : 160))
        // gpsd decides a stream is RTCM 2 after two messages and reports from the third: ours has those two more.
        #expect(ours.count == gpsd.count + 2)
        #expect(Self.headers(Array(ours.suffix(gpsd.count))) == Self.headers(gpsd))
        #expect(ours.first?["seqnum"] as? Int == ((gpsd.first?["seqnum"] as? Int ?? 0) + 6) % 8)
    }

    @Test("NMEA around RTCM 2 still frames; a TAG block's backslash is RTCM 2 only while locked")
    func mixedWithNMEA() throws {
        let path = Locations.gnssCorpus! + "/rtcm/rtcm2.log"
        let log = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        // The stream after the file's comment lines (it has line feeds of its own, among its leading garbage).
        let lastComment = try #require(
            log.indices.last { log[$0] == UInt8(ascii: "#") && (($0 == 0) || log[$0 - 1] == 0x0A) })
        let body = Array(log[(log[lastComment...].firstIndex(of: 0x0A)! + 1)...])
        let nmea = Array("\\c:1700000000000*6F\\$GPZDA,120000.00,30,11,2026,00,00*60\r\n".utf8)
        var framer = Framer()
        var sentences = 0
        var messages = 0
        framer.feed(nmea + body + [0x0D, 0x0A] + nmea) { event in
            switch event {
            case .sentence: sentences += 1
            case .binaryFrame(let frame) where frame.kind == .rtcm2: messages += 1
            default: break
            }
        }
        #expect(sentences == 2)
        #expect(messages == 7)
        #expect(framer.statistics.tagBlocks == 2)
    }
}
