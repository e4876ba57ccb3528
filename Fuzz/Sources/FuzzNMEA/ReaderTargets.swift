import Fleet
import JSON
@_spi(Fuzzing) import Publisher
import System
import Trips
import Web

/// The gpsd command reader, as the server feeds it: the client's bytes whole, and in two reads (the first scan's
/// consumed bytes dropped, the rest kept and scanned again with the second read appended). Both give the same
/// commands; a small limit (from the hash) must never trap.
func fuzzGPSDCommands(_ input: UnsafeRawBufferPointer) {
    let whole = CommandScannerProbe.scan(input, maximumLength: 4096)
    require(whole.consumed <= input.count, "gpsd: consumed \(whole.consumed) of \(input.count) bytes")
    require(!whole.overflow, "gpsd: overflow under a limit longer than the input")
    let cut = input.isEmpty ? 0 : Int(fnv1a(input) % UInt64(input.count + 1))
    let first = CommandScannerProbe.scan(UnsafeRawBufferPointer(rebasing: input[..<cut]), maximumLength: 4096)
    require(first.consumed <= cut, "gpsd: consumed more than the first read")
    let rest = UnsafeRawBufferPointer(rebasing: input[first.consumed...])
    let second = CommandScannerProbe.scan(rest, maximumLength: 4096)
    require(
        first.commands + second.commands == whole.commands,
        "gpsd: split at \(cut), the commands differ:\n\(whole.commands)\nvs\n\(first.commands + second.commands)")
    require(first.consumed + second.consumed == whole.consumed, "gpsd: split at \(cut), consumed differs")
    let small = CommandScannerProbe.scan(input, maximumLength: 1 + Int(fnv1a(input) >> 40) % 64)
    require(small.consumed <= input.count, "gpsd: consumed past the input under a small limit")
}

/// The JSON reader: a value it accepts, written back, is read again as the same text (the second writing equals
/// the first), at every depth limit up to the one that accepted it.
func fuzzJSON(_ input: UnsafeRawBufferPointer) {
    let depth = input.isEmpty ? 64 : 1 + Int(input[0] % 70)
    let value: JSONValue
    do {
        value = try JSONValue(parsing: input, maximumDepth: depth)
    } catch {
        require(error.offset >= 0 && error.offset <= input.count, "json: error offset \(error.offset) out of range")
        blackHole(error.description)
        return
    }
    let text = write(value)
    let again: JSONValue
    do {
        again = try JSONValue(parsing: text, maximumDepth: depth)
    } catch {
        fail(
            "json: its own writing of an accepted value is refused (\(error)): \(String(decoding: text, as: UTF8.self))"
        )
    }
    require(write(again) == text, "json: writing is not stable: \(String(decoding: text, as: UTF8.self))")
    var members = 0
    do {
        let isObject = try JSONValue.forEachMember(ofObject: input, maximumDepth: depth) { _, _ in members += 1 }
        require(isObject == (value.object != nil), "json: forEachMember disagrees about an object")
        if let object = value.object { require(members >= object.count, "json: forEachMember saw fewer members") }
    } catch {
        fail("json: forEachMember refuses what init(parsing:) accepted: \(error)")
    }
}

/// `value` as JSON, with object keys sorted so that the text does not depend on dictionary order.
func write(_ value: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    func emit(_ value: JSONValue) {
        switch value {
        case .null: writer.null()
        case .bool(let flag): writer.bool(flag)
        case .number(let number): writer.number(number)
        case .string(let string): writer.string(string)
        case .array(let items):
            writer.beginArray()
            for item in items { emit(item) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for key in members.keys.sorted() {
                writer.key(key)
                emit(members[key]!)
            }
            writer.endObject()
        }
    }
    emit(value)
    return writer.bytes
}

/// The collector's OwnTracks reader: an accepted payload is in range, and written back it reads as itself once
/// written (the writer may round; a second round trip changes nothing).
func fuzzOwnTracks(_ input: UnsafeRawBufferPointer) {
    let location: OwnTracksLocation
    do {
        location = try OwnTracksLocation(json: input)
    } catch {
        blackHole(error.description)
        return
    }
    require(abs(location.latitude) <= 90 && abs(location.longitude) <= 180, "owntracks: position out of range")
    touchValues(location.fix)
    let once: OwnTracksLocation
    do {
        once = try OwnTracksLocation(json: location.json)
    } catch {
        fail("owntracks: our own payload is refused (\(error)): \(String(decoding: location.json, as: UTF8.self))")
    }
    let twice = try? OwnTracksLocation(json: once.json)
    require(twice == once, "owntracks: round trip not stable: \(String(decoding: once.json, as: UTF8.self))")
}

/// The place file loader: refuses or loads; a loaded index answers lookups with places of its own.
func fuzzPlaces(_ input: UnsafeRawBufferPointer) {
    let index: PlaceIndex
    do {
        index = try PlaceIndex(bytes: Array(input))
    } catch {
        blackHole(error.description)
        return
    }
    require(index.count > 0, "places: an empty index loaded")
    let hash = fnv1a(input)
    let latitude = Double(Int(hash % 18001) - 9000) / 100
    let longitude = Double(Int((hash >> 16) % 36001) - 18000) / 100
    let nearest = index.nearest(latitude: latitude, longitude: longitude)
    require(nearest.index >= 0 && nearest.index < index.count, "places: nearest index \(nearest.index) out of range")
    require(nearest.distanceMeters >= 0 && nearest.distanceMeters < 20_100_000, "places: distance out of range")
    for place in [0, nearest.index, index.count - 1] {
        touchValues(index.place(at: place))
        let coordinates = index.coordinates(at: place)
        require(abs(coordinates.latitude) <= 90 && abs(coordinates.longitude) <= 180, "places: coordinates")
    }
}

/// The page's HTTP request reader, as its server feeds it: the bytes received so far, under the 8 KiB limit and
/// under a small one. A request's head lies within the input, its path starts with `/`; "incomplete" only while
/// under the limit; read again, the same bytes give the same answer.
func fuzzHTTPRequests(_ input: UnsafeRawBufferPointer) {
    for limit in [8192, 1 + Int(fnv1a(input) >> 40) % 256] {
        let parsed = HTTPRequest.parse(input, limit: limit)
        switch parsed {
        case .incomplete:
            require(input.count < limit, "http: incomplete at \(input.count) bytes, over the limit \(limit)")
        case .request(let request, let consumed):
            require(consumed > 0 && consumed <= input.count, "http: consumed \(consumed) of \(input.count)")
            require(request.path.hasPrefix("/"), "http: a path without a leading slash: \(request.path)")
            // A body is announced by a length or a transfer coding (which the handlers refuse or read, then close
            // or keep the connection as the headers say: keeping it alive is theirs to decide, not the reader's).
            require(
                request.hasBody == (request.contentLength > 0 || request.isChunked),
                "http: a body announced otherwise than by its headers")
            blackHole(request.queryValue("since"))
        case .invalid(let status, let reason):
            require((400..<600).contains(status.code), "http: status \(status.code) for an invalid request")
            blackHole(reason)
        }
        require(HTTPRequest.parse(input, limit: limit) == parsed, "http: a second reading differs")
    }
}
