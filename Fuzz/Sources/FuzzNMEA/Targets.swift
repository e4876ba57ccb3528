#if canImport(Glibc)
    import Glibc
#endif

/// The fuzz targets of this binary, one per reader of untrusted bytes; `FUZZ_TARGET` picks one (default `nmea`).
enum Target: String, CaseIterable {
    /// Framer, every decoder, the fix stream (`FixReader`): NMEATarget.swift.
    case nmea
    /// The gpsd server's client command reader: ReaderTargets.swift.
    case gpsd
    /// `JSONValue`, the one JSON reader.
    case json
    /// The collector's OwnTracks payload reader.
    case owntracks
    /// Disk-queue recovery from damaged segment and head files: DiskQueueTarget.swift.
    case diskqueue
    /// The place file loader (`PlaceIndex`).
    case places
    /// The page's HTTP request reader (`HTTPRequest.parse`).
    case http
    /// Other apps' track files, each read by its reader and published by the one rule: TrackFileTargets.swift.
    case gpx, geojson, kml, csv
    /// AIS sentences: assembly and every message type's fields, JSON both ways: AISTarget.swift.
    case ais
    /// u-blox UBX frames: every decoder into fixes, JSON, the configuration answers: UBXTarget.swift.
    case ubx
    /// RTCM 3 frames: every decoder, JSON, whole and in pieces: RTCMTarget.swift.
    case rtcm
    /// What an NTRIP caster answers: the head, chunked transfer whole and in pieces, the sourcetable: NTRIPTarget.swift.
    case ntrip

    func run(_ input: UnsafeRawBufferPointer) {
        switch self {
        case .nmea: fuzzNMEA(input)
        case .gpsd: fuzzGPSDCommands(input)
        case .json: fuzzJSON(input)
        case .owntracks: fuzzOwnTracks(input)
        case .diskqueue: fuzzDiskQueue(input)
        case .places: fuzzPlaces(input)
        case .http: fuzzHTTPRequests(input)
        case .gpx: fuzzTrackFile(.gpx, input)
        case .geojson: fuzzTrackFile(.geojson, input)
        case .kml: fuzzTrackFile(.kml, input)
        case .csv: fuzzTrackFile(.csv, input)
        case .ais: fuzzAIS(input)
        case .ubx: fuzzUBX(input)
        case .rtcm: fuzzRTCM(input)
        case .ntrip: fuzzNTRIP(input)
        }
    }
}

let target: Target = {
    guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }) else { return .nmea }
    guard let target = Target(rawValue: name) else {
        let names = Target.allCases.map(\.rawValue).joined(separator: ", ")
        fail("FUZZ_TARGET=\(name) is not a target (\(names))")
    }
    return target
}()

/// libFuzzer entry point: hands the input to the chosen target, which traps when an invariant breaks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    target.run(UnsafeRawBufferPointer(start: size == 0 ? nil : data, count: size))
    return 0
}

/// The records a binary target reads its input as (`ubx`, `rtcm`): a selector byte, a length byte and that many
/// payload bytes (fewer when the input ends first), until fewer than two bytes are left.
func fuzzRecords(_ input: UnsafeRawBufferPointer, _ body: (_ selector: UInt8, _ payload: [UInt8]) -> Void) {
    var offset = 0
    while offset + 2 <= input.count {
        let selector = input[offset]
        let length = Int(input[offset + 1])
        offset += 2
        let payload = Array(input[offset..<min(input.count, offset + length)])
        offset += payload.count
        body(selector, payload)
    }
}
