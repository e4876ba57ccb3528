import JSON
import NMEA

/// A finished trip as published to `<topic>/trip`: the fields of one trip in `nmea trips --json`.
///
///     {"_type":"trip","start":{"time":"2026-11-30T09:00:04Z","lat":55.9001,"lon":37.42848,"place":"Khimki, RU"},
///      "end":{…},"distance_m":21834,"duration_s":1796,"avg_speed_kmh":43.8,"max_speed_kmh":90.0}
///
/// A small type of its own so that the fleet module does not depend on the trip detector: `nmea record` maps its
/// trips onto it. Times are ISO 8601 UTC (milliseconds when there is a fraction), positions six decimals, the
/// distance whole metres, speeds one decimal, `place` `null` when unknown — as `nmea trips --json` writes them.
/// `"_type":"trip"` is added so that consumers of `owntracks/#` that dispatch on `_type` can tell it from the
/// OwnTracks types.
public struct TripSummary: Sendable, Hashable {
    /// Where and when a trip started or ended.
    public struct Endpoint: Sendable, Hashable {
        /// Nanoseconds since 1970-01-01 UTC.
        public var timestamp: Int64
        public var latitude: Double
        public var longitude: Double
        /// A readable place (`"3 km NE of Khimki, Moscow Oblast, RU"`), when known.
        public var place: String?

        public init(timestamp: Int64, latitude: Double, longitude: Double, place: String? = nil) {
            self.timestamp = timestamp
            self.latitude = latitude
            self.longitude = longitude
            self.place = place
        }
    }

    public var start: Endpoint
    public var end: Endpoint
    /// Along the track, metres.
    public var distanceMeters: Double
    public var durationSeconds: Double
    public var averageSpeedKmh: Double
    public var maximumSpeedKmh: Double

    public init(
        start: Endpoint, end: Endpoint, distanceMeters: Double, durationSeconds: Double,
        averageSpeedKmh: Double, maximumSpeedKmh: Double
    ) {
        self.start = start
        self.end = end
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.averageSpeedKmh = averageSpeedKmh
        self.maximumSpeedKmh = maximumSpeedKmh
    }

    /// The JSON text (one line).
    public var json: [UInt8] {
        var writer = JSONWriter(capacity: 320)
        writer.beginObject()
        writer.field("_type", "trip" as StaticString)
        writer.key("start")
        Self.write(start, into: &writer)
        writer.key("end")
        Self.write(end, into: &writer)
        writer.field("distance_m", distanceMeters, decimals: 0)
        writer.field("duration_s", durationSeconds)
        writer.field("avg_speed_kmh", averageSpeedKmh, decimals: 1)
        writer.field("max_speed_kmh", maximumSpeedKmh, decimals: 1)
        writer.endObject()
        return writer.bytes
    }

    private static func write(_ point: Endpoint, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("time")
        writer.asciiString { output in ISOTime.write(point.timestamp, to: output) }
        writer.field("lat", point.latitude, decimals: 6)
        writer.field("lon", point.longitude, decimals: 6)
        writer.key("place")
        if let place = point.place { writer.string(place) } else { writer.null() }
        writer.endObject()
    }

    /// Reads a trip message (with or without `_type`).
    /// - Throws: ``TripSummaryError`` naming what is missing.
    public init(json bytes: some Collection<UInt8>) throws(TripSummaryError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw TripSummaryError(reason: error.description)
        }
        guard value.object != nil else { throw TripSummaryError(reason: "not a JSON object") }
        if let type = value["_type"]?.string, type != "trip" {
            throw TripSummaryError(reason: "a \"\(type)\" message, not a trip")
        }
        func endpoint(_ key: String) throws(TripSummaryError) -> Endpoint {
            guard let object = value[key], object.object != nil else {
                throw TripSummaryError(reason: "no \"\(key)\" object")
            }
            guard let text = object["time"]?.string, let timestamp = ISOTime.parse(text) else {
                throw TripSummaryError(reason: "no valid \"\(key)\".\"time\"")
            }
            guard let latitude = object["lat"]?.number, let longitude = object["lon"]?.number else {
                throw TripSummaryError(reason: "no \"\(key)\".\"lat\" and \"lon\"")
            }
            return Endpoint(
                timestamp: timestamp, latitude: latitude, longitude: longitude,
                place: object["place"]?.string)
        }
        start = try endpoint("start")
        end = try endpoint("end")
        func number(_ key: String) throws(TripSummaryError) -> Double {
            guard let value = value[key]?.number else { throw TripSummaryError(reason: "no \"\(key)\"") }
            return value
        }
        distanceMeters = try number("distance_m")
        durationSeconds = try number("duration_s")
        averageSpeedKmh = try number("avg_speed_kmh")
        maximumSpeedKmh = try number("max_speed_kmh")
    }
}

/// A message on a `…/trip` topic that is not a trip.
public struct TripSummaryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// ISO 8601 UTC times from and to nanoseconds since 1970.
public enum ISOTime {
    /// `2026-11-30T08:00:00Z`, or `2026-11-30T08:00:00.25Z` (milliseconds, trailing zeros left out).
    public static func write(_ timestamp: Int64, to output: (UInt8) -> Void) {
        let milliseconds = floorDivide(timestamp + 500_000, 1_000_000)
        let seconds = floorDivide(milliseconds, 1000)
        var fraction = Int(milliseconds - seconds * 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        UTCDate(daysSinceEpoch: Int(days)).write(to: output)
        output(UInt8(ascii: "T"))
        func two(_ value: Int) {
            output(UInt8(ascii: "0") + UInt8(value / 10))
            output(UInt8(ascii: "0") + UInt8(value % 10))
        }
        two(secondOfDay / 3600)
        output(UInt8(ascii: ":"))
        two(secondOfDay / 60 % 60)
        output(UInt8(ascii: ":"))
        two(secondOfDay % 60)
        if fraction > 0 {
            output(UInt8(ascii: "."))
            var digits = 3
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                output(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
                divisor /= 10
            }
        }
        output(UInt8(ascii: "Z"))
    }

    /// The text form of ``write(_:to:)``.
    public static func string(_ timestamp: Int64) -> String {
        var text = ""
        write(timestamp) { text.unicodeScalars.append(Unicode.Scalar($0)) }
        return text
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fff…]Z` (or `+00:00`); `nil` for anything else.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"), let month = number(5..<7),
            bytes[7] == UInt8(ascii: "-"), let day = number(8..<10), bytes[10] | 0x20 == UInt8(ascii: "t"),
            let hour = number(11..<13), bytes[13] == UInt8(ascii: ":"), let minute = number(14..<16),
            bytes[16] == UInt8(ascii: ":"), let second = number(17..<19),
            (1...12).contains(month), (1...UTCDate.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var nanoseconds: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000_000
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                nanoseconds += Int64(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        let rest = String(decoding: bytes[index...], as: UTF8.self)
        guard rest == "Z" || rest == "z" || rest == "+00:00" else { return nil }
        let days = Int64(UTCDate(year: Int16(year), month: UInt8(month), day: UInt8(day)).daysSinceEpoch)
        return (days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1_000_000_000 + nanoseconds
    }
}

private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
}
