import Glibc
import System

/// Remembers the rate that last worked for each device, so autobaud tries it first next time.
///
/// Kept in `$XDG_STATE_HOME/nmea/baud-rates` (default `~/.local/state/nmea/baud-rates`): one line per device,
/// `<key> <rate>`, where the key is ``SerialDeviceInfo/stableKey`` (its by-id link name, or USB IDs and serial
/// number, or path). The file is replaced atomically (write, then `rename`); a broken file is ignored.
public struct BaudRateMemory: Sendable {
    /// The directory holding the file.
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The memory under `$XDG_STATE_HOME/nmea` or `~/.local/state/nmea`, or `nil` when neither is set.
    public static var standard: BaudRateMemory? { StandardDirectories.state.map(BaudRateMemory.init(directory:)) }

    var file: String { directory + "/baud-rates" }

    /// The rate remembered for `key`.
    public func rate(for key: String) -> BaudRate? {
        entries()[key]
    }

    /// Remembers `rate` for `key`. Failures (read-only home, full disk) are ignored: this is only a hint.
    public func remember(_ rate: BaudRate, for key: String) {
        var all = entries()
        guard all[key] != rate else { return }
        all[key] = rate
        try? Directory.create(directory)
        let text = all.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.rawValue)\n" }.joined()
        guard let replacing = try? ReplacingFile(path: file) else { return }
        if (try? replacing.descriptor.writeAll(Array(text.utf8))) != nil { try? replacing.commit() }
        replacing.close()  // uncommitted: removed as the file goes
    }

    private func entries() -> [String: BaudRate] {
        guard let text = readSmallFile(file, limit: 1 << 20) else { return [:] }
        var result: [String: BaudRate] = [:]
        for line in text.split(separator: "\n") {
            guard let space = line.lastIndex(of: " "), let number = Int(line[line.index(after: space)...]),
                let rate = BaudRate(rawValue: number)
            else { continue }
            result[String(line[..<space])] = rate
        }
        return result
    }
}
