import Testing

@testable import NMEA

@Test func rmcDecodesTheTextbookExample() throws {
    let rmc = try RMC(parsing: "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A")
    #expect(rmc.time == UTCTime(hour: 12, minute: 35, second: 19))
    #expect(rmc.isValid)
    #expect(rmc.latitude == FixedPoint(significand: 4_811_730, scale: 5))
    #expect(rmc.longitude == FixedPoint(significand: 1_151_666_667, scale: 8))
    #expect(rmc.speedKnots == FixedPoint(significand: 224, scale: 1))
    #expect(rmc.date == UTCDate(year: 1994, month: 3, day: 23))
    #expect(rmc.magneticVariationDegrees == FixedPoint(significand: -31, scale: 1))
    #expect(rmc.mode == nil)
}
