import Glibc

/// The directories the XDG Base Directory specification gives a program's files, named for this tool (`nmea`).
public enum StandardDirectories {
    /// `$XDG_STATE_HOME/nmea`, else `$HOME/.local/state/nmea`: state that lasts across runs (remembered baud rates,
    /// the MQTT queue); `nil` when neither variable is set to a usable path.
    public static var state: String? {
        if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), state.hasPrefix("/") {
            return state + "/nmea"
        }
        if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty {
            return home + "/.local/state/nmea"
        }
        return nil
    }
}
