import TestSupport
import Testing

@testable import Trips

/// The one rule of which places a map labels (the page, the fleet page and `nmea plot` share it).
@Suite struct PlaceLabelsTests {

    /// Around the commute (Munich to Eitting) at the zoom the page fits it to.
    static let commute = MapView(west: 11.2, south: 47.95, east: 12.3, north: 48.55, zoom: 10)

    @Test func citiesFirstThenTownsAndNothingOutsideTheView() throws {
        let index = PlaceData.index
        let labels = index.labels(in: Self.commute)
        #expect(
            labels.first.map { [$0.name, "\($0.latitude)", "\($0.longitude)", "\($0.population)"] }
                == ["Munich", "48.13743", "11.57549", "1260000"])
        #expect(labels.first?.labelRank == 1)
        #expect(labels.map(\.name).prefix(4) == ["Munich", "Landshut", "Freising", "Germering"])
        #expect(labels.count == PlaceIndex.labelLimit || labels.count > 30)
        // Largest first; each inside the view and with the zoom's fewest people.
        #expect(labels.map(\.population) == labels.map(\.population).sorted(by: >))
        for label in labels {
            #expect(Self.commute.contains(latitude: label.latitude, longitude: label.longitude))
            #expect(label.population >= PlaceIndex.minimumPopulation(zoom: 10))
        }
    }

    @Test func theNumberFollowsTheZoom() throws {
        let index = PlaceData.index
        func view(_ zoom: Double, _ halfWidth: Double) -> MapView {
            MapView(
                west: 11.73 - halfWidth, south: 48.25 - halfWidth / 2, east: 11.73 + halfWidth,
                north: 48.25 + halfWidth / 2, zoom: zoom)
        }
        // The same screen (about 900 px wide) at three zooms: the continent's cities, the region's towns, the
        // villages of a valley; smaller places appear as the zoom grows.
        let far = index.labels(in: view(6, 20))
        let middle = index.labels(in: view(10, 1.25))
        let near = index.labels(in: view(13, 0.16))
        #expect(far.allSatisfy { $0.population >= 250_000 })
        #expect(far.contains { $0.name == "Munich" } && far.contains { $0.name == "Vienna" })
        #expect(!middle.contains { $0.name == "Vienna" })
        #expect(middle.contains { $0.labelRank == 2 } && near.contains { $0.labelRank == 3 })
        #expect(near.allSatisfy { abs($0.longitude - 11.73) <= 0.16 })
        #expect((near.map(\.population).min() ?? .max) < (middle.map(\.population).min() ?? 0))
    }

    @Test func labelsNeverOverlapAtTheirZoom() throws {
        let index = PlaceData.index
        let view = Self.commute
        let boxes = index.labels(in: view).map { label -> (Double, Double, Double, Double) in
            let (x, y) = view.pixel(latitude: label.latitude, longitude: label.longitude)
            let half = (Double(label.name.unicodeScalars.count) * 7 + 12) / 2 + 3
            return (x - half, y - 21, x + half, y + 4)
        }
        for (i, a) in boxes.enumerated() {
            for b in boxes[(i + 1)...] { #expect(!(a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3), "\(a) \(b)") }
        }
    }

    @Test func aViewAcrossTheAntimeridian() throws {
        let index = PlaceData.index
        // Fiji's and Samoa's side of the date line, from 175° E to 170° W.
        let labels = index.labels(in: MapView(west: 175, south: -20, east: -170, north: -10, zoom: 8))
        #expect(labels.contains { $0.longitude > 175 } && labels.contains { $0.longitude < -170 }, "\(labels)")
        #expect(labels.allSatisfy { $0.longitude > 175 || $0.longitude < -170 })
    }

    @Test func viewsFromTheAddressAreChecked() {
        #expect(MapView(bbox: "11.2,47.95,12.3,48.55", zoom: "10") == Self.commute)
        #expect(MapView(bbox: "11.2,48.55,12.3,47.95", zoom: "10") == nil)  // south above north
        #expect(MapView(bbox: "11.2,47.95,12.3", zoom: "10") == nil)
        #expect(MapView(bbox: "11.2,47.95,12.3,48.55", zoom: "25") == nil)
        #expect(MapView(bbox: "181,0,1,1", zoom: "3") == nil)
        #expect(MapView(bbox: "nan,0,1,1", zoom: "3") == nil)
    }
}
