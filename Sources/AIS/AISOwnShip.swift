import NMEA

/// The own ship's position reports (`!AIVDO`) as a fix source: what ``report(_:)`` reads, a ``FixReader`` merges
/// (``FixReader/Options/sentenceDecoder``), so that a log from an AIS transponder alone gives a track.
///
/// An AIS position report carries the second of its minute, not the time: a report is read only when its sentence
/// has a receive time (a TAG block's `c:`, a leading Unix timestamp), which is its fix's time. Each report is an
/// epoch of its own. Other stations' reports (`!AIVDM`), multi-part sentences and reports with no position tell
/// nothing.
public enum AISOwnShip {
    /// What an own-ship position report tells about its epoch, or `nil` (see ``AISOwnShip``).
    @Sendable
    public static func report(_ sentence: Sentence) -> EpochReport? {
        guard let received = sentence.receivedMilliseconds else { return nil }
        var fields = AISSentenceFields()
        var message = AISMessage()
        guard fields.read(sentence, into: &message.payload), fields.isOwnShip, fields.count == 1, fields.number == 1,
            (try? message.complete(fields)) != nil,
            let point = message.trackPoint
        else { return nil }
        var report = EpochReport(signature: SentenceSignature(of: sentence))
        let (date, time) = UTCDate.moment(nanosecondsSinceEpoch: received * 1_000_000, fractionDigits: 3)
        report.date = date
        report.time = time
        // The epoch's key: the GPS time of week of the receive time (the leap seconds do not matter to a key).
        report.timeOfWeekMilliseconds = GPSTime.week(unixMilliseconds: received).timeOfWeekMilliseconds
        report.reportsFix = true
        report.mode = .twoD
        report.quality = .gps
        report.latitude = point.latitude
        report.longitude = point.longitude
        report.speed = point.speed
        report.courseDegrees = point.course
        report.endsEpoch = true
        return report
    }
}
