import Glibc

/// What a map shows: an area in degrees and a zoom level of 256-pixel Web-Mercator tiles (the world is
/// 256·2^zoom pixels wide), as Leaflet and the tile servers count it. `zoom` may be fractional (`nmea plot`'s scale
/// is whatever fits its picture).
public struct MapView: Sendable, Hashable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double
    public var zoom: Double

    public init(west: Double, south: Double, east: Double, north: Double, zoom: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
        self.zoom = zoom
    }

    /// `WEST,SOUTH,EAST,NORTH` (`/api/places?bbox=`) and a zoom; `nil` unless four numbers in range, south below
    /// north, and a zoom from 0 to 24. West may exceed east: the view crosses the antimeridian.
    public init?(bbox: String, zoom: String) {
        let parts = bbox.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
        guard parts.count == 4, let zoom = Double(zoom), (0...24).contains(zoom),
            parts.allSatisfy({ $0.isFinite }), (-180...180).contains(parts[0]), (-180...180).contains(parts[2]),
            (-90...90).contains(parts[1]), (-90...90).contains(parts[3]), parts[1] < parts[3]
        else { return nil }
        self.init(west: parts[0], south: parts[1], east: parts[2], north: parts[3], zoom: zoom)
    }

    /// Whether a position is inside.
    public func contains(latitude: Double, longitude: Double) -> Bool {
        guard latitude >= south && latitude <= north else { return false }
        return west <= east ? longitude >= west && longitude <= east : longitude >= west || longitude <= east
    }

    /// Pixel coordinates at this zoom (from the antimeridian and the top of the world).
    func pixel(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let size = 256 * pow(2, zoom)
        let clamped = min(max(latitude, -85.051_128_779_806_59), 85.051_128_779_806_59) * .pi / 180
        var x = (longitude + 180) / 360
        if west > east && longitude < west { x += 1 }  // east of the antimeridian, continuing the view
        return (x * size, (1 - log(tan(.pi / 4 + clamped / 2)) / .pi) / 2 * size)
    }
}

extension Place {
    /// How large a map writes the place: 1 a city (100,000 people or more), 2 a town (10,000 or more), 3 a village.
    public var labelRank: Int { population >= 100_000 ? 1 : population >= 10_000 ? 2 : 3 }
}

extension PlaceIndex {
    /// The most labels one view gets.
    public static let labelLimit = 60

    /// The fewest people a place has to be labelled at `zoom`: cities alone on a continent, villages in a valley.
    public static func minimumPopulation(zoom: Double) -> Int {
        switch zoom {
        case ..<4: 1_000_000
        case ..<6: 250_000
        case ..<8: 50_000
        case ..<9: 10_000
        case ..<11: 1_000
        default: 0
        }
    }

    /// The places a map labels in `view`: the one rule the page, the fleet page and `nmea plot` share, so they
    /// draw the same places for the same view. The places inside the view with at least
    /// ``minimumPopulation(zoom:)`` people, largest first (ties in file order), each kept when its label's box
    /// (a dot at the place and the name centred above it: about 7 px a character and 6 px more, by 25 px) lies
    /// inside the view and meets none kept before: so the number follows the zoom, cities first, then towns. At
    /// most ``labelLimit``.
    ///
    /// - Complexity: O(n) over the place file (a scan of its coordinates), then O(k log k + k·m) for the k places
    ///   inside and the m kept.
    public func labels(in view: MapView) -> [Place] {
        let threshold = Self.minimumPopulation(zoom: view.zoom)
        var candidates: [(index: Int, population: Int)] = []
        for index in 0..<count {
            let position = coordinates(at: index)
            guard view.contains(latitude: position.latitude, longitude: position.longitude) else { continue }
            let people = population(at: index)
            if people >= threshold { candidates.append((index, people)) }
        }
        candidates.sort { $0.population != $1.population ? $0.population > $1.population : $0.index < $1.index }
        var kept: [Place] = []
        var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
        let topLeft = view.pixel(latitude: view.north, longitude: view.west)
        let bottomRight = view.pixel(latitude: view.south, longitude: view.east)
        for candidate in candidates {
            if kept.count == Self.labelLimit { break }
            let place = place(at: candidate.index)
            let (x, y) = view.pixel(latitude: place.latitude, longitude: place.longitude)
            let halfWidth = (Double(place.name.unicodeScalars.count) * 7 + 12) / 2 + 3
            let box = (x0: x - halfWidth, y0: y - 21, x1: x + halfWidth, y1: y + 4)
            guard box.x0 >= topLeft.x, box.y0 >= topLeft.y, box.x1 <= bottomRight.x, box.y1 <= bottomRight.y else {
                continue
            }
            if boxes.contains(where: { $0.x0 < box.x1 && box.x0 < $0.x1 && $0.y0 < box.y1 && box.y0 < $0.y1 }) {
                continue
            }
            boxes.append(box)
            kept.append(place)
        }
        return kept
    }
}
