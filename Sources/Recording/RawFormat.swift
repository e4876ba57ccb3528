/// How a raw capture (`record --raw`) is written.
public enum RawFormat: String, Sendable, Hashable, CaseIterable {
    /// The exact bytes received, garbage and all.
    case raw
    /// Each checksum-valid sentence on a line of its own, after an NMEA 4.10 TAG block with its receive time in
    /// milliseconds since 1970 (`\c:1700000000123*hh\$GNRMC,…*hh`, CR LF), the form AIS and marine loggers use:
    /// every reader of this project takes it back (``TagBlock``), and a replay is paced by it. The time is the
    /// moment the pipeline's reader returned from the `read(2)` that completed the sentence.
    case tagged
}
