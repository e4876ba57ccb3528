/// Leaflet, the map library both pages use (zoom by wheel, pinch and buttons, pan, a scale, attribution, tiles),
/// embedded from Debian's `libjs-leaflet` (BSD-2-Clause): the page loads it from this server (`/leaflet.js`) and its
/// style inside the page, so nothing comes from anywhere else. ``script`` and ``style`` are written by
/// `scripts/vendor-leaflet` (`Leaflet+Files.swift`); WebTests check them against the Debian files when installed.
enum Leaflet {
    /// Where the pages load the script from.
    static let path = "/leaflet.js"

    /// `Cache-Control` for what does not change while the program runs (the script, the tiles of a file).
    static let cacheControl = "Cache-Control: public, max-age=86400"
}
