/// A message's values by type, in units: what most users of AIS read (where vessels are, what they are called).
/// The types without a report of their own (binary messages, safety texts, interrogations…) are read field by field
/// (``AISMessage/forEachValue(raw:_:)``), as the JSON writer reads every type.
public enum AISReport: Sendable, Equatable {
    /// Types 1, 2 and 3.
    case position(AISPositionReport)
    /// Types 4 and 11.
    case baseStation(AISBaseStationReport)
    /// Type 5.
    case staticAndVoyage(AISStaticAndVoyageData)
    /// Type 18.
    case classBPosition(AISClassBPositionReport)
    /// Type 19.
    case extendedClassB(AISExtendedClassBReport)
    /// Type 21.
    case aidToNavigation(AISAidToNavigation)
    /// Type 24, parts A and B.
    case staticData(AISStaticDataReport)
    /// Type 27.
    case longRange(AISLongRangeReport)
    /// Any other type: its fields are read with ``AISMessage/forEachValue(raw:_:)``.
    case other(type: Int)
}

extension AISMessage {
    /// The message's values as its type's report: every field read from the bits in one pass, no text copied.
    public var report: AISReport { payload.withBits { AISReport($0) } }
}

extension AISReport {
    init(_ bits: AISBitReader) {
        switch bits.type {
        case 1, 2, 3: self = .position(AISPositionReport(bits))
        case 4, 11: self = .baseStation(AISBaseStationReport(bits))
        case 5: self = .staticAndVoyage(AISStaticAndVoyageData(bits))
        case 18: self = .classBPosition(AISClassBPositionReport(bits))
        case 19: self = .extendedClassB(AISExtendedClassBReport(bits))
        case 21: self = .aidToNavigation(AISAidToNavigation(bits))
        case 24: self = .staticData(AISStaticDataReport(bits))
        case 27: self = .longRange(AISLongRangeReport(bits))
        case let type: self = .other(type: type)
        }
    }
}
