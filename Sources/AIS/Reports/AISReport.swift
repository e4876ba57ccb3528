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
    /// The message's values as its type's report: every field read from the bits in one pass, no text copied. The
    /// enum is made aside and returned as a copy (177 bytes), and each `switch` on it copies it again: a reader of
    /// every message reads its type's report where it is made instead (`readReport(position:…)`, no enum and no
    /// copy; or ``positionReport`` and the like, for one type).
    public var report: AISReport { payload.withBits { AISReport($0) } }
}

/// Each type's report read straight from the message's bits, without the ``AISReport`` enum: what ``report`` holds
/// for the message's type, returned where the caller keeps it, with no enum made aside and copied, nor a copy of the
/// message's bits. The way to read every message by type (`nmea bench` does):
///
/// ```swift
/// if let r = message.positionReport {
///     print(r.latitude ?? .nan, r.longitude ?? .nan)
/// } else if let r = message.classBPositionReport {
///     print(r.latitude ?? .nan, r.longitude ?? .nan)
/// }
/// ```
extension AISMessage {
    /// The report of a type 1, 2 or 3 message, read straight from its bits; `nil` for any other type.
    public var positionReport: AISPositionReport? {
        guard (1...3).contains(type) else { return nil }
        return payload.withBits { AISPositionReport($0) }
    }

    /// The report of a type 4 or 11 message, read straight from its bits; `nil` for any other type.
    public var baseStationReport: AISBaseStationReport? {
        guard type == 4 || type == 11 else { return nil }
        return payload.withBits { AISBaseStationReport($0) }
    }

    /// The report of a type 5 message, read straight from its bits; `nil` for any other type.
    public var staticAndVoyageData: AISStaticAndVoyageData? {
        guard type == 5 else { return nil }
        return payload.withBits { AISStaticAndVoyageData($0) }
    }

    /// The report of a type 18 message, read straight from its bits; `nil` for any other type.
    public var classBPositionReport: AISClassBPositionReport? {
        guard type == 18 else { return nil }
        return payload.withBits { AISClassBPositionReport($0) }
    }

    /// The report of a type 19 message, read straight from its bits; `nil` for any other type.
    public var extendedClassBReport: AISExtendedClassBReport? {
        guard type == 19 else { return nil }
        return payload.withBits { AISExtendedClassBReport($0) }
    }

    /// The report of a type 21 message, read straight from its bits; `nil` for any other type.
    public var aidToNavigation: AISAidToNavigation? {
        guard type == 21 else { return nil }
        return payload.withBits { AISAidToNavigation($0) }
    }

    /// The report of a type 24 message (parts A and B paired, as ``AISDecoder`` hands it out), read straight from its bits; `nil` for any other type.
    public var staticDataReport: AISStaticDataReport? {
        guard type == 24 else { return nil }
        return payload.withBits { AISStaticDataReport($0) }
    }

    /// The report of a type 27 message, read straight from its bits; `nil` for any other type.
    public var longRangeReport: AISLongRangeReport? {
        guard type == 27 else { return nil }
        return payload.withBits { AISLongRangeReport($0) }
    }
}

extension AISMessage {
    /// Calls the closure for the message's type with its report, made where the closure reads it and lent to it:
    /// no ``AISReport`` enum is made, and neither the report nor a copy of it is returned, so nothing is copied on
    /// the way (``report`` makes the enum aside and returns a copy; ``positionReport`` and the like return an
    /// optional, made aside and copied too). The fastest way to read every message by type: `nmea bench` reads
    /// every value of every message through it. Each closure defaults to doing nothing; the types without a report
    /// of their own go to `other`, with their type, to be read field by field (``forEachValue(raw:_:)``).
    ///
    /// ```swift
    /// var speed: Double?
    /// message.readReport(
    ///     position: { speed = $0.speed },
    ///     classBPosition: { speed = $0.speed })
    /// ```
    public func readReport(
        position: (borrowing AISPositionReport) -> Void = { _ in },
        baseStation: (borrowing AISBaseStationReport) -> Void = { _ in },
        staticAndVoyage: (borrowing AISStaticAndVoyageData) -> Void = { _ in },
        classBPosition: (borrowing AISClassBPositionReport) -> Void = { _ in },
        extendedClassB: (borrowing AISExtendedClassBReport) -> Void = { _ in },
        aidToNavigation: (borrowing AISAidToNavigation) -> Void = { _ in },
        staticData: (borrowing AISStaticDataReport) -> Void = { _ in },
        longRange: (borrowing AISLongRangeReport) -> Void = { _ in },
        other: (_ type: Int) -> Void = { _ in }
    ) {
        payload.withBits { bits in
            switch bits.type {
            case 1, 2, 3: position(AISPositionReport(bits))
            case 4, 11: baseStation(AISBaseStationReport(bits))
            case 5: staticAndVoyage(AISStaticAndVoyageData(bits))
            case 18: classBPosition(AISClassBPositionReport(bits))
            case 19: extendedClassB(AISExtendedClassBReport(bits))
            case 21: aidToNavigation(AISAidToNavigation(bits))
            case 24: staticData(AISStaticDataReport(bits))
            case 27: longRange(AISLongRangeReport(bits))
            case let type: other(type)
            }
        }
    }
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
