import Geodesy
import Glibc
import Testing
import Trips

@testable import Plot

@Suite struct WebMercatorTests {
    @Test func knownPoints() {
        #expect(WebMercator.x(longitude: -180) == 0)
        #expect(WebMercator.x(longitude: 0) == 0.5)
        #expect(WebMercator.x(longitude: 180) == 1)
        #expect(abs(WebMercator.y(latitude: 0) - 0.5) < 1e-15)
        // The square ends at ±85.0511°.
        #expect(abs(WebMercator.y(latitude: WebMercator.maximumLatitude)) < 1e-12)
        #expect(abs(WebMercator.y(latitude: -WebMercator.maximumLatitude) - 1) < 1e-12)
        #expect(WebMercator.y(latitude: 89.9) == WebMercator.y(latitude: WebMercator.maximumLatitude))
        // The same projection written another way: y = 1/2 − asinh(tan φ) / 2π.
        for latitude in [-60.0, -12.5, 0.0, 33.3, 48.1374, 70.0] {
            let phi = latitude * .pi / 180
            #expect(abs(WebMercator.y(latitude: latitude) - (0.5 - asinh(tan(phi)) / (2 * .pi))) < 1e-12)
        }
    }

    @Test func latitudeRoundTrips() {
        for latitude in stride(from: -85.0, through: 85.0, by: 0.5) {
            #expect(abs(WebMercator.latitude(y: WebMercator.y(latitude: latitude)) - latitude) < 1e-9)
        }
    }

    @Test func scaleShrinksWithLatitude() {
        #expect(abs(WebMercator.metersPerUnit(atLatitude: 0) - 40_075_016.69) < 0.01)
        #expect(abs(WebMercator.metersPerUnit(atLatitude: 60) - 40_075_016.69 / 2) < 0.01)
    }

    @Test func greatCircle() {
        // The one distance (Trips' Geodesy), which the plot's totals use. One degree of latitude is about 111.2 km on
        // the mean sphere.
        #expect(abs(Geodesy.distanceMeters(48, 11, 49, 11) - 111_195) < 1)
        #expect(Geodesy.distanceMeters(48.1, 11.5, 48.1, 11.5) == 0)
    }
}

@Suite struct SimplifyTests {
    @Test func douglasPeuckerKeepsCornersAndEnds() {
        let points = [(0, 0), (1, 0.1), (2, -0.1), (3, 0), (3, 1), (3, 2), (3.1, 3), (3, 4)]
            .map { PixelPoint(x: $0.0, y: $0.1) }
        #expect(Simplify.douglasPeucker(points, tolerance: 0.5) == [0, 3, 7])
        #expect(Simplify.douglasPeucker(points, tolerance: 0.05) == [0, 1, 2, 3, 5, 6, 7])
        #expect(Simplify.douglasPeucker(Array(points.prefix(2)), tolerance: 1) == [0, 1])
        #expect(Simplify.douglasPeucker([], tolerance: 1) == [])
    }

    @Test func douglasPeuckerHandlesALongLine() {
        // A day of points on a zigzag: no recursion, so no stack overflow, and the corners stay.
        let points = (0..<200_000).map { PixelPoint(x: Double($0) * 0.01, y: $0 % 20_000 < 10_000 ? 0 : 5) }
        let kept = Simplify.douglasPeucker(points, tolerance: 0.5)
        #expect(kept.first == 0 && kept.last == points.count - 1)
        #expect(kept.count < 100)
    }

    @Test func thinningKeepsEndsAndSpacing() {
        let points = (0...100).map { PixelPoint(x: Double($0) * 0.1, y: 0) }
        let kept = Simplify.thin(points, spacing: 1)
        #expect(kept.first == 0 && kept.last == 100)
        #expect(kept.count == 11)
        #expect(Simplify.thin([PixelPoint(x: 1, y: 1)], spacing: 1) == [0])
        #expect(Simplify.thin([], spacing: 1) == [])
    }
}

@Suite struct NiceScaleTests {
    @Test func roundNumbers() {
        #expect(NiceScale.roundDown(730) == 500)
        #expect(NiceScale.roundDown(0.37) == 0.2)
        #expect(NiceScale.roundDown(1999) == 1000)
        #expect(NiceScale.roundUp(14) == 20)
        #expect(NiceScale.roundUp(20) == 20)
        #expect(NiceScale.roundUp(51) == 100)
    }

    @Test func ticks() {
        #expect(NiceScale.ticks(from: 0, to: 72, count: 4).values == [0, 20, 40, 60, 80])
        #expect(NiceScale.ticks(from: 505, to: 535, count: 4).values == [500, 510, 520, 530, 540])
        #expect(NiceScale.ticks(from: 0, to: 0, count: 4).values.count >= 2)
    }

    @Test func timeSteps() {
        #expect(NiceScale.timeStep(span: 60, maximumTicks: 8) == 10)
        #expect(NiceScale.timeStep(span: 600, maximumTicks: 8) == 120)
        #expect(NiceScale.timeStep(span: 86_400, maximumTicks: 8) == 10_800)
    }

    @Test func labels() {
        #expect(NiceScale.distanceLabel(500) == "500 m")
        #expect(NiceScale.distanceLabel(2000) == "2 km")
        #expect(NiceScale.distanceLabel(6789) == "6.8 km")
        #expect(NiceScale.distanceLabel(123_456) == "123 km")
        #expect(NiceScale.durationLabel(45) == "45 s")
        #expect(NiceScale.durationLabel(150) == "2 min 30 s")
        #expect(NiceScale.durationLabel(600) == "10 min")
        #expect(NiceScale.durationLabel(3900) == "1 h 05 min")
        #expect(NiceScale.durationLabel(3 * 86_400 + 7200) == "3 d 2 h")
    }

    @Test func numberText() {
        #expect(SVGWriter.number(12.345, maximumDecimals: 1) == "12.3")
        #expect(SVGWriter.number(12.04, maximumDecimals: 1) == "12")
        #expect(SVGWriter.number(-0.25, maximumDecimals: 2) == "-0.25")
        #expect(SVGWriter.number(-0.01, maximumDecimals: 1) == "0")
        #expect(SVGWriter.number(3.05, maximumDecimals: 3) == "3.05")
        #expect(SVGWriter.number(100, maximumDecimals: 1) == "100")
    }
}

@Suite struct ColorRampTests {
    @Test func binsAndColors() {
        let ramp = ColorRamp(stops: ColorRamp.speedStops, binCount: 10, low: 0, high: 100)
        #expect(ramp.bin(-5) == 0)
        #expect(ramp.bin(0) == 0)
        #expect(ramp.bin(9.99) == 0)
        #expect(ramp.bin(10) == 1)
        #expect(ramp.bin(100) == 9)
        #expect(ramp.bin(.nan) == 0)
        #expect(ramp.color(atFraction: 0) == ColorRamp.speedStops[0])
        #expect(ramp.color(atFraction: 1) == ColorRamp.speedStops[4])
        #expect(ramp.color(atFraction: 0.5) == ColorRamp.speedStops[2])
        #expect(RGB(0x2c, 0x7b, 0xb6).hex == "#2c7bb6")
    }
}
