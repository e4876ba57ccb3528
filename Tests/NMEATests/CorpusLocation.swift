import Foundation

/// Where the shared real-world corpus lives: `$NMEA_CORPUS`, else `../shared/nmea-corpus` beside the checkout.
/// `nil` when it is absent (a fresh clone elsewhere), and the tests that need it are skipped with a message.
enum CorpusLocation {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let directory: URL? = {
        if let path = ProcessInfo.processInfo.environment["NMEA_CORPUS"],
            FileManager.default.fileExists(atPath: path)
        {
            return URL(fileURLWithPath: path)
        }
        let beside = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/nmea-corpus")
        return FileManager.default.fileExists(atPath: beside.path) ? beside : nil
    }()

    static var isAvailable: Bool { directory != nil }
}
