import AIS
import NMEA
import Simulation
import System

extension BenchCommand {
    /// The AIS measurement: messages assembled and every field read as a typed value.
    struct AISPass {
        var messages = 0
        var seconds = 0.0
    }

    /// The AIS input: FILE's AIS sentences when it has some, else the built-in traffic (`messages` messages).
    static func aisInput(_ bytes: [UInt8], fileName: String?, messages: Int) -> (bytes: [UInt8], source: String) {
        // Whether FILE has AIS is told from its first megabyte, not from a whole extra pass.
        if let fileName, measureAIS(Array(bytes.prefix(1 << 20))).messages > 0 { return (bytes, fileName) }
        return (
            AISTraffic().sentences(messages: messages), "built-in AIS traffic (200 stations, types 1-5, 18, 21, 24)"
        )
    }

    /// One pass: frame the bytes in 64 KiB chunks, assemble every AIS message, read each field's value. The state
    /// lives in one local struct that the closures borrow, never escaping: a closure kept in a variable would box it
    /// and check exclusive access at each use, which costs more than a field's read.
    static func measureAIS(_ bytes: [UInt8], sink: inout Int) -> AISPass {
        struct State {
            var decoder = AISDecoder()
            var check = 0

            mutating func take(_ event: FramerEvent) {
                guard case .sentence(let sentence) = event, sentence.isEncapsulated else { return }
                var check = self.check
                _ = try? decoder.add(sentence) { message in BenchCommand.addFingerprint(message, to: &check) }
                self.check = check
            }
        }
        var framer = Framer()
        var state = State()
        let start = MonotonicTime.now().seconds
        forEachChunk(of: bytes) { chunk in framer.feed(chunk) { state.take($0) } }
        framer.finish { state.take($0) }
        let seconds = MonotonicTime.now().seconds - start
        sink &+= state.check
        return AISPass(messages: state.decoder.counts.messages, seconds: seconds)
    }

    static func measureAIS(_ bytes: [UInt8]) -> AISPass {
        var sink = 0
        return measureAIS(bytes, sink: &sink)
    }

    @inline(__always)
    static func fingerprint(_ value: AISValue?) -> Int {
        switch value {
        case .integer(let value): value
        case .number(let value): Int(truncatingIfNeeded: value.bitPattern)
        case .bool(let value): value ? 1 : 0
        case .text(let text): text.count
        case .data(_, let bitCount): bitCount
        case .group(let count): count
        case .timestamp(_, _, let day, _, _, let second): day &+ second
        case .monthDayTime(_, let day, _, _), .dayTime(let day, _, _): day
        case nil: 7
        }
    }

    /// Adds a sum of every value of the message to `check`, so that none of them is left unread: of its typed report
    /// for the types that have one, read where it is made (`AISMessage.readReport`: the ``AISReport`` enum, 177
    /// bytes, would be made aside and copied on its way here), else of every field.
    @inline(__always)
    static func addFingerprint(_ message: borrowing AISMessage, to check: inout Int) {
        func n(_ value: Double?) -> Int { value.map { Int(truncatingIfNeeded: $0.bitPattern) } ?? 7 }
        func n(_ value: Int?) -> Int { value ?? 7 }
        func n(_ value: Bool) -> Int { value ? 1 : 0 }
        var sum = 0
        var typed = true
        message.readReport(
            position: { r in
                sum =
                    r.status &+ n(r.turn) &+ n(r.speed) &+ n(r.accuracy) &+ n(r.longitude) &+ n(r.latitude)
                    &+ n(r.course) &+ n(r.heading) &+ n(r.second) &+ r.maneuver &+ n(r.raim) &+ r.radio
            },
            baseStation: { r in
                sum =
                    r.year &+ r.month &+ r.day &+ r.hour &+ r.minute &+ r.second &+ n(r.accuracy)
                    &+ n(r.longitude) &+ n(r.latitude) &+ r.epfd &+ n(r.raim) &+ r.radio
            },
            staticAndVoyage: { r in
                sum =
                    n(r.imo) &+ r.aisVersion &+ r.callSign.count &+ r.shipName.count &+ n(r.shipType) &+ r.toBow
                    &+ r.toStern &+ r.toPort &+ r.toStarboard &+ r.epfd &+ r.eta.month &+ r.eta.day &+ r.eta.hour
                    &+ r.eta.minute &+ n(r.draught) &+ r.destination.count &+ r.dte
            },
            classBPosition: { r in
                sum =
                    n(r.speed) &+ n(r.accuracy) &+ n(r.longitude) &+ n(r.latitude) &+ n(r.course) &+ n(r.heading)
                    &+ n(r.second) &+ n(r.carrierSense) &+ n(r.display) &+ n(r.dsc) &+ n(r.band)
                    &+ n(r.acceptsChannelManagement) &+ n(r.raim) &+ r.radio
            },
            extendedClassB: { r in
                sum =
                    n(r.speed) &+ n(r.accuracy) &+ n(r.longitude) &+ n(r.latitude) &+ n(r.course) &+ n(r.heading)
                    &+ n(r.second) &+ r.shipName.count &+ n(r.shipType) &+ r.toBow &+ r.toStern &+ r.toPort
                    &+ r.toStarboard &+ r.epfd &+ n(r.raim) &+ r.dte &+ n(r.assigned)
            },
            aidToNavigation: { r in
                sum =
                    r.aidType &+ r.name.count &+ n(r.accuracy) &+ n(r.longitude) &+ n(r.latitude) &+ r.toBow
                    &+ r.toStern &+ r.toPort &+ r.toStarboard &+ r.epfd &+ n(r.second) &+ n(r.offPosition)
                    &+ n(r.raim) &+ n(r.isVirtual)
            },
            staticData: { r in
                sum =
                    r.shipName.count &+ n(r.shipType) &+ r.vendorID.count &+ r.model &+ r.serial
                    &+ r.callSign.count &+ n(r.toBow) &+ n(r.toStern) &+ n(r.toPort) &+ n(r.toStarboard)
                    &+ n(r.mothershipMMSI)
            },
            longRange: { r in
                sum =
                    r.status &+ n(r.accuracy) &+ n(r.longitude) &+ n(r.latitude) &+ n(r.speed) &+ n(r.course)
                    &+ n(r.raim) &+ n(r.isStale)
            },
            other: { _ in typed = false })
        if typed {
            check &+= sum
        } else {
            message.forEachValue { _, value in check &+= BenchCommand.fingerprint(value) }
        }
    }

    static func aisRow(_ pass: AISPass, _ megabytes: Double) -> String {
        let rate = Double(pass.messages) / pass.seconds / 1e6
        let name = "AIS messages (typed)"
        let padded = name + String(repeating: " ", count: max(1, 23 - name.count))
        return "\(padded)\(format(rate, 2)) M messages/s    \(format(megabytes / pass.seconds, 0)) MB/s\n"
    }
}
