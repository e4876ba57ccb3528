import AIS
import JSON
import NMEA
import Pipeline
import System
import Threading

// MARK: Consumer thread: records → reports, encoded once

extension GPSDServer {
    /// Reads the ring (on the ``RingConsumerLoop``'s thread); encodes each fix as TPV (and SKY for a complete epoch),
    /// each sentence as a line, each connection change as DEVICE; hands them to the socket thread after each batch.
    final class ReportEncoder: RecordConsumer {
        let shared: Locked<SharedState>
        let wakeUp: WakeUp
        var json = JSONWriter(capacity: 16 * 1024)
        var device: GPSDDevice?
        var path = ""
        var cycle = 1.0
        var lastFixTime: Int64?
        var batch: [Outgoing] = []
        /// Raw NMEA: sentences only, no reports encoded.
        let sentencesOnly: Bool
        /// AIS sentences (`!xxVDM`, `!xxVDO`) become AIS reports, as gpsd sends them: raw numbers, or values in
        /// units for the clients that watch with `"scaled":true`.
        var ais = AISSentenceReader()

        init(shared: Locked<SharedState>, wakeUp: WakeUp, sentencesOnly: Bool) {
            self.shared = shared
            self.wakeUp = wakeUp
            self.sentencesOnly = sentencesOnly
        }

        func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
            var latestTPV: [UInt8]?
            var latestSKY: [UInt8]?
            var deviceChanged = false
            for record in records {
                if sentencesOnly, record.sentence == nil { continue }
                switch record.content {
                case .fix(let fix):
                    json.reset()
                    GPSDReports.writeTPV(fix, device: path, into: &json)
                    latestTPV = json.bytes
                    batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                    if !fix.isProvisional, GPSDReports.hasSky(fix) {
                        json.reset()
                        GPSDReports.writeSKY(fix, device: path, into: &json)
                        latestSKY = json.bytes
                        batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                    }
                    if !fix.isProvisional, GPSDReports.hasAttitude(fix) {
                        json.reset()
                        GPSDReports.writeATT(fix, device: path, into: &json)
                        batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                    }
                    if !fix.isProvisional, let time = fix.timestamp, learnCycle(time) { deviceChanged = true }
                case .sentence(let sentence):
                    let bytes = sentence.withBytes { SharedBytes($0) }
                    batch.append(Outgoing(audience: .sentences, bytes: bytes))
                    if !sentencesOnly { sentence.withBytes { encodeAIS($0) } }
                case .status(let status):
                    deviceChanged = take(status) || deviceChanged
                case .raw:
                    continue
                }
            }
            post(latestTPV: latestTPV, latestSKY: latestSKY, deviceChanged: deviceChanged, lost: lost)
        }

        /// An AIS sentence (its bytes from `!` to the checksum) into the decoder; the message it completes, if any,
        /// as an AIS report for the clients that watch JSON.
        private func encodeAIS(_ bytes: UnsafeRawBufferPointer) {
            guard let message = ais.add(bytes) else { return }
            for scaled in [false, true] {
                json.reset()
                json.writeAIS(message, scaled: scaled)
                batch.append(Outgoing(audience: scaled ? .aisScaled : .aisRaw, bytes: .line(json.bytes)))
            }
        }

        func finish() {
            post(latestTPV: nil, latestSKY: nil, deviceChanged: false, lost: 0, finished: true)
        }

        /// The receiver's cycle from consecutive fix times (for DEVICE's `cycle`); `true` when it changed.
        private func learnCycle(_ time: Int64) -> Bool {
            defer { lastFixTime = time }
            guard let last = lastFixTime, time > last, time - last <= 10_000_000_000 else { return false }
            cycle = Double((time - last) / 1_000_000) / 1000
            guard var active = device, active.cycleSeconds != cycle else { return false }
            active.cycleSeconds = cycle
            device = active
            return true
        }

        /// A connection change as DEVICE (activated or deactivated); `true` when the active device changed.
        private func take(_ status: ReceiverStatus) -> Bool {
            let name = status.device.string
            switch status.state {
            case .connected:
                path = name.isEmpty ? path : name
                let active = GPSDDevice(
                    path: path, baudRate: Int(status.baudRate),
                    activatedNanoseconds: WallClock.nanosecondsSinceEpoch(), cycleSeconds: cycle)
                device = active
                json.reset()
                GPSDReports.writeDevice(active, into: &json)
                batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                return true
            case .disconnected, .ended, .searching, .connecting:
                var changed = false
                if let active = device {
                    json.reset()
                    GPSDReports.writeDeactivated(path: active.path, into: &json)
                    batch.append(Outgoing(audience: .reports, bytes: .line(json.bytes)))
                    device = nil
                    changed = true
                    lastFixTime = nil
                }
                if status.state == .connecting && !name.isEmpty { path = name }
                return changed
            }
        }

        /// Hands the batch to the socket thread and wakes it.
        private func post(
            latestTPV: [UInt8]?, latestSKY: [UInt8]?, deviceChanged: Bool, lost: Int,
            finished: Bool = false
        ) {
            guard !batch.isEmpty || deviceChanged || lost > 0 || finished else { return }
            let reports = batch.count
            let (device, path, batch) = (device, path, batch)
            shared.withLock { state in
                state.post(batch, limit: 16_384)
                if let latestTPV { state.latestTPV = latestTPV }
                if let latestSKY { state.latestSKY = latestSKY }
                if deviceChanged { state.device = device }
                state.devicePath = path
                state.statistics.reports += reports
                state.statistics.lostRecords += lost
                if finished { state.statistics.sourceEnded = true }
            }
            self.batch.removeAll(keepingCapacity: true)
            wakeUp.signal()
        }
    }
}
