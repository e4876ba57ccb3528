import NMEA
import Recording
import Testing

@Suite struct OutputNameTests {
    let day = UTCDate(year: 2026, month: 3, day: 7)

    @Test func datesGoIntoTheNameOnlyWhenRotated() {
        #expect(
            OutputName("/var/lib/nmea/%Y-%m-%d-x.nmea", rotation: .daily).path(for: day)
                == "/var/lib/nmea/2026-03-07-x.nmea")
        #expect(OutputName("track.gpx", rotation: .daily).path(for: day) == "track-2026-03-07.gpx")
        #expect(OutputName("logs.d/track", rotation: .daily).path(for: day) == "logs.d/track-2026-03-07")
        #expect(OutputName("%Y/%m/%d.gpx", rotation: .none).path(for: day) == "%Y/%m/%d.gpx")
    }
}
