/// One AIS message, assembled from its sentences: its bits, and the channel and direction it came on. Fields are
/// read from the bits when asked (``forEachField(_:)``, ``value(_:)``, the accessors such as ``position``), so
/// making a message copies no text and allocates nothing; a message can be kept as long as wanted.
public struct AISMessage: Sendable {
    /// The message's bits.
    public internal(set) var payload: AISPayload
    /// The radio channel (`A` or `B`, as an ASCII byte), or 0 when the sentence did not say.
    public private(set) var channel: UInt8
    /// `true` for the own ship's messages (`!AIVDO`), `false` for other stations' (`!AIVDM`).
    public private(set) var isOwnShip: Bool
    /// The type and the MMSI, read once: every reader of messages sorts them by these.
    private var storedType: UInt8
    private var storedMMSI: UInt32

    /// The message in `payload`.
    /// - Throws: ``AISError/tooShort(type:bits:needed:)`` when the message is shorter than its type's fixed fields.
    public init(payload: consuming AISPayload, channel: UInt8 = 0, isOwnShip: Bool = false) throws(AISError) {
        self.payload = payload
        self.channel = channel
        self.isOwnShip = isOwnShip
        (storedType, storedMMSI) = try Self.header(of: self.payload)
    }

    /// The message of one armoured payload (a single-part sentence's), unarmoured where the message keeps it.
    /// - Throws: as ``AISPayload/init(armored:fillBits:)`` and ``init(payload:channel:isOwnShip:)`` do.
    public init(
        armored: UnsafeRawBufferPointer, fillBits: Int, channel: UInt8 = 0, isOwnShip: Bool = false
    ) throws(AISError) {
        payload = AISPayload()
        try payload.append(armored: armored, fillBits: fillBits)
        self.channel = channel
        self.isOwnShip = isOwnShip
        (storedType, storedMMSI) = try Self.header(of: payload)
    }

    /// An empty message, for a single-part sentence's payload to be unarmoured into where the message keeps it
    /// (``AISSentenceFields/read(_:into:)``), then made whole by ``complete(_:)``.
    init() {
        payload = AISPayload()
        (channel, isOwnShip, storedType, storedMMSI) = (0, false, 0, 0)
    }

    /// Makes this message that of a single-part sentence whose fields were read into it: its payload's bits less the
    /// fill bits when the payload was unarmoured as it was read, else (a fragment's) its payload unarmoured now.
    /// - Throws: as ``init(armored:fillBits:channel:isOwnShip:)`` does.
    mutating func complete(_ fields: borrowing AISSentenceFields) throws(AISError) {
        if fields.isUnarmoured {
            try payload.removeFillBits(fields.fillBits)
        } else {
            payload = try AISPayload(armored: fields.payload, fillBits: fields.fillBits)
        }
        channel = fields.channel
        isOwnShip = fields.isOwnShip
        (storedType, storedMMSI) = try Self.header(of: payload)
    }

    /// The type and MMSI: the first word's top 38 bits. Throws when the message is shorter than its type's fixed
    /// fields.
    @inline(__always)
    private static func header(of payload: borrowing AISPayload) throws(AISError) -> (UInt8, UInt32) {
        let header = payload.words[unchecked: 0]
        let type = Int(header >> 58)
        let mmsi = UInt32(truncatingIfNeeded: header >> 26) & 0x3FFF_FFFF
        let needed = max(type < 28 ? Int(AISLayout.minimumBits[type]) : 38, 38)
        guard payload.bitCount >= needed else { throw .tooShort(type: type, bits: payload.bitCount, needed: needed) }
        return (UInt8(type), mmsi)
    }

    /// The message type, 1…27.
    public var type: Int { Int(storedType) }
    /// The repeat indicator, 0…3.
    public var repeatIndicator: Int { Int(payload.unsigned(6, 2)) }
    /// The sending station's MMSI.
    public var mmsi: Int { Int(storedMMSI) }

    /// Calls `body` with each field of the message in gpsd's order: the header, the type's fields, and for binary
    /// messages the application's fields or the data.
    public func forEachField(_ body: (AISField) throws -> Void) rethrows {
        try payload.withBits { bits in try bits.forEachField(body) }
    }

    /// Calls `body` with each field of the message (``forEachField(_:)``) and its value: in units, or `nil` when
    /// not available (``value(_:)``); or with `raw`, numbers and bits as sent, "not available" values included
    /// (gpsd's unscaled reports). The fastest way to read a whole message: its bits are viewed once.
    public func forEachValue(raw: Bool = false, _ body: (AISField, AISValue?) throws -> Void) rethrows {
        try payload.withBits { bits in
            try bits.forEachField { field in try body(field, raw ? bits.rawValue(field) : bits.value(field)) }
        }
    }

    /// Calls `body` with a reader of this message's fields over one view of its bits: the way to read many fields
    /// one at a time (``integer(_:)`` and ``value(_:)`` view the bits for each).
    public func withFieldReader<Result>(_ body: (AISFieldReader) throws -> Result) rethrows -> Result {
        try payload.withBits { bits in try body(AISFieldReader(bits: bits)) }
    }

    /// The raw number in a numeric or boolean field (two's complement read for signed fields).
    public func integer(_ field: AISField) -> Int { payload.withBits { $0.integer(field) } }

    /// The field's value in units, or `nil` when the message says "not available" or was not long enough to carry
    /// it.
    public func value(_ field: AISField) -> AISValue? { payload.withBits { $0.value(field) } }

    /// A text field; for type 21 the name's extension (up to 14 characters after bit 272) is part of it.
    public func text(_ field: AISField) -> AISText { payload.withBits { $0.text(field) } }

    /// The number of bits in a data field: to the end of the message, or its width when it has one.
    public func dataBitCount(_ field: AISField) -> Int {
        field.width > 0 ? field.width : max(0, payload.bitCount - field.start)
    }

    /// Calls `body` with the bytes of `bitCount` bits from bit `start`, the last one padded with zero bits (a data
    /// field, ``AISValue/data(start:bitCount:)``, as gpsd writes it in hex).
    public func forEachByte(start: Int, bitCount: Int, _ body: (UInt8) throws -> Void) rethrows {
        try payload.withBits { bits in
            var offset = 0
            while offset < bitCount {
                let width = min(8, bitCount - offset)
                try body(UInt8(bits.unsigned(start + offset, width) << UInt32(8 - width)))
                offset += 8
            }
        }
    }
}

/// The fields of one message read over one view of its bits (``AISMessage/withFieldReader(_:)``); valid only inside
/// that call.
public struct AISFieldReader {
    let bits: AISBitReader

    /// See ``AISMessage/integer(_:)``.
    public func integer(_ field: AISField) -> Int { bits.integer(field) }

    /// See ``AISMessage/value(_:)``.
    public func value(_ field: AISField) -> AISValue? { bits.value(field) }
}

/// The fields of a message and their values, read from its bits in place: what ``AISMessage``'s readers do.
extension AISBitReader {
    var type: Int { Int(unsigned(0, 6)) }

    func forEachField(_ body: (AISField) throws -> Void) rethrows {
        try Self.each(AISLayout.header, body)
        let type = self.type
        if let fields = AISLayout.fixedFields(ofType: type) { return try Self.each(fields, body) }
        switch type {
        case 6: try binaryFields(AISLayout.addressedBinary, dataStart: 88, body)
        case 8: try binaryFields(AISLayout.broadcastBinary, dataStart: 56, body)
        case 22:
            let fields = bit(139) ? AISLayout.channelManagementAddressed : AISLayout.channelManagementArea
            try Self.each(fields, body)
        case 24:
            let fields = isAuxiliaryCraft ? AISLayout.staticDataReportAuxiliary : AISLayout.staticDataReport
            try Self.each(fields, body)
        case 25, 26: try singleSlotFields(body)
        default: break
        }
    }

    /// Calls `body` with each field of a table (through its buffer, which iterates without the array iterator's
    /// allocations in unoptimised builds).
    private static func each(_ fields: [AISField], _ body: (AISField) throws -> Void) rethrows {
        try fields.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count { try body(buffer[index]) }
        }
    }

    /// An auxiliary craft's MMSI is 98XXXYYYY: its type 24 part B names its mother ship instead of dimensions.
    var isAuxiliaryCraft: Bool { unsigned(8, 30) / 10_000_000 == 98 }

    /// The binary header, then the application's fields when it is one we decode, else the data.
    private func binaryFields(
        _ header: [AISField], dataStart: Int, _ body: (AISField) throws -> Void
    ) rethrows {
        try Self.each(header, body)
        if let fields = application {
            try Self.each(fields, body)
        } else {
            try body(AISField("data", dataStart, 0, .data))
        }
    }

    /// The fields of the binary application of a type 6 or 8 message, when it is one that is decoded and the
    /// message is long enough for it. As gpsd does, an international application (DAC 1) is decoded whatever the
    /// message's length, the bits it lacks read as zeros; a regional one needs all its bits.
    var application: [AISField]? {
        let fields: [AISField]?
        let dac: Int
        switch type {
        case 6:
            dac = Int(unsigned(72, 10))
            fields = AISLayout.addressedApplication(dac: dac, fid: Int(unsigned(82, 6)))
        case 8:
            dac = Int(unsigned(40, 10))
            fields = AISLayout.broadcastApplication(dac: dac, fid: Int(unsigned(50, 6)))
        default: return nil
        }
        guard let fields else { return nil }
        if dac == 1 { return fields }
        let end = fields.reduce(0) { max($0, $1.start + $1.width) }
        return bitCount >= end ? fields : nil
    }

    /// Types 25 and 26: the destination when addressed, the application ID when structured, the data, and for 26
    /// the radio status (its last 20 bits).
    private func singleSlotFields(_ body: (AISField) throws -> Void) rethrows {
        try Self.each(AISLayout.singleSlotHeader, body)
        var start = 40
        if bit(38) {
            try body(AISField("dest_mmsi", 40, 30))
            start = 70
        }
        if bit(39) {
            try body(AISField("app_id", start, 16))
            start += 16
        }
        let end = type == 26 ? bitCount - 20 : bitCount
        try body(AISField("data", start, max(0, end - start), .data))
        if type == 26 { try body(AISField("radio", bitCount - 20, 20)) }
    }

    /// See ``AISMessage/integer(_:)``.
    @_transparent
    func integer(_ field: AISField) -> Int {
        let isSigned = field.code == .signed || field.code == .rateOfTurn
        guard _fastPath(!field.readsPastEnd) else { return paddedInteger(field, signed: isSigned) }
        return isSigned
            ? Int(signed(field.start, field.width)) : Int(unsigned(field.start, field.width < 32 ? field.width : 32))
    }

    /// A group element's integer: its bits past the message's end read as zeros (out of line: rare).
    @inline(never)
    private func paddedInteger(_ field: AISField, signed isSigned: Bool) -> Int {
        isSigned ? Int(paddedSigned(field.start, field.width)) : Int(paddedUnsigned(field.start, min(field.width, 32)))
    }

    /// See ``AISMessage/value(_:)``.
    func value(_ field: AISField) -> AISValue? {
        switch field.code {
        case .unsigned, .signed:
            guard let raw = available(field) else { return nil }
            return field.scale == 1 ? .integer(raw) : .number(Double(raw) * field.scale)
        case .bool:
            guard field.readsPastEnd || field.start < bitCount else { return nil }
            return .bool(integer(field) != 0)
        case .decimalText:
            return .integer(integer(field))
        case .text:
            return .text(text(field))
        case .data:
            return .data(start: field.start, bitCount: field.width > 0 ? field.width : max(0, bitCount - field.start))
        case .group:
            return .group(count: elementCount(field))
        case .timestamp, .monthDayTime, .monthDayTimeUnpadded, .dayMonthTime, .dayTime:
            return time(field)
        case .rateOfTurn:
            return rateOfTurn(field).map { .number($0) }
        }
    }

    /// A field as sent: numbers unscaled (``integer(_:)``), bits as booleans, "not available" values kept; texts,
    /// times and data as ``value(_:)`` gives them.
    func rawValue(_ field: AISField) -> AISValue? {
        switch field.code {
        case .bool: .bool(integer(field) != 0)
        case .unsigned, .signed, .rateOfTurn: .integer(integer(field))
        default: value(field)
        }
    }

    /// See ``AISMessage/text(_:)``.
    func text(_ field: AISField) -> AISText {
        // A text of fixed width is read as gpsd reads it, a cut last character included; one to the end of the
        // message has whole characters only.
        let characters = field.width > 0 ? field.width / 6 : max(0, bitCount - field.start) / 6
        let text = text(field.start, characters: characters, partial: field.width > 0)
        guard type == 21, field.start == 43, text.count == 20, bitCount >= 278 else { return text }
        // The name fills its 20 characters and goes on after the fixed fields.
        let extensionText = self.text(272, characters: (bitCount - 272) / 6)
        return AISText(start: 43, count: 20 + extensionText.count, headCount: 20, continuation: 272)
    }

    private func time(_ field: AISField) -> AISValue {
        let s = field.start
        switch field.code {
        case .timestamp:
            return .timestamp(
                year: Int(unsigned(s, 14)), month: Int(unsigned(s + 14, 4)), day: Int(unsigned(s + 18, 5)),
                hour: Int(unsigned(s + 23, 5)), minute: Int(unsigned(s + 28, 6)), second: Int(unsigned(s + 34, 6)))
        case .monthDayTime, .monthDayTimeUnpadded:
            return .monthDayTime(
                month: Int(unsigned(s, 4)), day: Int(unsigned(s + 4, 5)), hour: Int(unsigned(s + 9, 5)),
                minute: Int(unsigned(s + 14, 6)))
        case .dayMonthTime:
            return .monthDayTime(
                month: Int(unsigned(s + 5, 4)), day: Int(unsigned(s, 5)), hour: Int(unsigned(s + 9, 5)),
                minute: Int(unsigned(s + 14, 6)))
        default:
            return .dayTime(day: Int(unsigned(s, 5)), hour: Int(unsigned(s + 5, 5)), minute: Int(unsigned(s + 10, 6)))
        }
    }
}

extension AISPayload {
    /// Appends `count` bits of `source` from bit `start` (as many as fit).
    mutating func copyBits(from source: AISPayload, start: Int, count: Int) {
        // One view of the source's bits for all of them (each of its `unsigned` would view them again).
        source.withBits { bits in
            var copied = 0
            while copied < count, bitCount < Self.capacity {
                let width = min(32, count - copied, Self.capacity - bitCount)
                appendBits(UInt64(bits.unsigned(start + copied, width)), count: width)
                copied += width
            }
        }
    }
}
