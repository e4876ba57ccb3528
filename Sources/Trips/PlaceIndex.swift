import Geodesy

/// A populated place from the offline place file (GeoNames).
public struct Place: Sendable, Hashable {
    public var name: String
    /// The first-level administrative division (state, region, oblast); empty when GeoNames has none.
    public var admin1: String
    /// The second-level division (county, district); empty when GeoNames has none.
    public var admin2: String
    /// ISO 3166-1 alpha-2: `"RU"`.
    public var countryCode: String
    /// Decimal degrees (GeoNames gives five decimals, about a metre).
    public var latitude: Double
    public var longitude: Double
    /// Inhabitants, exact below 4096 and to four significant digits above (as the place file keeps it).
    public var population: Int

    public init(
        name: String, admin1: String, admin2: String, countryCode: String, latitude: Double,
        longitude: Double, population: Int
    ) {
        self.name = name
        self.admin1 = admin1
        self.admin2 = admin2
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
    }
}

/// A place file that is not one, or is damaged.
public struct PlaceFileError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The places of the offline place file with a k-d tree over them, for nearest-place lookups.
///
/// The file (`Resources/places.bin`, made by `scripts/build-places`; its layout is described there) holds fixed-point
/// coordinates, names and a table of administrative regions. Loading reads it whole and builds a 3-d tree over the
/// places as unit vectors from the Earth's centre: the straight-line nearest there is the great-circle nearest on
/// the surface, with no special cases at the date line or the poles.
///
/// - Complexity: loading O(n log n); ``nearest(latitude:longitude:)`` O(log n) on average.
public final class PlaceIndex: Sendable {
    /// Number of places.
    public let count: Int
    /// The first four bytes of the SHA-256 of the file's contents: names this data for caches.
    public let identity: UInt32
    /// Where the data comes from and its licence, as the file says.
    public let about: String

    private let bytes: [UInt8]
    private let countries: [String]
    /// Offsets of the admin strings' length bytes.
    private let stringOffsets: [UInt32]
    private let regionCountry: [UInt8]
    private let regionAdmin1: [UInt16]
    private let regionAdmin2: [UInt16]
    /// The first place of each region, in file order (places are grouped by region).
    private let regionStarts: [UInt32]
    /// The offset of the name of every ``nameStride``th place: the ones between are found by skipping names, which
    /// costs a few nanoseconds and saves 4 bytes a place.
    private let nameOffsets: [UInt32]
    private static let nameStride = 16
    private let coordinatesOffset: Int
    private let populationOffset: Int
    private let tree: KDTree

    /// The file's first bytes.
    static let magic = Array("NMEAPLC1".utf8)
    static let headerSize = 40

    /// Loads a place file.
    /// - Throws: ``FileError`` when it cannot be read, ``PlaceFileError`` when it is not a valid place file.
    public convenience init(path: String) throws {
        try self.init(bytes: FileSystem.read(path))
    }

    /// Loads a place file from its bytes.
    /// - Throws: ``PlaceFileError`` when they are not a valid place file.
    public init(bytes: [UInt8]) throws(PlaceFileError) {
        var reader = ByteReader(bytes)
        let header = try Header(&reader)
        identity = header.identity
        about = header.about
        var countries: [String] = []
        countries.reserveCapacity(header.countryCount)
        for _ in 0..<header.countryCount { countries.append(String(decoding: try reader.bytes(2), as: UTF8.self)) }
        var stringOffsets: [UInt32] = []
        stringOffsets.reserveCapacity(header.stringCount)
        for _ in 0..<header.stringCount {
            stringOffsets.append(UInt32(reader.offset))
            try reader.skip(Int(try reader.u8()))
        }
        let regions = try Regions(&reader, header)
        let placeCount = header.placeCount
        let coordinatesOffset = reader.offset
        self.coordinatesOffset = coordinatesOffset
        try reader.skip(placeCount * 8)
        populationOffset = reader.offset
        try reader.skip(placeCount * 2)
        var nameOffsets: [UInt32] = []
        nameOffsets.reserveCapacity(placeCount / PlaceIndex.nameStride + 1)
        for index in 0..<placeCount {
            if index % PlaceIndex.nameStride == 0 { nameOffsets.append(UInt32(reader.offset)) }
            try reader.skip(Int(try reader.u8()))
        }
        guard reader.offset == bytes.count else {
            throw PlaceFileError("place file has \(bytes.count - reader.offset) bytes too many")
        }
        let points = try Self.unitVectors(bytes, at: coordinatesOffset, count: placeCount)
        self.bytes = bytes
        self.countries = countries
        self.stringOffsets = stringOffsets
        regionCountry = regions.country
        regionAdmin1 = regions.admin1
        regionAdmin2 = regions.admin2
        regionStarts = regions.starts
        self.nameOffsets = nameOffsets
        count = placeCount
        tree = KDTree(points: points)
    }

    /// A place file's header: its counts, identity and description.
    private struct Header {
        let placeCount: Int
        let regionCount: Int
        let stringCount: Int
        let countryCount: Int
        let identity: UInt32
        let about: String

        init(_ reader: inout ByteReader) throws(PlaceFileError) {
            let bytes = reader.bytes
            guard bytes.count >= PlaceIndex.headerSize, Array(bytes[0..<8]) == PlaceIndex.magic else {
                throw PlaceFileError("not a place file (no NMEAPLC1 header)")
            }
            reader.offset = 8
            let version = try reader.u32()
            guard version == 1 else { throw PlaceFileError("place file version \(version) is not supported") }
            placeCount = Int(try reader.u32())
            regionCount = Int(try reader.u32())
            stringCount = Int(try reader.u32())
            countryCount = Int(try reader.u32())
            identity = try reader.u32()
            let aboutLength = Int(try reader.u16())
            guard placeCount > 0, placeCount < 1 << 24, regionCount > 0, regionCount <= 65536, stringCount > 0,
                stringCount <= 65536, countryCount > 0, countryCount <= 256
            else { throw PlaceFileError("place file header has impossible counts") }
            reader.offset = PlaceIndex.headerSize
            about = String(decoding: try reader.bytes(aboutLength), as: UTF8.self)
        }
    }

    /// The regions: each one's country, admin1 and admin2 names, and first place.
    private struct Regions {
        var country: [UInt8] = []
        var admin1: [UInt16] = []
        var admin2: [UInt16] = []
        var starts: [UInt32] = []

        init(_ reader: inout ByteReader, _ header: Header) throws(PlaceFileError) {
            country.reserveCapacity(header.regionCount)
            admin1.reserveCapacity(header.regionCount)
            admin2.reserveCapacity(header.regionCount)
            starts.reserveCapacity(header.regionCount)
            var placesInRegions = 0
            for region in 0..<header.regionCount {
                let country = try reader.u8()
                let admin1 = try reader.u16()
                let admin2 = try reader.u16()
                let places = Int(try reader.u16())
                guard Int(country) < header.countryCount, Int(admin1) < header.stringCount,
                    Int(admin2) < header.stringCount, places > 0, placesInRegions + places <= header.placeCount
                else { throw PlaceFileError("place file region \(region) is out of range") }
                self.country.append(country)
                self.admin1.append(admin1)
                self.admin2.append(admin2)
                starts.append(UInt32(placesInRegions))
                placesInRegions += places
            }
            guard placesInRegions == header.placeCount else {
                throw PlaceFileError(
                    "place file regions hold \(placesInRegions) places, not \(header.placeCount)")
            }
        }
    }

    /// Unit vectors for the tree, from the coordinates at `offset`, which are checked on the way.
    private static func unitVectors(_ bytes: [UInt8], at coordinatesOffset: Int, count placeCount: Int)
        throws(PlaceFileError) -> [Float]
    {
        var points = [Float](repeating: 0, count: placeCount * 3)
        var failure: PlaceFileError?
        bytes.withUnsafeBytes { raw in
            points.withUnsafeMutableBufferPointer { points in
                for index in 0..<placeCount {
                    let latitude = raw.loadUnaligned(fromByteOffset: coordinatesOffset + index * 8, as: Int32.self)
                    let longitude = raw.loadUnaligned(
                        fromByteOffset: coordinatesOffset + index * 8 + 4,
                        as: Int32.self)
                    let latitudeValue = Int32(littleEndian: latitude)
                    let longitudeValue = Int32(littleEndian: longitude)
                    // Ranges, not `abs`: `abs(Int32.min)` traps.
                    guard (-9_000_000...9_000_000).contains(latitudeValue),
                        (-18_000_000...18_000_000).contains(longitudeValue)
                    else {
                        failure = PlaceFileError("place file coordinates of place \(index) are out of range")
                        return
                    }
                    let vector = Geodesy.unitVector(Double(latitudeValue) / 1e5, Double(longitudeValue) / 1e5)
                    points[index * 3] = Float(vector.x)
                    points[index * 3 + 1] = Float(vector.y)
                    points[index * 3 + 2] = Float(vector.z)
                }
            }
        }
        if let failure { throw failure }
        return points
    }

    /// The place nearest to a position by great-circle distance, and that distance in metres. Ties (places at the
    /// same spot) go to the one first in the file.
    public func nearest(latitude: Double, longitude: Double) -> (index: Int, distanceMeters: Double) {
        let query = Geodesy.unitVector(latitude, longitude)
        let found = tree.nearest(query.x, query.y, query.z) { index in
            let place = coordinates(at: index)
            let vector = Geodesy.unitVector(place.latitude, place.longitude)
            let dx = vector.x - query.x
            let dy = vector.y - query.y
            let dz = vector.z - query.z
            return dx * dx + dy * dy + dz * dz
        }
        let place = coordinates(at: found)
        return (found, Geodesy.distanceMeters(latitude, longitude, place.latitude, place.longitude))
    }

    /// The place at `index` (0..<count).
    public func place(at index: Int) -> Place {
        let region = region(of: index)
        let position = coordinates(at: index)
        return Place(
            name: name(at: index),
            admin1: string(at: Int(stringOffsets[Int(regionAdmin1[region])])),
            admin2: string(at: Int(stringOffsets[Int(regionAdmin2[region])])),
            countryCode: countries[Int(regionCountry[region])],
            latitude: position.latitude, longitude: position.longitude,
            population: population(at: index))
    }

    /// The coordinates of the place at `index`, decimal degrees.
    public func coordinates(at index: Int) -> (latitude: Double, longitude: Double) {
        bytes.withUnsafeBytes { raw in
            let latitude = Int32(
                littleEndian: raw.loadUnaligned(
                    fromByteOffset: coordinatesOffset + index * 8,
                    as: Int32.self))
            let longitude = Int32(
                littleEndian: raw.loadUnaligned(
                    fromByteOffset: coordinatesOffset + index * 8 + 4,
                    as: Int32.self))
            return (Double(latitude) / 1e5, Double(longitude) / 1e5)
        }
    }

    func population(at index: Int) -> Int {
        let code = Int(bytes[populationOffset + index * 2]) | Int(bytes[populationOffset + index * 2 + 1]) << 8
        var value = code & 0xFFF
        for _ in 0..<(code >> 12) { value *= 10 }
        return value
    }

    /// The region a place belongs to: the last whose first place is at or before it.
    private func region(of index: Int) -> Int {
        var low = 0
        var high = regionStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(regionStarts[middle]) <= index { low = middle } else { high = middle }
        }
        return low
    }

    private func name(at index: Int) -> String {
        var offset = Int(nameOffsets[index / PlaceIndex.nameStride])
        for _ in 0..<(index % PlaceIndex.nameStride) { offset += 1 + Int(bytes[offset]) }
        return string(at: offset)
    }

    /// The length-prefixed string at `offset`.
    private func string(at offset: Int) -> String {
        let length = Int(bytes[offset])
        return String(decoding: bytes[(offset + 1)..<(offset + 1 + length)], as: UTF8.self)
    }
}

/// Little-endian reads with bounds checks, for parsing the place file.
private struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func skip(_ count: Int) throws(PlaceFileError) {
        guard count >= 0, offset + count <= bytes.count else { throw PlaceFileError("place file is truncated") }
        offset += count
    }

    mutating func bytes(_ count: Int) throws(PlaceFileError) -> ArraySlice<UInt8> {
        let start = offset
        try skip(count)
        return bytes[start..<offset]
    }

    mutating func u8() throws(PlaceFileError) -> UInt8 {
        try skip(1)
        return bytes[offset - 1]
    }

    mutating func u16() throws(PlaceFileError) -> UInt16 {
        try skip(2)
        return UInt16(bytes[offset - 2]) | UInt16(bytes[offset - 1]) << 8
    }

    mutating func u32() throws(PlaceFileError) -> UInt32 {
        try skip(4)
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset - 4 + index]) << (8 * UInt32(index)) }
        return value
    }
}
