import Geodesy
import NMEA

/// A caster's sourcetable: its mount points (`STR` lines), as NTRIP 1 and 2 list them up to `ENDSOURCETABLE`.
///
///     STR;MOUNT;Identifier;RTCM 3.3;1005(10),1077(1);2;GPS+GLO;NET;DEU;48.14;11.58;1;0;generator;none;B;N;9600;
///
/// Fields after the mount: identifier, format, format details, carrier (0 none, 1 L1, 2 L1+L2), navigation systems,
/// network, country, latitude, longitude, whether the client must send NMEA (GGA), solution (0 a single base, 1 a
/// network), generator, compression, authentication (N, B basic, D digest), fee, bit rate, anything else.
public struct Sourcetable: Sendable, Hashable {
    /// One mount point.
    public struct Stream: Sendable, Hashable {
        public var mount: String
        public var identifier: String
        public var format: String
        public var formatDetails: String
        public var carrier: Int?
        public var navigationSystems: String
        public var network: String
        public var country: String
        public var latitude: Double?
        public var longitude: Double?
        /// The caster wants the client's position (GGA) to serve this mount (a network's virtual base).
        public var needsPosition: Bool
        /// `true` for a network solution, `false` for a single base station.
        public var isNetwork: Bool
        /// `N` (none), `B` (basic), `D` (digest).
        public var authentication: String
        public var fee: Bool
        public var bitRate: Int?

        /// The distance from a position to the stream's base (or the network's centre), metres; `nil` when the
        /// table gives no position (or 0, 0, which casters write for "unknown").
        public func distanceMeters(fromLatitude latitude: Double, longitude: Double) -> Double? {
            guard let baseLatitude = self.latitude, let baseLongitude = self.longitude,
                baseLatitude != 0 || baseLongitude != 0
            else { return nil }
            return Geodesy.distanceMeters(latitude, longitude, baseLatitude, baseLongitude)
        }
    }

    public var streams: [Stream] = []
    /// Lines that were not `STR`, `CAS`, `NET`, comments or the end: counted, not kept.
    public var unreadLines = 0
    /// `true` once `ENDSOURCETABLE` was read.
    public var isComplete = false

    public init() {}

    /// Reads the table's text (lines ending in CR LF or LF).
    public init(parsing text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            if line == "ENDSOURCETABLE" {
                isComplete = true
                break
            }
            if line.hasPrefix("STR;"), let stream = Self.stream(line) {
                streams.append(stream)
            } else if !(line.hasPrefix("CAS;") || line.hasPrefix("NET;") || line.hasPrefix("#")) {
                unreadLines += 1
            }
        }
    }

    private static func stream(_ line: Substring) -> Stream? {
        let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 2, !fields[1].isEmpty else { return nil }
        func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }
        return Stream(
            mount: fields[1], identifier: field(2), format: field(3), formatDetails: field(4),
            carrier: Int(field(5)), navigationSystems: field(6), network: field(7), country: field(8),
            latitude: Double(field(9)), longitude: Double(field(10)), needsPosition: field(11) == "1",
            isNetwork: field(12) == "1", authentication: field(15), fee: field(16) == "Y", bitRate: Int(field(17)))
    }

    /// An `STR` line for `stream` (the caster's own table).
    public static func line(_ stream: Stream) -> String {
        func number(_ value: Double?) -> String {
            value.map { DecimalFormatter.string($0, .decimals(2)) } ?? ""
        }
        return [
            "STR", stream.mount, stream.identifier, stream.format, stream.formatDetails,
            stream.carrier.map(String.init) ?? "", stream.navigationSystems, stream.network, stream.country,
            number(stream.latitude), number(stream.longitude), stream.needsPosition ? "1" : "0",
            stream.isNetwork ? "1" : "0", "swift-nmea", "none", stream.authentication, stream.fee ? "Y" : "N",
            stream.bitRate.map(String.init) ?? "", "",
        ].joined(separator: ";")
    }
}
