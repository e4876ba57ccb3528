import Trips

/// Place names from the offline place file, for every command that shows them (`trips`, `convert`'s KML, `publish`,
/// `fleet`, the page): `--no-places`, declared once, and the one way a command opens the geocoder.
enum PlaceOptions {
    /// `--no-places`, for the commands that name places in a table or a page.
    static let noPlaces = noPlaces(help: "Leave out place names (no place file, no cache).")

    /// `--no-places` with a command's own help (`watch` names one place).
    static func noPlaces(help: String) -> Flag { Flag(long: "no-places", help: help) }

    /// The offline geocoder behind the cache, or `nil` (with a warning from `command`) when there is no place file.
    static func geocoder(command: String) -> CachedGeocoder? {
        let warn: (String) -> Void = { Console.error("\(command): warning: \($0)\n") }
        do {
            return try CachedGeocoder.standard(warning: warn)
        } catch {
            warn(error.description)
            return nil
        }
    }
}
