extension CachedGeocoder {
    /// Why there are no place names.
    public enum Unavailable: Error, Sendable, Equatable, CustomStringConvertible {
        /// No place file at any of these paths (``PlaceIndex/searchPaths()``).
        case noPlaceFile(searched: [String])
        /// The place file could not be read.
        case unreadable(String)

        /// The warning the commands print.
        public var description: String {
            switch self {
            case .noPlaceFile(let searched):
                "no place file (looked for \(searched.joined(separator: ", "))); places are left out. "
                    + "Set NMEA_PLACES to the places.bin file"
            case .unreadable(let reason):
                "place names unavailable: \(reason)"
            }
        }
    }

    /// The offline geocoder on the place file the commands use (``PlaceIndex/locate()``), behind the default cache
    /// file; `warning` gets the cache's and the lookups' warnings.
    /// - Throws: ``Unavailable`` when there is no place file or it cannot be read.
    public static func standard(warning: @escaping (String) -> Void) throws(Unavailable) -> CachedGeocoder {
        guard let path = PlaceIndex.locate() else { throw .noPlaceFile(searched: PlaceIndex.searchPaths()) }
        do {
            return CachedGeocoder(try OfflineGeocoder(path: path), warning: warning)
        } catch {
            throw .unreadable("\(error)")
        }
    }
}
