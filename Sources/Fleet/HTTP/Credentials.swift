import System

/// The devices the HTTP collector takes OsmAnd reports from (`--devices FILE`): one a line, its ID, a space, and
/// its name (the rest of the line, for display); blank lines and lines starting with `#` are skipped.
///
///     358240051111110 Van 7 (Ford Transit)
///     phone-anna      Anna's phone
///
/// The ID is the vehicle in the store, so a device reporting over HTTP and a vehicle publishing over MQTT are the
/// same vehicle when they share a name. An ID holds no spaces or control characters and is at most 256 bytes.
public struct DeviceList: Sendable, Hashable {
    /// Name by ID (an empty name when the line had none).
    public private(set) var names: [String: String] = [:]

    public init(names: [String: String] = [:]) { self.names = names }

    /// Reads the lines of `text`.
    /// - Throws: ``FleetError`` naming the first bad line (a repeated ID, an unusable one).
    public init(parsing text: String, file: String = "devices") throws(FleetError) {
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }.trimmingTrailingCarriageReturn
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let id = String(trimmed.prefix { $0 != " " && $0 != "\t" })
            let name = String(trimmed.dropFirst(id.count).drop { $0 == " " || $0 == "\t" })
            do {
                try StoredTrip.check(vehicle: id)
            } catch {
                throw FleetError(
                    "\(file), line \(number + 1): \(error.description.replacing("vehicle name", with: "ID"))")
            }
            guard names.updateValue(name, forKey: id) == nil else {
                throw FleetError("\(file), line \(number + 1): the ID '\(id)' is listed twice")
            }
        }
    }

    /// Reads the file at `path`.
    public static func load(_ path: String) throws(FleetError) -> DeviceList {
        try DeviceList(parsing: try readSmallFile(path), file: path)
    }

    public var count: Int { names.count }
}

/// The OwnTracks users the HTTP collector lets in (`--users FILE`): `user:hash` lines as `htpasswd -B` writes them
/// (bcrypt, `$2y$`); blank lines and `#` comments skipped. Other hash kinds (MD5 `$apr1$`, SHA-1 `{SHA}`, crypt)
/// are refused when the file is read: they are too cheap to guess.
public struct UserList: Sendable, Hashable {
    public private(set) var hashes: [String: BcryptHash] = [:]

    public init(parsing text: String, file: String = "users") throws(FleetError) {
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingTrailingCarriageReturn
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":"), colon != trimmed.startIndex else {
                throw FleetError("\(file), line \(number + 1): expected user:hash (as 'htpasswd -B' writes)")
            }
            let user = String(trimmed[..<colon])
            guard let hash = BcryptHash(String(trimmed[trimmed.index(after: colon)...])) else {
                throw FleetError(
                    "\(file), line \(number + 1): the hash of '\(user)' is not bcrypt; make it with "
                        + "'htpasswd -B \(file) \(user)'")
            }
            guard hashes.updateValue(hash, forKey: user) == nil else {
                throw FleetError("\(file), line \(number + 1): the user '\(user)' is listed twice")
            }
        }
    }

    public static func load(_ path: String) throws(FleetError) -> UserList {
        try UserList(parsing: try readSmallFile(path), file: path)
    }

    public var count: Int { hashes.count }
}

extension Substring {
    fileprivate var trimmingTrailingCarriageReturn: Substring {
        var text = self
        while text.hasSuffix("\r") || text.hasSuffix(" ") || text.hasSuffix("\t") { text = text.dropLast() }
        return text
    }
}

/// The text of a file of at most 1 MiB.
func readSmallFile(_ path: String) throws(FleetError) -> String {
    let descriptor: FileDescriptor
    do {
        descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
    } catch {
        throw FleetError("cannot read '\(path)': \(error)")
    }
    defer { try? descriptor.close() }
    var bytes = [UInt8](repeating: 0, count: 1 << 20)
    let count: Int
    do {
        count = try bytes.withUnsafeMutableBytes { buffer throws(Errno) in try descriptor.readAll(into: buffer) }
    } catch {
        throw FleetError("cannot read '\(path)': \(error)")
    }
    guard count < bytes.count else { throw FleetError("'\(path)' is larger than 1 MiB") }
    guard let text = String(validating: bytes[..<count], as: UTF8.self) else {
        throw FleetError("'\(path)' is not UTF-8 text")
    }
    return text
}
