import Foundation
import NMEA
import TestSupport
import Testing

/// The fixes we assemble from gpsd's regression logs agree with the TPV reports gpsd wrote in its `.chk` files.
///
/// gpsd reports a TPV several times per epoch as sentences arrive; the last report carrying each time is its
/// settled view of that epoch. We compare, for every epoch where gpsd had a 2D or 3D fix with a time: our fix exists,
/// and time, latitude, longitude, altitude and mode agree.
@Suite(.enabled(if: Locations.corpus != nil, "the shared NMEA corpus is absent (set NMEA_CORPUS)"))
struct GoldenGpsdTests {
    /// Logs where gpsd is known to differ from us, and why.
    static let knownDifferences: [String: String] = [
        // gpsd "corrects" genuine old dates by 1024 weeks relative to its build date (SOURCES.md):
        "neo-m8n.log": "gpsd moves the genuine 2015 dates to 2034 (its week-rollover guess); we keep 2015",
        "rst39.log": "gpsd moves the genuine 2014 dates to 2033 (its week-rollover guess); we keep 2014",
        "tcp-torture.log": "gpsd moves the genuine 2007 dates to 2027 (its week-rollover guess); we keep 2007",
        // We correct real rollover victims that gpsd leaves alone:
        "april6_2019.log": "the Telit reports 1999-08-22 after the April 2019 rollover; we correct to 2019-04-07",
        // Finer positions win:
        "ac12.log": "GGA has 5 decimals of minutes, the RMC after it 4; gpsd keeps the coarser RMC, we the finer GGA",
        "tcp-test.log": "the same receiver as ac12.log (GGA with 5 decimals, RMC with 4)",
        "udp-test.log": "the same receiver as ac12.log (GGA with 5 decimals, RMC with 4)",
        // Altitudes and modes:
        "garmin38.log":
            "gpsd prefers Garmin's $PGRMZ altitude in whole feet (38.4048 m) to GGA's 38.4 m; we keep GGA's",
        "tn204.log": "as garmin38.log: gpsd takes $PGRMZ's whole feet over GGA's metres",
        "garmin25lp.log": "gpsd's mode follows whichever of GGA (altitude: 3D) and GSA (2D) came last; "
            + "we say 3D when the epoch has an altitude",
        "sl869.log": "as garmin25lp.log: GSA says 2D after a GGA with altitude",
        "iTrek.log": "a GSA with fix type 2D arrives between two RMCs; we apply it to the next epoch, gpsd reports 3D",
        "bundg_zeus_9.log": "a boat multiplexer whose GLL, RMC and GGA of one second carry different positions; "
            + "gpsd reports at its cycle end before that second's GGA arrives, we take the epoch's last equally fine "
            + "position",
        // Sentences gpsd decodes and we do not:
        "ericsson-gru04-02-70sec.log":
            "gpsd takes Ericsson's proprietary averaged position ($PERC,GPavp) once a minute",
    ]

    struct Epoch: Equatable, CustomStringConvertible {
        var time: String
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var mode: Int
        var description: String {
            "\(time) \(latitude),\(longitude) alt \(altitude.map { "\($0)" } ?? "-") mode \(mode)"
        }
    }

    static func gpsdEpochs(_ chk: URL) throws -> [String: Epoch] {
        var epochs: [String: Epoch] = [:]
        let text = try String(contentsOf: chk, encoding: .isoLatin1)
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
            // A few reports hold values JSON has no spelling for (gpsd writes `nan`); those are skipped.
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let time = object["time"] as? String, let mode = object["mode"] as? Int, mode >= 2,
                let lat = object["lat"] as? Double, let lon = object["lon"] as? Double
            else { continue }
            epochs[time] = Epoch(
                time: time, latitude: lat, longitude: lon,
                altitude: object["altMSL"] as? Double, mode: mode)
        }
        return epochs
    }

    static func ourEpochs(_ log: URL) throws -> [String: Epoch] {
        let bytes = try Data(contentsOf: log)
        var framer = Framer()
        var assembler = FixAssembler()
        var epochs: [String: Epoch] = [:]
        func take(_ fix: Fix) {
            guard fix.hasPosition, let date = fix.date, let time = fix.time else { return }
            // gpsd writes milliseconds.
            let ms = time.nanoseconds / 1_000_000
            let iso = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(date.year), Int(date.month),
                Int(date.day), Int(time.hour), Int(time.minute), Int(time.second), Int(ms))
            epochs[iso] = Epoch(
                time: iso, latitude: fix.latitude!, longitude: fix.longitude!,
                altitude: fix.mode == .threeD ? fix.altitudeMeters : nil,
                mode: Int(fix.mode.rawValue))
        }
        framer.feed(bytes) { event in
            guard case .sentence(let sentence) = event, let parsed = decodedKeepingFields(sentence) else { return }
            assembler.add(parsed, take)
        }
        framer.finish { event in
            guard case .sentence(let sentence) = event, let parsed = decodedKeepingFields(sentence) else { return }
            assembler.add(parsed, take)
        }
        assembler.finish(take)
        return epochs
    }

    static var logs: [URL] {
        guard let corpus = Locations.corpus else { return [] }
        let directory = URL(fileURLWithPath: corpus + "/gpsd")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".log") && names.contains($0 + ".chk") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    @Test func everyGpsdEpochWithAFixAgrees() throws {
        var failures: [String] = []
        var compared = 0
        for log in Self.logs {
            let name = log.lastPathComponent
            let theirs = try Self.gpsdEpochs(URL(fileURLWithPath: log.path + ".chk"))
            let ours = try Self.ourEpochs(log)
            var problems: [String] = []
            for (time, expected) in theirs.sorted(by: { $0.key < $1.key }) {
                guard let actual = ours[time] else {
                    problems.append("missing \(expected)")
                    continue
                }
                compared += 1
                // gpsd prints nine decimals; we keep five more than the receiver's minutes had (seven for two).
                let close =
                    abs(actual.latitude - expected.latitude) < 6e-8
                    && abs(actual.longitude - expected.longitude) < 6e-8
                    && actual.mode == expected.mode
                    && (expected.altitude == nil || actual.altitude.map { abs($0 - expected.altitude!) < 1e-3 } == true)
                if !close { problems.append("ours \(actual) vs gpsd \(expected)") }
            }
            if problems.isEmpty { continue }
            if let reason = Self.knownDifferences[name] {
                print("known difference in \(name): \(reason) (\(problems.count) epochs)")
                continue
            }
            failures.append(
                "\(name): \(problems.count) of \(theirs.count) epochs differ, e.g.\n  "
                    + problems.prefix(3).joined(separator: "\n  "))
        }
        print("compared \(compared) epochs from \(Self.logs.count) logs")
        #expect(failures.isEmpty, "\(failures.count) logs disagree:\n\(failures.joined(separator: "\n"))")
        #expect(compared > 2200)
    }
}
