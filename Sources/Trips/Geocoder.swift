import Geodesy
import Glibc
import NMEA
import System

/// What a geocoder says about a position: a readable label and the coordinates of the place it names.
public struct PlaceName: Sendable, Hashable {
    /// `"3 km NE of Khimki, Moscow Oblast, RU"`, or `"Khimki, Moscow Oblast, RU"` when close.
    public var label: String
    /// Where the named place is (Khimki's centre, not the position asked about), decimal degrees.
    public var latitude: Double
    public var longitude: Double

    public init(label: String, latitude: Double, longitude: Double) {
        self.label = label
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Turns positions into place names. ``OfflineGeocoder`` answers from the GeoNames file; an embedder can plug in an
/// online provider, and put it behind the same ``CachedGeocoder`` so each place is asked for once.
public protocol Geocoder {
    /// Names this geocoder and its data for the cache (its file name): the answers of different geocoders, or of
    /// different versions of their data, never mix. Letters, digits, `-`, `_` and `.`.
    var identifier: String { get }

    /// The place name for a position. `nil` means there is none (remembered by the cache); throw when the answer
    /// could not be had now, for example when a server is unreachable (not remembered: asked again next time).
    mutating func placeName(latitude: Double, longitude: Double) throws -> PlaceName?
}

/// Names positions from the offline place file: the nearest GeoNames place, with the distance and direction from
/// it when it is a kilometre or more away.
///
/// The file is read on the first lookup, not before: a run whose places are all in the cache never loads it.
public final class OfflineGeocoder: Geocoder {
    public let path: String
    public let identifier: String
    /// Nearest-place searches made.
    public private(set) var lookups = 0
    /// Seconds it took to load the file and build the tree (0 until the first lookup).
    public private(set) var loadSeconds = 0.0
    private var loaded: PlaceIndex?
    /// Why the file could not be loaded: not tried again.
    private var loadError: (any Error)?

    /// Closer than this, a label is the place alone; farther, "N km DIR of" it.
    public static let nearbyMeters = 1000.0

    /// A geocoder over the place file at `path`; its header is read now (for the identifier), the rest on the
    /// first lookup.
    /// - Throws: ``FileError`` or ``PlaceFileError`` when the file cannot be read or is not a place file.
    public init(path: String) throws {
        self.path = path
        identifier =
            "geonames-"
            + Hex.string(UInt64(try PlaceIndex.identity(ofFileAt: path)), minimumDigits: 8, uppercase: false)
    }

    /// A geocoder over places already loaded.
    public init(index: PlaceIndex, path: String = "") {
        self.path = path
        identifier = "geonames-" + Hex.string(UInt64(index.identity), minimumDigits: 8, uppercase: false)
        loaded = index
    }

    /// The places, loaded on first use.
    /// - Throws: ``FileError`` or ``PlaceFileError``.
    public func index() throws -> PlaceIndex {
        if let loaded { return loaded }
        if let loadError { throw loadError }
        let start = MonotonicTime.now()
        let index: PlaceIndex
        do {
            index = try PlaceIndex(path: path)
        } catch let error as PlaceFileError {
            loadError = PlaceFileError("\(path): \(error.message)")
            throw loadError!
        } catch {
            loadError = error
            throw error
        }
        loadSeconds = MonotonicTime.now().seconds - start.seconds
        loaded = index
        return index
    }

    public func placeName(latitude: Double, longitude: Double) throws -> PlaceName? {
        let index = try index()
        lookups += 1
        let found = index.nearest(latitude: latitude, longitude: longitude)
        let place = index.place(at: found.index)
        let bearing = Geodesy.bearingDegrees(from: place.latitude, place.longitude, to: latitude, longitude)
        return PlaceName(
            label: OfflineGeocoder.label(
                place, distanceMeters: found.distanceMeters,
                bearingDegrees: bearing),
            latitude: place.latitude, longitude: place.longitude)
    }

    /// `"3 km NE of Khimki, Moscow Oblast, RU"` for a position 3 km north-east of Khimki; the place alone when
    /// closer than ``nearbyMeters``. The first-level division is left out when it is empty or the place's own
    /// name (`"Dubai, AE"`, not `"Dubai, Dubai, AE"`).
    public static func label(_ place: Place, distanceMeters: Double, bearingDegrees: Double) -> String {
        var name = place.name
        if !place.admin1.isEmpty && place.admin1 != place.name { name += ", " + place.admin1 }
        name += ", " + place.countryCode
        guard distanceMeters >= nearbyMeters else { return name }
        let kilometres = Int((distanceMeters / 1000).rounded())
        return "\(kilometres) km \(Geodesy.compassPoint(bearingDegrees)) of \(name)"
    }
}

extension PlaceIndex {
    /// The identity in a place file's header, without loading the rest.
    /// - Throws: ``FileError`` or ``PlaceFileError``.
    public static func identity(ofFileAt path: String) throws -> UInt32 {
        var header = [UInt8](repeating: 0, count: headerSize)
        let count: Int
        do throws(Errno) {
            let fd = try FileDescriptor.open(path, .readOnly)
            defer { try? fd.close() }
            let read = header.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try fd.readAll(into: bytes) }
            }
            count = try read.get()
        } catch {
            throw FileError(path: path, errno: error.rawValue)
        }
        guard count == headerSize, Array(header[0..<8]) == magic else {
            throw PlaceFileError("\(path): not a place file (no NMEAPLC1 header)")
        }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(header[28 + $1]) << (8 * UInt32($1)) }
    }

    /// Where the place file is looked for, in order; the first that exists is used.
    ///
    /// 1. `$NMEA_PLACES`, when set (and then nothing else);
    /// 2. `<prefix>/share/nmea/places.bin` for a program installed as `<prefix>/bin/nmea`;
    /// 3. `places.bin` beside the program;
    /// 4. `Resources/places.bin` in the package the program was built in: the nearest directory above the program
    ///    that has a `Package.swift` (`swift build` puts it in `.build/<triple>/<configuration>/`);
    /// 5. `Resources/places.bin` in the source tree this module was compiled from.
    public static func searchPaths() -> [String] {
        searchPaths(
            executable: FileSystem.executablePath(), environment: FileSystem.environment("NMEA_PLACES"),
            sourceFile: #filePath)
    }

    static func searchPaths(executable: String?, environment: String?, sourceFile: String) -> [String] {
        if let environment { return [environment] }
        var paths: [String] = []
        if let executable {
            let directory = FileSystem.directory(of: executable)
            paths.append(FileSystem.directory(of: directory) + "/share/nmea/places.bin")
            paths.append(directory + "/places.bin")
            var ancestor = directory
            for _ in 0..<4 where ancestor != "/" {
                ancestor = FileSystem.directory(of: ancestor)
                if FileSystem.isRegularFile(ancestor + "/Package.swift") {
                    paths.append(ancestor + "/Resources/places.bin")
                    break
                }
            }
        }
        // Sources/Trips/Geocoder.swift → the package root.
        let root = FileSystem.directory(of: FileSystem.directory(of: FileSystem.directory(of: sourceFile)))
        paths.append(root + "/Resources/places.bin")
        return paths
    }

    /// The place file to use: the first of ``searchPaths()`` that exists.
    public static func locate() -> String? {
        searchPaths().first(where: FileSystem.isRegularFile)
    }
}
