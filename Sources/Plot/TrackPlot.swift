import Trips

/// How a picture is drawn.
public struct PlotOptions: Sendable {
    /// What colors the track.
    public enum Coloring: String, Sendable, CaseIterable {
        case speed, altitude, none
    }

    /// The picture's width in pixels; the height follows from the track's shape.
    public var width: Int
    public var coloring: Coloring
    /// The first line of the picture; by default the date and times of the track.
    public var title: String?
    /// The offline places labelled on the map (by ``Trips/PlaceIndex/labels(in:)``, the rule the page shares);
    /// `nil` for none.
    public var places: PlaceIndex?
    /// The name of each of the track's ``PlotTrack/stops`` (as `nmea trips` names them), in their order; a stop
    /// without one (or past the list's end) is labelled with its duration alone.
    public var stopPlaces: [String?]

    public init(
        width: Int = 800, coloring: Coloring = .speed, title: String? = nil, places: PlaceIndex? = nil,
        stopPlaces: [String?] = []
    ) {
        self.width = width
        self.coloring = coloring
        self.title = title
        self.places = places
        self.stopPlaces = stopPlaces
    }
}

/// Draws a ``PlotTrack`` as a self-contained SVG document: a header, the map (Web Mercator, north up) with the track
/// colored by speed or altitude over the offline places, start, end and stop markers (each stop named), a scale bar
/// and a north arrow, a legend, and a profile of speed and altitude over time.
///
/// The SVG uses no scripts, images, external fonts or references. The map group carries its projection as
/// `data-mercator-scale`, `data-mercator-x` and `data-mercator-y`: a point at world coordinates (x, y) of
/// ``WebMercator`` is drawn at pixel (`data-mercator-x` + scale·x, `data-mercator-y` + scale·y).
public enum TrackPlot {
    /// The SVG text. The track should have been ``PlotTrack/finish()``ed.
    public static func svg(_ track: PlotTrack, options: PlotOptions = PlotOptions()) -> String {
        var renderer = Renderer(track: track, options: options)
        return renderer.render()
    }
}
