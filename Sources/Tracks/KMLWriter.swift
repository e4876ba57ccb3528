import NMEA
import System

/// Writes fixes as KML 2.2 for Google Earth and GIS tools: one `Placemark` with a `gx:Track` per segment (each
/// point's `<when>` and `<gx:coord>`), and, at the end, the placemarks given to ``addPlacemark(_:)`` (start, end,
/// stops with their place names, as `nmea convert` adds them).
///
/// **Streaming and crash-safe.** KML 2.2's schema lists a track's `<when>` elements before its `<gx:coord>`
/// elements, two growing lists that no append-only file can keep apart without holding a whole segment in memory.
/// Each point's `<when>` is therefore written beside its `<gx:coord>`, which is how Google Earth, libkml (GDAL's
/// LIBKML driver) and GPSBabel read a track anyway: the n-th time belongs to the n-th position. That makes the file
/// append-only, so it uses ``DocumentFile``'s inert-region protocol, as GPX does: a complete document after every
/// flush, whatever happens to the process after it. A point without a time gets an empty `<when/>`, so times and
/// positions stay paired.
public final class KMLWriter: TrackWriter {
    /// A named point shown beside the track.
    public struct Placemark: Sendable, Hashable {
        public var name: String
        public var description: String?
        public var latitude: Double
        public var longitude: Double
        /// Nanoseconds since 1970.
        public var timestamp: Int64?

        public init(name: String, description: String? = nil, latitude: Double, longitude: Double, timestamp: Int64?) {
            self.name = name
            self.description = description
            self.latitude = latitude
            self.longitude = longitude
            self.timestamp = timestamp
        }
    }

    public let options: TrackOptions
    public var statistics: TrackStatistics { document.statistics }
    public var path: String { document.path }
    private var document: AppendingDocument
    private var segmenter: TrackSegmenter
    private var segmentIsOpen = false
    private var placemarks: [Placemark] = []
    private var navigation = Navigation()

    /// - Parameter name: the document's name, shown by Google Earth.
    public init(path: String, name: String = "Track", options: TrackOptions = TrackOptions()) throws(TrackError) {
        self.options = options
        document = AppendingDocument(
            try DocumentFile(path: path, kind: .xml, sync: options.sync, publication: options.publication),
            flush: options.flush)
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        try start(name: name)
    }

    public init(
        streamingTo fd: FileDescriptor, name: String = "Track", streamName: String = "<stdout>",
        options: TrackOptions = TrackOptions()
    ) throws(TrackError) {
        self.options = options
        document = AppendingDocument(DocumentFile(streamingTo: fd, name: streamName), flush: options.flush)
        segmenter = TrackSegmenter(splitGapSeconds: options.splitGapSeconds)
        try start(name: name)
    }

    deinit { document.closeDescriptor() }

    private func start(name: String) throws(TrackError) {
        var head = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
              <Document>
                <name>
            """.utf8)
        TextEscaping.appendXML(name, to: &head)
        head += Array(
            """
            </name>
                <Style id="track"><LineStyle><color>ffff7f00</color><width>4</width></LineStyle></Style>
                <Style id="mark"><IconStyle><scale>1.1</scale></IconStyle></Style>
                <Style id="route"><LineStyle><color>ff0000ff</color><width>2</width></LineStyle></Style>

            """.utf8)
        try document.start(head: head, tail: tail)
    }

    /// Adds a placemark, written after the track at ``finish()``.
    public func addPlacemark(_ placemark: Placemark) {
        placemarks.append(placemark)
    }

    public func write(_ fix: Fix) throws(TrackError) {
        precondition(!document.isFinished, "KMLWriter used after finish()")
        document.counts.fixes += 1
        switch segmenter.place(fix) {
        case .skip:
            document.counts.skipped += 1
            return
        case .newSegment:
            if segmentIsOpen { document.pending += Self.segmentEnd }
            document.counts.segments += 1
            document.pending += Array("    <Placemark>\n      <name>Segment \(document.counts.segments)</name>\n".utf8)
            // The segment's first point decides: heights above sea level, or on the ground without them.
            let hasAltitude = fix.altitudeMeters?.isFinite == true
            document.pending += Array(
                "      <styleUrl>#track</styleUrl>\n      <gx:Track>\n        <altitudeMode>".utf8)
            document.pending += Array((hasAltitude ? "absolute" : "clampToGround").utf8)
            document.pending += Array("</altitudeMode>\n".utf8)
            segmentIsOpen = true
        case .continueSegment:
            break
        }
        appendPoint(fix)
        document.counts.points += 1
        try document.pointAdded(tail: tail)
    }

    private func appendPoint(_ fix: Fix) {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return }
        if fix.date != nil && fix.time != nil {
            document.pending += Array("        <when>".utf8)
            fix.appendISO8601(to: &document.pending)
            document.pending += Array("</when>".utf8)
        } else {
            document.pending += Array("        <when/>".utf8)
        }
        document.pending += Array("<gx:coord>".utf8)
        DecimalFormatter.append(longitude, to: &document.pending)
        document.pending.append(UInt8(ascii: " "))
        DecimalFormatter.append(latitude, to: &document.pending)
        document.pending.append(UInt8(ascii: " "))
        // gx:coord always has three values; without an altitude, 0 (ignored in a clampToGround segment).
        if let altitude = fix.altitudeMeters, altitude.isFinite {
            DecimalFormatter.append(altitude, to: &document.pending)
        } else {
            document.pending.append(UInt8(ascii: "0"))
        }
        document.pending += Array("</gx:coord>\n".utf8)
    }

    public func flush() throws(TrackError) { try document.flush(tail: tail) }

    public func finish() throws(TrackError) {
        guard !document.isFinished else { return }
        if segmentIsOpen {
            document.pending += Self.segmentEnd
            segmentIsOpen = false
        }
        for placemark in placemarks { appendPlacemark(placemark) }
        appendNavigation()
        try document.finish(tail: tail)
    }

    /// Keeps the waypoints and routes for ``finish()``, which adds them after the track: each waypoint a point
    /// placemark, each route a `LineString` through its placed waypoints.
    public func setNavigation(_ navigation: Navigation) -> Bool {
        self.navigation = navigation
        return true
    }

    private func appendNavigation() {
        for waypoint in navigation.waypoints {
            appendPlacemark(
                Placemark(
                    name: waypoint.name, latitude: waypoint.latitude, longitude: waypoint.longitude, timestamp: nil))
            document.counts.waypoints += 1
        }
        for route in navigation.routes {
            let points = navigation.placedPoints(of: route).points
            guard points.count >= 2 else { continue }
            document.pending += Array("    <Placemark>\n      <name>".utf8)
            TextEscaping.appendXML(route.name, to: &document.pending)
            document.pending += Array(
                "</name>\n      <styleUrl>#route</styleUrl>\n      <LineString><coordinates>".utf8)
            for (index, point) in points.enumerated() {
                if index > 0 { document.pending.append(UInt8(ascii: " ")) }
                appendCoordinates(point.longitude, point.latitude)
            }
            document.pending += Array("</coordinates></LineString>\n    </Placemark>\n".utf8)
            document.counts.routes += 1
        }
    }

    /// `lon,lat` as KML's `<coordinates>` has them.
    private func appendCoordinates(_ longitude: Double, _ latitude: Double) {
        DecimalFormatter.append(longitude, .maximumDecimals(7), to: &document.pending)
        document.pending.append(UInt8(ascii: ","))
        DecimalFormatter.append(latitude, .maximumDecimals(7), to: &document.pending)
    }

    private func appendPlacemark(_ placemark: Placemark) {
        document.pending += Array("    <Placemark>\n      <name>".utf8)
        TextEscaping.appendXML(placemark.name, to: &document.pending)
        document.pending += Array("</name>\n".utf8)
        if let description = placemark.description {
            document.pending += Array("      <description>".utf8)
            TextEscaping.appendXML(description, to: &document.pending)
            document.pending += Array("</description>\n".utf8)
        }
        if let timestamp = placemark.timestamp {
            document.pending += Array("      <TimeStamp><when>".utf8)
            ISO8601.write(nanosecondsSinceEpoch: timestamp, to: { document.pending.append($0) })
            document.pending += Array("</when></TimeStamp>\n".utf8)
        }
        document.pending += Array("      <styleUrl>#mark</styleUrl>\n      <Point><coordinates>".utf8)
        appendCoordinates(placemark.longitude, placemark.latitude)
        document.pending += Array("</coordinates></Point>\n    </Placemark>\n".utf8)
    }

    public var isPublished: Bool { document.file.isPublished }

    public func publish() throws(TrackError) { try document.publish() }

    public func discard() { document.discard(tail: tail) }

    private var tail: [UInt8] { segmentIsOpen ? Self.segmentEnd + Self.documentEnd : Self.documentEnd }

    static let segmentEnd = Array("      </gx:Track>\n    </Placemark>\n".utf8)
    static let documentEnd = Array("  </Document>\n</kml>\n".utf8)
}
