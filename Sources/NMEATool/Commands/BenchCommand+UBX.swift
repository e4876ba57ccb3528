import NMEA
import Simulation
import System
import UBX

extension BenchCommand {
    /// The UBX measurement: frames checked and decoded, their epochs assembled into fixes (a FixReader with the UBX
    /// frame decoder, as every command reads).
    struct UBXPass {
        var messages = 0
        var fixes = 0
        var seconds = 0.0
    }

    /// The UBX input: FILE's UBX frames when it has some, else an emulated u-blox's output (`epochs` epochs of
    /// NAV-PVT, NAV-SAT with 18 satellites, NAV-DOP and NAV-EOE).
    static func ubxInput(_ bytes: [UInt8], fileName: String?, epochs: Int) -> (bytes: [UInt8], source: String) {
        if let fileName, measureUBX(Array(bytes.prefix(1 << 20))).messages > 0 { return (bytes, fileName) }
        let receiver = UBloxReceiver(model: .f9)
        var settings = ReceiverSettings()
        settings.nmeaOutput = false
        settings.ubxMessages = [.navPVT, .navSAT, .navDOP, .navEOE]
        _ = receiver.receive(
            (try? UBXConfigurationPlan.commands(for: settings, .configurationInterface))?.flatMap(\.frame) ?? [])
        var out: [UInt8] = []
        let start: Int64 = 1_796_000_000_000_000_000  // 2026-12-01
        for index in 0..<epochs {
            out += receiver.epoch(atNanoseconds: start + Int64(index) * 1_000_000_000, index: index)
        }
        return (out, "built-in u-blox F9 output (NAV-PVT, NAV-SAT, NAV-DOP, NAV-EOE per epoch)")
    }

    /// One pass: read the bytes in 64 KiB chunks into fixes.
    static func measureUBX(_ bytes: [UInt8], sink: inout Int) -> UBXPass {
        var reader = FixReader(options: FixReader.Options(frameDecoder: UBXEpochs.report))
        var fixes = 0
        var check = 0
        let start = MonotonicTime.now().seconds
        forEachChunk(of: bytes) { chunk in
            reader.read(chunk) { fix in
                fixes += 1
                check &+= Int(truncatingIfNeeded: (fix.latitude ?? 0).bitPattern)
            }
        }
        reader.finish { _ in fixes += 1 }
        let seconds = MonotonicTime.now().seconds - start
        sink &+= check
        return UBXPass(messages: reader.statistics.framer.ubxFrames, fixes: fixes, seconds: seconds)
    }

    static func measureUBX(_ bytes: [UInt8]) -> UBXPass {
        var sink = 0
        return measureUBX(bytes, sink: &sink)
    }

    static func ubxRow(_ pass: UBXPass, _ megabytes: Double) -> String {
        let rate = Double(pass.messages) / pass.seconds / 1e6
        let name = "UBX into fixes"
        let padded = name + String(repeating: " ", count: max(1, 23 - name.count))
        return "\(padded)\(format(rate, 2)) M messages/s    \(format(megabytes / pass.seconds, 0)) MB/s\n"
    }
}
