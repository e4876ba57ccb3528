import Glibc

/// The settings the tests reach inside with, through the environment (docs/testing.md): none is for users, and each
/// falls back to the value a user's run has.
enum TestSettings {
    /// `NMEA_PIECE_BYTES`: the size of a piece a file is read in (``PieceReader``); tests cut files inside epochs
    /// with a few dozen bytes.
    static var pieceBytes: Int? { positiveInteger("NMEA_PIECE_BYTES") }

    /// `NMEA_PIECE_REPORT` set: how many pieces a file was read in and how many were done again in order, on standard
    /// error at the end of each file (the tests check that both paths are taken).
    static var reportsPieces: Bool { getenv("NMEA_PIECE_REPORT") != nil }

    /// `NMEA_SORT_POINTS`: the points `convert --ais` holds before it writes a sorted run beside its output; tests
    /// fill a small disk with runs of a few points.
    static var sortPoints: Int? { positiveInteger("NMEA_SORT_POINTS") }

    /// The variable `name` as a number above zero, or `nil`.
    private static func positiveInteger(_ name: String) -> Int? {
        guard let text = getenv(name).map({ String(cString: $0) }), let value = Int(text), value > 0 else { return nil }
        return value
    }
}
