import Foundation
import Testing

@testable import Plot

@Suite struct TrackPlotTests {
    /// A square drive around a block, 1 Hz, with a stop of 200 s at the second corner (the trip rule's stop time is
    /// 180 s).
    static func block(seconds: Int = 460) -> PlotTrack {
        var track = PlotTrack()
        var north = 0.0
        var east = 0.0
        for second in 0..<seconds {
            let leg = ((second < 350 ? second : second - 60) / 100) % 4
            let standing = second >= 150 && second < 350
            let speed = standing ? 0.2 : 8.0
            if !standing {
                switch leg {
                case 0: east += 8
                case 1: north += 8
                case 2: east -= 8
                default: north -= 8
                }
            }
            let latitude = 48 + north / 111_195
            let longitude = 11 + east / (111_195 * cos(48 * Double.pi / 180))
            track.add(
                TrackPoint(
                    time: 1_796_112_000 + Double(second), latitude: latitude, longitude: longitude,
                    speed: speed, altitudeMeters: 500 + Double(second) / 10))
        }
        track.finish()
        return track
    }

    /// Numbers of `attribute` in `svg`.
    func values(_ attribute: String, in svg: String) -> [String] {
        svg.components(separatedBy: " \(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func documentIsBalancedAndSelfContained() {
        let svg = TrackPlot.svg(Self.block())
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "<g").count == svg.components(separatedBy: "</g>").count)
        for forbidden in ["<script", "<image", "href=", "@import", "nan", "inf"] {
            #expect(!svg.contains(forbidden), "\(forbidden)")
        }
    }

    @Test func markersSitOnTheProjectedEnds() throws {
        let track = Self.block()
        let svg = TrackPlot.svg(track)
        let scale = try #require(Double(values("data-mercator-scale", in: svg).first ?? ""))
        let offsetX = try #require(Double(values("data-mercator-x", in: svg).first ?? ""))
        let offsetY = try #require(Double(values("data-mercator-y", in: svg).first ?? ""))
        let first = try #require(track.first)
        let x = offsetX + scale * WebMercator.x(longitude: first.longitude)
        let y = offsetY + scale * WebMercator.y(latitude: first.latitude)
        let start = svg.components(separatedBy: "<circle id=\"start\"")[1]
        #expect(values("cx", in: start).first == SVGWriter.number(x))
        #expect(values("cy", in: start).first == SVGWriter.number(y))
        #expect(svg.contains("<rect id=\"end\""))
        // The stand at the corner, 150 s to 349 s: the trip rule's stop, from the first fix at rest to the last.
        #expect(values("data-duration", in: svg) == ["199"])
        #expect(values("data-start", in: svg) == ["1796112150"])
    }

    @Test func aRoundTripEndsInARing() {
        // Out and back to the start: the end is drawn as a ring around the start marker.
        var track = PlotTrack()
        for second in 0...200 {
            let east = Double(100 - abs(100 - second)) * 10
            track.add(
                TrackPoint(
                    time: Double(second), latitude: 48,
                    longitude: 11 + east / (111_195 * cos(48 * Double.pi / 180)), speed: 10))
        }
        track.finish()
        let svg = TrackPlot.svg(track)
        #expect(svg.contains("<circle id=\"end\""))
        #expect(!svg.contains("<rect id=\"end\""))
    }

    @Test func aSinglePointStillDraws() {
        var track = PlotTrack()
        track.add(TrackPoint(time: 0, latitude: 48, longitude: 11))
        track.finish()
        let svg = TrackPlot.svg(track, options: PlotOptions(width: 320))
        #expect(svg.contains("h0.1"))  // a dot
        #expect(svg.contains("id=\"scale-bar\""))
        #expect(svg.contains("1 fix"))
    }

    @Test func noTimesNoProfile() {
        var track = PlotTrack()
        for index in 0..<10 {
            track.add(TrackPoint(time: nil, latitude: 48 + Double(index) * 0.001, longitude: 11))
        }
        track.finish()
        let svg = TrackPlot.svg(track)
        #expect(!svg.contains("id=\"profile\""))
        #expect(svg.contains("<title>Track</title>"))
        // Without speeds the track cannot be colored by speed: one color, no color scale.
        #expect(values("data-bin", in: svg).isEmpty)
        #expect(values("data-high", in: svg).isEmpty)
    }

    @Test func textSizesFollowTheWidthWithinReadableBounds() {
        for (width, base) in [(320, "11"), (800, "12.5"), (2000, "18")] {
            let svg = TrackPlot.svg(Self.block(), options: PlotOptions(width: width))
            #expect(values("font-size", in: svg).first == base)
            #expect(values("font-size", in: svg).compactMap(Double.init).allSatisfy { $0 >= 11 })
        }
    }

    @Test func aDayOfPointsStaysSmall() {
        // 24 h at 1 Hz of a wiggly road: the drawing is thinned to the pixel grid.
        var track = PlotTrack()
        for second in 0..<86_400 {
            let t = Double(second)
            track.add(
                TrackPoint(
                    time: t, latitude: 48 + t * 2e-6 + sin(t / 30) * 1e-5,
                    longitude: 11 + t * 3e-6, speed: 10 + sin(t / 600) * 8,
                    altitudeMeters: 500 + sin(t / 3000) * 50))
        }
        track.finish()
        let svg = TrackPlot.svg(track)
        #expect(svg.utf8.count < 200_000, "\(svg.utf8.count) bytes")
        #expect(values("class", in: svg).filter { $0 == "time-label" }.count <= 12)
    }
}
