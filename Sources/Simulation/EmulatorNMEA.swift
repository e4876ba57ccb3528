import NMEA

/// The NMEA an emulated receiver sends each epoch (``UBloxReceiver``, ``MediaTekReceiver``).
enum EmulatorNMEA {
    /// GGA and RMC for a fix at `latitude`, `longitude` (north and east), moving east at 10 m/s; `rtk` gives GGA's
    /// quality 5 (float) or 4 (fixed) with the corrections' age, and RMC's mode F or R.
    static func ggaAndRMC(
        _ date: UTCDate, _ time: UTCTime, _ latitude: Double, _ longitude: Double, used: Int, talker: String,
        rtk: RTKSolution = .none
    ) -> [UInt8] {
        func clock(_ builder: inout SentenceBuilder) {
            let centiseconds = Int(time.nanoseconds / 10_000_000)
            builder.field(
                two(Int(time.hour)) + two(Int(time.minute)) + two(Int(time.second)) + "." + two(centiseconds))
        }
        func position(_ builder: inout SentenceBuilder) {
            let latitudeMinutes = (latitude - latitude.rounded(.down)) * 60
            let longitudeMinutes = (longitude - longitude.rounded(.down)) * 60
            builder.field(two(Int(latitude)) + fixed(latitudeMinutes, 5, width: 2))
            builder.field("N")
            builder.field("0" + two(Int(longitude)) + fixed(longitudeMinutes, 5, width: 2))
            builder.field("E")
        }
        var builder = SentenceBuilder()
        builder.begin(talker + "GGA")
        clock(&builder)
        position(&builder)
        builder.field(rtk.ggaQuality)
        builder.field(two(min(used, 12)))
        builder.field("0.9")
        builder.field("520.1")
        builder.field("M")
        builder.field("47.7")
        builder.field("M")
        if rtk == .none {
            builder.empty()
            builder.empty()
        } else {
            builder.field("1.0")
            builder.field("0000")
        }
        builder.end()
        builder.begin(talker + "RMC")
        clock(&builder)
        builder.field("A")
        position(&builder)
        builder.field("19.438")
        builder.field("90.0")
        builder.field(two(Int(date.day)) + two(Int(date.month)) + two(Int(date.year) % 100))
        builder.empty()
        builder.empty()
        builder.field(rtk.modeLetter)
        builder.end()
        return builder.bytes
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func fixed(_ value: Double, _ decimals: Int, width: Int) -> String {
        let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        var fraction = String(scaled % Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        var integer = String(whole)
        while integer.count < width { integer = "0" + integer }
        return integer + "." + fraction
    }
}
