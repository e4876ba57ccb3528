import NMEA

/// Turns `!xxVDM` and `!xxVDO` sentences into AIS messages: unarmours each payload, assembles multi-part messages
/// by their sequential message ID and channel — or by their TAG block group (`\g:1-2-1234*hh\`) when they have one,
/// as shore networks mark them, so that two stations' parts with the same ID do not mix — and pairs type 24's parts
/// A and B, as gpsd does. Memory is bounded:
/// at most ``partialCapacity`` messages in assembly and ``staticPartCapacity`` remembered type 24 names; beyond that
/// the oldest is dropped (and counted), so a hostile stream of first parts cannot grow it.
public struct AISDecoder: Sendable {
    /// Messages in assembly at once (interleaved multi-part messages from different stations and channels).
    public static let partialCapacity = 8
    /// Type 24 part A names remembered until their part B.
    public static let staticPartCapacity = 16

    /// What the decoder has seen, for statistics.
    public struct Counts: Sendable, Equatable {
        /// Sentences given (`!xxVDM`/`!xxVDO`).
        public var sentences = 0
        /// Messages handed out.
        public var messages = 0
        /// Multi-part messages given up: a part missing, or pushed out by newer ones.
        public var incomplete = 0
        /// Parts seen again (a repeated sentence), ignored.
        public var duplicates = 0
        /// Sentences or messages that did not read (bad payload, bad fragment numbers, too short).
        public var errors = 0
        /// Type 24 parts B whose part A was not seen (or was forgotten: see ``staticPartCapacity``).
        public var unpairedStaticParts = 0
        public init() {}
    }

    /// The counts so far.
    public internal(set) var counts = Counts()

    private struct Partial: Sendable {
        var key: UInt64 = 0
        var count: UInt8 = 0
        var next: UInt8 = 0
        var age: UInt32 = 0
        /// A digest of the first part's text, to tell a repeated first part from a new message's.
        var firstPart: UInt64 = 0
        var payload = AISPayload()

        /// Makes this slot that of a new message whose first part has `key`, its payload emptied in place: a new
        /// `Partial` would be made aside (its 136 bytes of words zeroed) and then copied into the slot.
        mutating func restart(key: UInt64, count: UInt8, age: UInt32, firstPart: UInt64) {
            (self.key, self.count, next, self.age, self.firstPart) = (key, count, 2, age, firstPart)
            payload.removeAll()
        }
    }

    private var partials: InlineArray<8, Partial> = InlineArray(repeating: Partial())
    private var staticNames: InlineArray<16, (mmsi: UInt32, name: AISPayload)> = InlineArray(
        repeating: (0, AISPayload()))
    private var nextStaticSlot = 0
    private var clock: UInt32 = 0

    public init() {}

    /// Adds one sentence. Returns the message it completes, or `nil` (a part of a longer message, or a type 24
    /// part A); throws when the sentence is not an AIS sentence or its payload does not read.
    public mutating func add(_ sentence: Sentence) throws(AISError) -> AISMessage? {
        var completed: AISMessage?
        try add(sentence) { completed = copy $0 }
        return completed
    }

    /// Adds one sentence and hands the message it completes, if any, to `body`, where it is made: no copy of it,
    /// the fastest way to read a stream (a message is 150 bytes). `body` must not use this decoder. Throws as
    /// ``add(_:)`` does.
    public mutating func add(_ sentence: Sentence, _ body: (borrowing AISMessage) -> Void) throws(AISError) {
        var fields = AISSentenceFields()
        var message = AISMessage()
        // Another encapsulated sentence (`!AIABM`…) is not AIS and not an error of it: neither counted.
        guard fields.read(sentence, into: &message.payload) else { throw .notAIS }
        try add(counting: fields, &message, body)
    }

    /// Adds the fields of one AIS sentence, counting it, and its error when it has one. `message` is the one the
    /// fields were read into (``AISSentenceFields/read(_:into:)``), or an empty one. Inlined, as the step below it
    /// is, into the caller: two calls and their frames fewer a sentence (19 instructions a message in `nmea bench`).
    @inline(__always)
    mutating func add(
        counting fields: AISSentenceFields, _ message: inout AISMessage, _ body: (borrowing AISMessage) -> Void
    ) throws(AISError) {
        counts.sentences += 1
        do {
            try add(fields, &message, body)
        } catch {
            counts.errors += 1
            throw error
        }
    }

    @inline(__always)
    private mutating func add(
        _ fields: AISSentenceFields, _ message: inout AISMessage, _ body: (borrowing AISMessage) -> Void
    ) throws(AISError) {
        guard fields.count >= 1, fields.number >= 1, fields.number <= fields.count else { throw .badFragment }
        if fields.count == 1 {
            try message.complete(fields)
            hand(message, to: body)
        } else if let slot = try assemble(fields) {
            let message = try AISMessage(
                payload: partials[slot].payload, channel: fields.channel, isOwnShip: fields.isOwnShip)
            hand(message, to: body)
        }
    }

    /// Hands a message out, a type 24 once both its parts are in.
    @inline(__always)
    private mutating func hand(_ message: borrowing AISMessage, to body: (borrowing AISMessage) -> Void) {
        if message.type != 24 {
            counts.messages += 1
            body(message)
        } else if let paired = pairStaticParts(message) {
            body(paired)
        }
    }

    /// Adds a part of a multi-part message; when this was its last part, the slot that holds the whole payload
    /// (until the next first part), which is not copied out here.
    private mutating func assemble(_ fields: AISSentenceFields) throws(AISError) -> Int? {
        clock &+= 1
        // The sequential message ID in bits 16-23, or the TAG group's ID in bits 16-47 with bit 63 set.
        let message = fields.group.map { 1 << 63 | UInt64($0.id) << 16 } ?? UInt64(fields.sequence) << 16
        let key = message | UInt64(fields.channel) << 8 | UInt64(fields.count) << 1 | (fields.isOwnShip ? 1 : 0)
        if fields.number == 1 {
            let digest = Self.digest(fields.payload)
            if let slot = partialIndex(key), partials[slot].next == 2, partials[slot].firstPart == digest {
                // The same first part again, before any other: a repeated sentence.
                counts.duplicates += 1
                return nil
            }
            let slot = slot(for: key)
            if partials[slot].count != 0 { counts.incomplete += 1 }
            partials[slot].restart(key: key, count: UInt8(fields.count), age: clock, firstPart: digest)
            try partials[slot].payload.append(armored: fields.payload, fillBits: 0)
            return nil
        }
        guard let slot = partialIndex(key) else {
            counts.incomplete += 1
            return nil
        }
        let expected = Int(partials[slot].next)
        if fields.number < expected {
            counts.duplicates += 1
            return nil
        }
        guard fields.number == expected else {
            // A part was lost: the message cannot be completed.
            partials[slot].count = 0
            counts.incomplete += 1
            return nil
        }
        let isLast = fields.number == fields.count
        do {
            try partials[slot].payload.append(armored: fields.payload, fillBits: isLast ? fields.fillBits : 0)
        } catch {
            partials[slot].count = 0
            throw error
        }
        partials[slot].next += 1
        partials[slot].age = clock
        guard isLast else { return nil }
        partials[slot].count = 0
        return slot
    }

    /// FNV-1a's step over a fragment's bytes taken eight at a time (the last few one at a time).
    private static func digest(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x100_0000_01b3
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))) &* prime
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* prime
            index += 1
        }
        return hash
    }

    /// The slot of the message in assembly with `key`, if any. Inlined, as ``slot(for:)`` is: a method of the decoder
    /// called out of line is handed a copy of it (its slots are 1.4 KB).
    @inline(__always)
    private func partialIndex(_ key: UInt64) -> Int? {
        for index in 0..<Self.partialCapacity where partials[index].count != 0 && partials[index].key == key {
            return index
        }
        return nil
    }

    /// The slot for a new first part: the same key's (a restart), else a free one, else the oldest.
    @inline(__always)
    private func slot(for key: UInt64) -> Int {
        if let index = partialIndex(key) { return index }
        var oldest = 0
        for index in 0..<Self.partialCapacity {
            if partials[index].count == 0 { return index }
            if partials[index].age < partials[oldest].age { oldest = index }
        }
        return oldest
    }

    /// Type 24: part A's name is remembered and nothing is handed out; part B comes out with the name of its part
    /// A (after its own 168 bits), or not at all when no part A was seen.
    private mutating func pairStaticParts(_ message: borrowing AISMessage) -> AISMessage? {
        let mmsi = UInt32(message.mmsi)
        let part = message.payload.unsigned(38, 2)
        guard part <= 1 else {
            // Parts 2 and 3 are not defined (ITU-R M.1371-5 has A and B only).
            counts.errors += 1
            return nil
        }
        if part == 0 {
            var name = AISPayload()
            name.copyBits(from: message.payload, start: 40, count: 120)
            let slot = staticNames.indices.first { staticNames[$0].mmsi == mmsi && mmsi != 0 } ?? nextSlot()
            staticNames[slot] = (mmsi, name)
            return nil
        }
        guard let slot = staticNames.indices.first(where: { staticNames[$0].mmsi == mmsi && mmsi != 0 }) else {
            counts.unpairedStaticParts += 1
            return nil
        }
        var joined = AISPayload()
        joined.copyBits(from: message.payload, start: 0, count: min(message.payload.bitCount, 168))
        joined.padBits(to: 168)
        joined.copyBits(from: staticNames[slot].name, start: 0, count: 120)
        counts.messages += 1
        return try? AISMessage(payload: joined, channel: message.channel, isOwnShip: message.isOwnShip)
    }

    private mutating func nextSlot() -> Int {
        defer { nextStaticSlot = (nextStaticSlot + 1) % Self.staticPartCapacity }
        return nextStaticSlot
    }
}

extension AISPayload {
    /// Empties the payload where it is: no bits, every word zero (reads past the end give zeros).
    mutating func removeAll() {
        storedBitCount = 0
        let count = words.count
        withUnsafeMutablePointer(to: &words) { words in
            _ = UnsafeMutableRawPointer(words).initializeMemory(as: UInt64.self, repeating: 0, count: count)
        }
    }

    /// Zero bits up to `count` bits (at most ``capacity``): the bits past the end are zeros already.
    mutating func padBits(to count: Int) {
        storedBitCount = max(bitCount, count)
    }
}

/// The fields of an `!xxVDM`/`!xxVDO` sentence: fragment count and number, sequential message ID, channel, payload
/// and fill bits, read from the sentence's bytes without copying.
struct AISSentenceFields {
    var count = 0
    var number = 0
    var sequence = 0
    var channel: UInt8 = 0
    var payload = UnsafeRawBufferPointer(start: nil, count: 0)
    var fillBits = 0
    var isOwnShip = false
    /// The TAG block's group, when the sentence had one.
    var group: TagGroup?
    /// `true` when the payload of a single-part message was unarmoured as it was read (``read(_:into:)``), all of
    /// it, its fill bits not yet taken off.
    var isUnarmoured = false

    /// `VDM` and `VDO` as ``SentenceType`` packs them (first letter in the low byte).
    static let vdm: UInt64 = 0x4D_4456
    static let vdo: UInt64 = 0x4F_4456

    /// Reads the six fields after the address, and unarmours a single-part message's payload into `bits` (empty)
    /// as its end is looked for (``isUnarmoured``); `false` when the sentence is not VDM or VDO or lacks them.
    mutating func read(_ sentence: Sentence, into bits: inout AISPayload) -> Bool {
        let type = sentence.type.rawValue
        guard sentence.isEncapsulated, type == Self.vdm || type == Self.vdo else { return false }
        isOwnShip = type == Self.vdo
        group = sentence.tagGroup
        let bytes = sentence.bytes
        let comma = UInt8(ascii: ",")
        var index = sentence.address.bytes.count + 2  // past `!`, the address and its comma
        // Fragment count and number, sequential message ID, channel: a byte or two each, read straight when they
        // are the usual single bytes; any other shape goes field by field.
        if let end = readShortHeader(bytes, from: index) {
            index = end
        } else {
            guard let end = readHeader(bytes, from: index) else { return false }
            index = end
        }
        // The payload: a single part's is unarmoured as its end is looked for; when it stops at a byte other than
        // the comma (a bad byte, a payload too long), or for a part of a longer message, the comma is looked for.
        var payloadEnd = index
        if count == 1 {
            payloadEnd = bits.appendArmoredPrefix(of: bytes, from: index)
            isUnarmoured = payloadEnd < bytes.count && bytes[payloadEnd] == comma
        }
        if !isUnarmoured {
            payloadEnd = ByteScan.firstIndex(of: comma, in: bytes, from: payloadEnd)
            guard payloadEnd < bytes.count else { return false }
        }
        payload = UnsafeRawBufferPointer(rebasing: bytes[index..<payloadEnd])
        index = payloadEnd + 1
        // The fill bits: usually one digit that ends the sentence.
        if index + 1 == bytes.count, let value = Self.digit(bytes[index]) {
            fillBits = value
            return true
        }
        while index < bytes.count, bytes[index] != comma { index += 1 }
        return take(UnsafeRawBufferPointer(rebasing: bytes[(payloadEnd + 1)..<index]), as: 5)
    }

    /// The four header fields in their usual shape, `c,n,[s],[ch],` (one digit each, an ID and a channel of one
    /// byte or none); the index past them, or `nil` for any other shape.
    @inline(__always)
    private mutating func readShortHeader(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        let comma = UInt8(ascii: ",")
        // The longest such header is 8 bytes, and the payload's comma follows: 9 bytes are checked for.
        guard start + 8 < bytes.count, let count = Self.digit(bytes[start]), bytes[start + 1] == comma,
            let number = Self.digit(bytes[start + 2]), bytes[start + 3] == comma
        else { return nil }
        var index = start + 4
        var sequence = 0
        if bytes[index] != comma {
            guard let value = Self.digit(bytes[index]), bytes[index + 1] == comma else { return nil }
            sequence = value + 1
            index += 1
        }
        index += 1
        var channel: UInt8 = 0
        if bytes[index] != comma {
            guard bytes[index + 1] == comma else { return nil }
            channel = bytes[index]
            index += 1
        }
        (self.count, self.number, self.sequence, self.channel) = (count, number, sequence, channel)
        return index + 1
    }

    /// The four header fields, one at a time; the index past them, or `nil` when one does not read.
    private mutating func readHeader(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        let comma = UInt8(ascii: ",")
        var index = start
        for number in 0..<4 {
            let start = index
            while index < bytes.count, bytes[index] != comma { index += 1 }
            guard index < bytes.count, take(UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: number) else {
                return nil
            }
            index += 1
        }
        return index
    }

    private mutating func take(_ field: UnsafeRawBufferPointer, as number: Int) -> Bool {
        switch number {
        case 0, 1:
            guard let value = Self.digit(field) else { return false }
            if number == 0 { count = value } else { self.number = value }
        case 2:
            // The sequential message ID (0-9), kept as 1-10; 0 when absent (single-part messages).
            if field.isEmpty {
                sequence = 0
            } else if let value = Self.digit(field) {
                sequence = value + 1
            } else {
                return false
            }
        case 3:
            channel = field.isEmpty ? 0 : field[0]
        case 4:
            payload = field
        default:
            if field.isEmpty {
                fillBits = 0
            } else if let value = Self.digit(field) {
                fillBits = value
            } else {
                return false
            }
        }
        return true
    }

    /// A one-digit field's value.
    private static func digit(_ field: UnsafeRawBufferPointer) -> Int? {
        field.count == 1 ? digit(field[0]) : nil
    }

    /// A digit's value.
    @inline(__always)
    private static func digit(_ byte: UInt8) -> Int? {
        byte &- 48 < 10 ? Int(byte &- 48) : nil
    }
}
