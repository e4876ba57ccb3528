import NMEA
import System

/// What the HTTP collector makes of one request: the OsmAnd protocol (Traccar Client, GPSLogger, many hardware
/// trackers) and OwnTracks over HTTP.
///
/// **OsmAnd** (`GET` or `POST`, the fields in the query or in a form body, `application/x-www-form-urlencoded`):
///
///     /?id=358240051111110&lat=48.13741&lon=11.57554&timestamp=1764518400&speed=12.3&bearing=87&altitude=521&accuracy=4&batt=87
///
/// `id` (or `deviceid`) names the device; `lat` and `lon` (or `location=LAT,LON`) the position; `timestamp` is Unix
/// seconds, milliseconds (a number above 2³¹), or ISO 8601; `speed` is in knots, as Traccar reads it; `bearing` (or
/// `heading`) degrees; `altitude` metres; `accuracy` metres. Other fields (`batt`, `hdop`, …) are ignored.
///
/// **OwnTracks** (`POST`, `application/json`, HTTP basic auth): the payload the app would publish over MQTT; the
/// vehicle is `USER/DEVICE` from the `X-Limit-U` and `X-Limit-D` headers the app sends (the MQTT topic
/// `owntracks/USER/DEVICE` without its first level, so one phone is one vehicle over either transport), the login's
/// user when the app sends no `X-Limit-U`, and the payload's `tid` when it sends no `X-Limit-D`.
enum HTTPReport {
    /// Why a request is not stored.
    enum Refusal: Error, Equatable {
        /// 400: not a report.
        case invalid(String)
        /// 403: an ID not in the devices file.
        case unknownDevice(String)
        /// 401: OwnTracks without credentials (the client is asked for them).
        case noCredentials
        /// 403: a user not in the users file or a wrong password.
        case badLogin
        /// 200 `[]`: an OwnTracks message that is not a location (`lwt`, `transition`, `card`…), not stored.
        case notALocation
    }

    /// Knots to metres per second.
    static let knot = 1852.0 / 3600.0

    /// The OsmAnd report in `items` from a device of `devices`.
    static func osmAnd(_ items: [HTTPRequest.QueryItem], devices: DeviceList, now: Int64) -> Result<
        StoredPosition, Refusal
    > {
        var fields: [String: String] = [:]
        for item in items where fields[item.name] == nil { fields[item.name] = item.value }
        guard let id = fields["id"] ?? fields["deviceid"], !id.isEmpty else {
            return .failure(.invalid("no device id (id=…)"))
        }
        guard devices.names[id] != nil else { return .failure(.unknownDevice(id)) }
        var latitude = fields["lat"].flatMap { Double($0) }
        var longitude = fields["lon"].flatMap { Double($0) }
        if let location = fields["location"] {
            let parts = location.split(separator: ",")
            if parts.count == 2 {
                latitude = Double(parts[0])
                longitude = Double(parts[1])
            }
        }
        guard let latitude, let longitude else { return .failure(.invalid("no position (lat=…&lon=…)")) }
        var timestamp = now
        if let text = fields["timestamp"] {
            guard let parsed = time(text) else { return .failure(.invalid("'\(text)' is not a timestamp")) }
            timestamp = parsed
        }
        func number(_ names: String...) -> Result<Double?, Refusal> {
            for name in names {
                guard let text = fields[name], !text.isEmpty else { continue }
                guard let value = Double(text), value.isFinite else {
                    return .failure(.invalid("'\(name)' is not a number"))
                }
                return .success(value)
            }
            return .success(nil)
        }
        do throws(Refusal) {
            let position = StoredPosition(
                vehicle: id, timestamp: timestamp, latitude: latitude, longitude: longitude,
                altitudeMeters: try number("altitude", "alt").get(),
                speed: try number("speed").get().map { $0 * knot },
                courseDegrees: try number("bearing", "heading", "course").get(),
                accuracyMeters: try number("accuracy").get())
            try position.checkRanges()
            return .success(position)
        } catch {
            return .failure(error)
        }
    }

    /// Unix seconds, milliseconds (above 2³¹ − 1) or an ISO 8601 time, as whole seconds.
    static func time(_ text: String) -> Int64? {
        if let number = Int64(text) { return number > Int64(Int32.max) ? number / 1000 : number }
        if let number = Double(text), number.isFinite, number >= 0 {
            return number > Double(Int32.max) ? Int64(number / 1000) : Int64(number)
        }
        if let nanoseconds = ISO8601.parse(text) { return nanoseconds / 1_000_000_000 }
        return nil
    }

    /// The OwnTracks location in `body`, sent by `user` with the `X-Limit-D` `device`.
    static func ownTracks(_ body: [UInt8], user: String, device: String?) -> Result<StoredPosition, Refusal> {
        let location: OwnTracksLocation
        do {
            location = try OwnTracksLocation(json: body)
        } catch {
            if case .notALocation = error { return .failure(.notALocation) }
            return .failure(.invalid("\(error)"))
        }
        guard let device = device ?? location.trackerID, !device.isEmpty else {
            return .failure(.invalid("no device: send the X-Limit-D header or a \"tid\""))
        }
        do {
            return .success(try StoredPosition(vehicle: user + "/" + device, location: location))
        } catch {
            return .failure(.invalid(error.description))
        }
    }

    /// The `name=value&…` pairs of a form body, percent-decoded (`+` as a space); `nil` when malformed.
    static func formItems(_ body: [UInt8]) -> [HTTPRequest.QueryItem]? {
        var items: [HTTPRequest.QueryItem] = []
        for pair in body.split(separator: UInt8(ascii: "&")) {
            let trimmed = pair.filter { $0 != 0x0D && $0 != 0x0A }
            let equals = trimmed.firstIndex(of: UInt8(ascii: "="))
            guard let name = HTTPRequest.percentDecoded(trimmed[..<(equals ?? trimmed.endIndex)], plusIsSpace: true),
                let value = HTTPRequest.percentDecoded(
                    equals.map { trimmed[($0 + 1)...] } ?? [], plusIsSpace: true)
            else { return nil }
            items.append(HTTPRequest.QueryItem(name: name, value: value))
        }
        return items
    }
}

extension StoredPosition {
    /// The ranges ``init(vehicle:location:)`` checks, for a position made otherwise (an OsmAnd report).
    func checkRanges() throws(HTTPReport.Refusal) {
        func check(_ condition: Bool, _ what: String) throws(HTTPReport.Refusal) {
            if !condition { throw .invalid("\(what) is out of range") }
        }
        do {
            try StoredTrip.check(vehicle: vehicle)
        } catch {
            throw .invalid(error.description)
        }
        try check(latitude.isFinite && abs(latitude) <= 90, "lat")
        try check(longitude.isFinite && abs(longitude) <= 180, "lon")
        try check(timestamp >= 0 && timestamp < StoredTrip.latestSeconds, "timestamp")
        if let altitudeMeters { try check((-1000...100_000).contains(altitudeMeters), "altitude") }
        if let speed { try check((0...3000 / 3.6).contains(speed), "speed") }
        if let courseDegrees { try check((0...360).contains(courseDegrees), "bearing") }
        if let accuracyMeters { try check(accuracyMeters >= 0 && accuracyMeters < 1e7, "accuracy") }
    }
}
