import NMEA
import SerialPort
import System
import UBX

/// `nmea config` with a MediaTek receiver: PMTK605 for the firmware, then each PMTK command and its PMTK001.
struct MediaTekConversation {
    let line: ReceiverLine
    let timeout: Duration
    let report: (String) -> Void

    /// The firmware PMTK705 reports (`AXN_2.31_3339_13101700, PA6H`), asked twice at most.
    func identify() throws(SerialPortError) -> String? {
        for _ in 0..<2 {
            try line.send(Array(PMTKCommand.firmwareQuery.sentence.utf8))
            let answer = try line.wait(timeout) { heard -> String? in
                guard case .sentence(let text) = heard, text.hasPrefix("$PMTK705,") else { return nil }
                let fields = text.dropFirst(9).prefix { $0 != "*" }.split(separator: ",")
                return fields.joined(separator: ", ")
            }
            if let answer { return answer }
        }
        return nil
    }

    func configure(_ settings: ReceiverSettings) throws -> Int32 {
        let (commands, unsupported) = PMTKCommand.commands(for: settings)
        for item in unsupported { report("not sent    \(item)") }
        var failed = !unsupported.isEmpty
        for command in commands {
            if let rate = command.newBaudRate, let baud = BaudRate(rawValue: rate) {
                try line.send(Array(command.sentence.utf8))
                sleep(for: .milliseconds(100))  // PMTK251 leaves at the old rate before the chip switches
                let old = line.baudRate
                switch try line.follow(to: baud, answers: { () throws(SerialPortError) in try identify() != nil }) {
                case .answering:
                    report("\(command.text): answering at \(rate) baud")
                case .stayed:
                    failed = true
                    report("\(command.text): no answer at \(rate) baud; still at \(old.rawValue) baud")
                case .lost:
                    failed = true
                    report("\(command.text): no answer at \(rate) baud; answering at neither rate")
                }
                continue
            }
            guard command.awaitsAcknowledgement else {
                try line.send(Array(command.sentence.utf8))
                report("\(command.text): sent")
                continue
            }
            var outcome = "no answer"
            for _ in 0..<2 {
                try line.send(Array(command.sentence.utf8))
                let flag = try line.wait(timeout) { heard -> Int? in
                    guard case .sentence(let text) = heard, let ack = PMTKCommand.acknowledgement(text),
                        ack.command == command.number
                    else { return nil }
                    return ack.flag
                }
                guard let flag else { continue }
                outcome = ["refused (invalid)", "refused (unsupported)", "failed", "acknowledged"][min(flag, 3)]
                break
            }
            if outcome != "acknowledged" { failed = true }
            report("\(command.text): \(outcome)")
        }
        return failed ? ExitStatus.failure : ExitStatus.success
    }
}
