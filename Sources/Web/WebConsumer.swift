import AIS
import Geodesy
import JSON
import NMEA
import Pipeline
import Presentation
import System
import Tracks
import Trips

/// Reads a pipeline's records (on a ``Pipeline/RingConsumerLoop``'s thread) into ``WebState``'s documents, and
/// publishes each change as a Server-Sent Event: `position` for every fix with a position (the provisional first
/// one included: the position at once), `status` when the connection, the fix or the satellites change (and at
/// most once a second for the counters), `sky` with the satellites of each complete epoch, `trip` with the whole trip document when a trip or a stop ends.
final class WebConsumer: RecordConsumer {
    private let state: WebState
    private let pipeline: ReceiverPipeline
    private let publish: @Sendable (ServerSentEvent) -> Void
    private let makePlaces: @Sendable () -> CachedGeocoder?
    /// Made on the consumer's thread with the first records (geocoders are not `Sendable`).
    private var places: CachedGeocoder??
    private var segmenter = TrackSegmenter()
    private var log = TripLog()
    private var json = JSONWriter(capacity: 8 * 1024)
    private var connection = ReceiverStatus.searching()
    private var latest: Fix?
    private var lastFixTime: Int64?
    private var cycleSeconds: Double?
    private var statusSentAt: MonotonicTime?
    private var lastStatus: [UInt8] = []
    private var recorded = (trips: 0, stops: 0)
    private var sourceEnded = false
    private var tripsEnded = false
    /// The last device named (an ended source names none).
    private var deviceName = ""
    /// AIS sentences into messages, and the stations heard (the same decoder as `nmea ais`; at most 4,096, those
    /// heard longest ago forgotten first).
    private var ais = AISSentenceReader()
    private var vessels = VesselRegistry(capacity: 4096)
    private var vesselsChanged = false
    private var vesselsSentAt: MonotonicTime?

    init(
        state: WebState, pipeline: ReceiverPipeline, places: @escaping @Sendable () -> CachedGeocoder?,
        publish: @escaping @Sendable (ServerSentEvent) -> Void
    ) {
        self.state = state
        self.pipeline = pipeline
        self.publish = publish
        makePlaces = places
    }

    private var geocoder: CachedGeocoder? {
        if places == nil { places = .some(makePlaces()) }
        return places ?? nil
    }

    func consume(_ records: UnsafeBufferPointer<PipelineRecord>, lost: Int) {
        var statusChanged = false
        var newest: (fix: Fix, readAt: MonotonicTime)?
        for record in records {
            switch record.content {
            case .fix(let fix):
                if fix.hasPosition { newest = (fix, record.time) }
                statusChanged = take(fix) || statusChanged
            case .status(let status):
                connection = status
                if !status.device.isEmpty { deviceName = status.device.string }
                if status.state == .ended { endTrips() }  // the last record: trips are final before "ended" shows
                statusChanged = true
            case .sentence(let sentence):
                sentence.withBytes { bytes in
                    guard let message = ais.add(bytes) else { return }
                    vessels.update(message, at: record.time.nanoseconds)
                    vesselsChanged = true
                }
            case .raw:
                continue
            }
        }
        // One position per batch, the newest: a batch is what arrived while the last one was handled.
        if let newest { publishPosition(newest.fix, readAt: newest.readAt) }
        publishStatus(force: statusChanged)
        publishVessels(force: false)
    }

    func idle() {
        publishStatus(force: false)
        publishVessels(force: false)
    }

    // MARK: Vessels

    /// Publishes the AIS stations when they changed, at most once a second (and at the end).
    private func publishVessels(force: Bool) {
        let now = MonotonicTime.now()
        guard vesselsChanged || force else { return }
        if !force, let sentAt = vesselsSentAt, now - sentAt < .seconds(1) { return }
        vesselsChanged = false
        vesselsSentAt = now
        json.reset()
        json.beginObject()
        json.key("vessels")
        json.beginArray()
        for vessel in vessels.sorted where vessel.position != nil { json.writeVessel(vessel, now: now.nanoseconds) }
        json.endArray()
        json.endObject()
        let document = json.bytes
        state.snapshot.withLock { $0.vessels = document }
        publish(ServerSentEvent(name: "vessels", data: document))
    }

    func finish() {
        endTrips()
        publishVessels(force: vesselsChanged)
        sourceEnded = true
        publishStatus(force: true)
        if case .some(.some(let places)) = places { places.save() }
    }

    // MARK: Fixes

    /// Returns `true` when the status shown changed (the kind of fix, the satellite counts).
    private func take(_ fix: Fix) -> Bool {
        let before = latest.map(StatusSummary.init)
        guard !fix.isProvisional else { return false }
        latest = fix
        if let time = fix.timestamp {
            if let last = lastFixTime, time > last, time - last <= 10_000_000_000 {
                cycleSeconds = Double(time - last) / 1e9
            }
            lastFixTime = time
        }
        let placement = segmenter.place(fix)
        if placement != .skip {
            if let timestamp = fix.timestamp, let latitude = fix.latitude, let longitude = fix.longitude {
                let startsSegment = placement == .newSegment
                let point = TrackPoints.Point(
                    latitude: latitude, longitude: longitude, timestamp: timestamp,
                    speed: fix.speed.map(Float.init) ?? .nan, startsSegment: startsSegment)
                state.snapshot.withLock { $0.track.append(point, limit: WebState.trackLimit) }
            }
        }
        if !fix.satellites.isEmpty {
            json.reset()
            writeSatellites(fix, into: &json)
            let satellites = json.bytes
            state.snapshot.withLock { $0.satellites = satellites }
            publish(ServerSentEvent(name: "sky", data: satellites))  // the server keeps the newest if it lags
        }
        _ = log.add(fix)
        publishTripsIfChanged()
        return before != StatusSummary(fix)
    }

    private func publishPosition(_ fix: Fix, readAt: MonotonicTime) {
        let place = geocoder?.placeName(latitude: fix.latitude!, longitude: fix.longitude!)?.label
        let degreesMinutes = Self.degreesMinutes(fix)
        json.reset()
        json.beginObject()
        json.writeMembers(of: fix)
        json.key("place")
        if let place { json.string(place) } else { json.null() }
        json.field("dm", degreesMinutes)
        json.field("decimal", Self.decimalDegrees(fix))
        json.endObject()
        let members = Array(json.bytes.dropFirst().dropLast())
        state.snapshot.withLock { snapshot in
            snapshot.positionMembers = members
            snapshot.positionReadAt = readAt
            snapshot.position = fix
            snapshot.place = place
            snapshot.degreesMinutes = degreesMinutes
        }
        publish(ServerSentEvent(name: "position", data: WebDocuments.position(members: members, readAt: readAt)))
    }

    /// `55°54.0060' N 37°25.7088' E`.
    static func degreesMinutes(_ fix: Fix) -> String? {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
        let glyphs = Glyphs.unicode
        return Formatting.degreesMinutes(latitude, positive: "N", negative: "S", glyphs: glyphs) + " "
            + Formatting.degreesMinutes(longitude, positive: "E", negative: "W", glyphs: glyphs)
    }

    /// `55.900100° N, 37.428480° E`.
    static func decimalDegrees(_ fix: Fix) -> String? {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
        let glyphs = Glyphs.unicode
        return Formatting.decimalDegrees(latitude, positive: "N", negative: "S", glyphs: glyphs) + ", "
            + Formatting.decimalDegrees(longitude, positive: "E", negative: "W", glyphs: glyphs)
    }

    /// `[{"name":"G05","system":"GPS","el":45,"az":120,"snr":38,"used":true},…]`; `snr` with the decimals the
    /// receiver sent (`24.5`).
    private func writeSatellites(_ fix: Fix, into json: inout JSONWriter) {
        json.beginArray()
        for satellite in fix.satellites {
            json.beginObject()
            json.field("name", Formatting.satelliteName(satellite))
            json.field("system", satellite.system?.name ?? "unknown")
            json.field("el", satellite.elevationDegrees.map(Int.init))
            json.field("az", satellite.azimuthDegrees.map(Int.init))
            json.field("snr", satellite.snr?.value)
            json.field("used", satellite.isUsed)
            json.endObject()
        }
        json.endArray()
    }

    // MARK: Trips

    /// The source ended: the trip under way ends here.
    private func endTrips() {
        guard !tripsEnded else { return }
        tripsEnded = true
        log.finish()
        publishTripsIfChanged()
    }

    private func publishTripsIfChanged() {
        guard log.trips.count != recorded.trips || log.stops.count != recorded.stops else { return }
        recorded = (log.trips.count, log.stops.count)
        let geocoder = geocoder
        json.reset()
        TripJSON.writeDocument(
            trips: log.trips, stops: log.stops,
            place: { geocoder?.placeName(latitude: $0, longitude: $1) }, into: &json)
        let document = json.bytes
        state.snapshot.withLock { $0.trips = document }
        publish(ServerSentEvent(name: "trip", data: document))
        geocoder?.save()
    }

    // MARK: Status

    /// Publishes the status when it changed: at once when `force` (a connection or fix change), else at most once
    /// a second (the counters).
    private func publishStatus(force: Bool) {
        let now = MonotonicTime.now()
        if !force, let sentAt = statusSentAt, now - sentAt < .seconds(1) { return }
        json.reset()
        writeStatus(into: &json)
        guard json.bytes != lastStatus else { return }
        lastStatus = json.bytes
        statusSentAt = now
        let status = json.bytes
        state.snapshot.withLock { $0.status = status }
        publish(ServerSentEvent(name: "status", data: status))
    }

    /// `{"device":…,"connection":"connected","baud":9600,"rate_hz":1,"fix":"3D","satellites_used":9,…}`.
    private func writeStatus(into json: inout JSONWriter) {
        let statistics = pipeline.statistics
        json.beginObject()
        json.field("device", deviceName)
        json.key("connection")
        json.string(Self.connectionWord(connection.state, ended: sourceEnded))
        if connection.state == .disconnected || connection.state == .ended {
            json.field("reason", connection.reason.description)
        }
        json.field("baud", connection.baudRate > 0 ? Int(connection.baudRate) : nil)
        json.field("rate_hz", cycleSeconds.map { 1 / $0 }, maximumDecimals: 2)
        let fix = latest
        json.field("fix", fix.map { Formatting.fixKind($0) } ?? "no fix")
        json.field("satellites_used", fix?.satellitesUsed)
        json.field("satellites_in_view", fix.flatMap { $0.satellites.isEmpty ? nil : $0.satellites.count })
        json.key("systems")
        json.beginArray()
        if let fix {
            for summary in SystemCount.counts(fix) {
                json.beginObject()
                json.field("system", summary.name)
                json.field("used", summary.used)
                json.field("in_view", summary.inView)
                json.endObject()
            }
        }
        json.endArray()
        json.field("sentences", statistics.framer.sentences)
        json.field("rejected_lines", statistics.framer.rejected)
        json.field("fixes", statistics.published.fixes)
        if let corrections = pipeline.corrections { writeCorrections(corrections, near: fix, into: &json) }
        json.endObject()
    }

    /// `"corrections":{"source":"ntrip://…","connected":true,"age_s":0.4,"messages_per_s":1.1,"station_id":2003,
    /// "station_distance_m":1459}`: what feeds the receiver, as the page's Receiver panel shows it.
    private func writeCorrections(_ corrections: CorrectionSummary, near fix: Fix?, into json: inout JSONWriter) {
        json.key("corrections")
        json.beginObject()
        json.field("source", corrections.source)
        json.field("connected", corrections.isConnected)
        json.field("age_s", corrections.ageSeconds, decimals: 1)
        json.field("messages_per_s", corrections.messagesPerSecond, maximumDecimals: 1)
        json.field("station_id", corrections.stationID)
        if let latitude = fix?.latitude, let longitude = fix?.longitude,
            let stationLatitude = corrections.stationLatitude,
            let stationLongitude = corrections.stationLongitude
        {
            json.field(
                "station_distance_m",
                Geodesy.distanceMeters(latitude, longitude, stationLatitude, stationLongitude).rounded())
        }
        json.endObject()
    }

    /// `searching`, `connecting`, `connected`, `unplugged`, `ended`.
    static func connectionWord(_ state: ReceiverStatus.State, ended: Bool) -> String {
        if ended { return "ended" }
        switch state {
        case .searching: return "searching"
        case .connecting: return "connecting"
        case .connected: return "connected"
        case .disconnected: return "unplugged"
        case .ended: return "ended"
        }
    }
}

/// What of a fix the status shows: when it changes, the status is sent at once.
private struct StatusSummary: Equatable {
    var mode: FixMode
    var quality: FixQuality
    var used: Int?
    var inView: Int

    init(_ fix: Fix) {
        mode = fix.mode
        quality = fix.quality
        used = fix.satellitesUsed
        inView = fix.satellites.count
    }
}

/// Satellites used and in view for one system.
struct SystemCount: Equatable {
    var name: String
    var used: Int
    var inView: Int

    /// One entry per system in view, in the order the systems are numbered (GPS first).
    static func counts(_ fix: Fix) -> [SystemCount] {
        var counts: [SystemCount] = []
        for satellite in fix.satellites {
            let name = satellite.system?.name ?? "unknown"
            if let index = counts.firstIndex(where: { $0.name == name }) {
                counts[index].inView += 1
                if satellite.isUsed { counts[index].used += 1 }
            } else {
                counts.append(SystemCount(name: name, used: satellite.isUsed ? 1 : 0, inView: 1))
            }
        }
        return counts
    }
}

/// The documents the routes and the events share.
enum WebDocuments {
    /// `/api/position`: the position's members and its age in seconds at `now`.
    static func position(members: [UInt8], readAt: MonotonicTime, now: MonotonicTime = .now()) -> [UInt8] {
        var json = JSONWriter(capacity: members.count + 32)
        json.beginObject()
        json.raw(members)
        json.field("age_s", max(0, Double(now.nanoseconds - readAt.nanoseconds) / 1e9), decimals: 1)
        json.endObject()
        return json.bytes
    }
}
