import Glibc
import System

/// Programs on the machine: for tests that check against outside tools, and for skipping when one is missing.
///
///     @Test(.enabled(if: Tools.available("socat"), "socat is not installed (scripts/test installs it)"))
public enum Tools {
    /// The full path of `name` on `PATH`, then in the `sbin` directories (where `mosquitto` lives); a path is
    /// checked as it is. `nil` when there is no such executable.
    public static func which(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = Environment.value("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/sbin", "/sbin"]
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0, (try? FileStatus(path: candidate))?.kind == .regular { return candidate }
        }
        return nil
    }

    /// `true` when every one of `names` is installed.
    public static func available(_ names: String...) -> Bool { names.allSatisfy { which($0) != nil } }

    /// `true` when the tests run as root (some checks need an unprivileged user, some need root).
    public static var isRoot: Bool { getuid() == 0 }
}

/// The executables this package builds, found beside the test runner in the build directory.
public enum BuiltExecutables {
    /// The path of the built executable `name` (`nmea`, `TrackWriterChild`): in the directory of the running test
    /// binary or one above it; `nil` when it is not there.
    public static func path(of name: String) -> String? {
        guard var directory = resolvedExecutable() else { return nil }
        while let slash = directory.lastIndex(of: "/"), !directory.isEmpty {
            directory = String(directory[..<slash])
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
            if directory.hasSuffix("/.build") { break }
        }
        return nil
    }

    /// The built `nmea` (`nmea` on `PATH` when the build directory has none, so a test fails saying so).
    public static let nmea: String = path(of: "nmea") ?? "nmea"

    /// `true` when the build directory has `nmea`.
    public static var hasNMEA: Bool { path(of: "nmea") != nil }

    /// The build's `Modules` directory (each module's `.swiftmodule`), beside `nmea`; `nil` when there is none.
    public static var modules: String? {
        guard let nmea = path(of: "nmea"), let slash = nmea.lastIndex(of: "/") else { return nil }
        let directory = String(nmea[..<slash]) + "/Modules"
        return access(directory, F_OK) == 0 ? directory : nil
    }

    /// `/proc/self/exe`, links resolved.
    private static func resolvedExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Where things are: the package, and the read-only data shared beside it.
public enum Locations {
    /// The package's root directory (this file is `Tests/TestSupport/Tools.swift` in it).
    public static let packageRoot: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// The shared real-world NMEA corpus: `$NMEA_CORPUS`, else `../shared/nmea-corpus` beside the package; `nil`
    /// when neither exists (a fresh clone elsewhere), and the tests that need it are skipped saying so.
    public static let corpus: String? = sharedDirectory(environment: "NMEA_CORPUS", name: "nmea-corpus")

    /// The shared binary and AIS corpus (u-blox UBX, RTCM, AIS logs with gpsd's outputs): `$GNSS_CORPUS`, else
    /// `../shared/gnss-corpus` beside the package; `nil` when neither exists.
    public static let gnssCorpus: String? = sharedDirectory(environment: "GNSS_CORPUS", name: "gnss-corpus")

    /// The shared XML schemas (GPX 1.1…): `$NMEA_SCHEMAS`, else `../shared/schemas` beside the package.
    public static let schemas: String? = sharedDirectory(environment: "NMEA_SCHEMAS", name: "schemas")

    private static func sharedDirectory(environment: String, name: String) -> String? {
        if let path = Environment.value(environment), (try? FileStatus(path: path))?.kind == .directory {
            return path
        }
        let parent = String(packageRoot[..<(packageRoot.lastIndex(of: "/") ?? packageRoot.startIndex)])
        let beside = parent + "/shared/" + name
        return (try? FileStatus(path: beside))?.kind == .directory ? beside : nil
    }
}
