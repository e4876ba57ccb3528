/// A checksum-valid NMEA sentence: a borrowed view into the bytes it was framed from, with no copy and no `String`.
///
/// A `Sentence` is valid only inside the closure that received it (``Framer/feed(_:_:)``,
/// ``Sentence/withParsing(_:_:)``): it points into the caller's buffer or the framer's own. Decode it there, or copy
/// what you need out of it. Decoded types such as ``RMC`` and ``GGA`` hold no pointers and may be kept.
///
///     $GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A
///     ^start ^address                                                    ^ checksum (not part of `bytes`)
public struct Sentence {
    /// From the start character (`$` or `!`) up to the last byte before `*`; no checksum, no line ending.
    public let bytes: UnsafeRawBufferPointer
    /// The talker (`GP`), or ``Talker/proprietary``.
    public let talker: Talker
    /// The type (`RMC`), or the whole address of a proprietary sentence (`PUBX`).
    public let type: SentenceType
    /// The checksum the sentence carried, or `nil` when it had none and the framer accepted that.
    public let checksum: UInt8?
    /// The input line the sentence was on (1 for the first), or 0 when it did not come from a ``Framer``.
    public let line: Int
    /// Offset in `bytes` of the first field after the address; `bytes.count + 1` when the address stands alone.
    @usableFromInline let fieldsOffset: Int
    /// `true` when the byte just past `bytes` may be read and ends every field: the `*` of the checksum, or a line
    /// ending or other stop byte (never a digit, a point, a sign, a letter or a comma). The framer guarantees it for
    /// every sentence it hands out; decoders then read digits without checking for the end on every byte.
    @usableFromInline let isTerminated: Bool
    /// When the sentence was received, in milliseconds since 1970-01-01 UTC, where the log says: a TAG block's `c:`
    /// (`\c:1699400577561*hh\$GPGGA,…`), a leading Unix timestamp (`1699400577.561 $GPGGA,…`), or the Unix-time
    /// field after the checksum of an Android GnssLogger line (`NMEA,$GPGGA,…*63,1699400577561`). `nil` otherwise.
    /// ``FixReader`` hands it on in ``FixReader/Context/receivedMilliseconds``.
    public internal(set) var receivedMilliseconds: Int64? = nil
    /// The TAG block's group (`\g:1-2-1234*hh\!AIVDM,…`): the sentences of one message, as a shore network marks
    /// them. `nil` otherwise.
    public internal(set) var tagGroup: TagGroup? = nil

    /// Makes a view of `bytes`, which must start with `$` or `!` and end before any `*hh`.
    ///
    /// The framer calls this after checking the checksum; call it yourself only for bytes you have checked.
    /// - Throws: ``NMEAError/badAddress`` when the address field is empty.
    public init(unchecked bytes: UnsafeRawBufferPointer, checksum: UInt8?, line: Int = 0) throws(NMEAError) {
        guard bytes.count >= 2, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw .badAddress
        }
        var addressEnd = 1
        while addressEnd < bytes.count && base[addressEnd] != UInt8(ascii: ",") { addressEnd += 1 }
        let addressLength = addressEnd - 1
        guard addressLength >= 1 else { throw .badAddress }
        let address = base + 1
        if address[0] == UInt8(ascii: "P") && !Sentence.isStandard(address: address, length: addressLength) {
            talker = .proprietary
            type = SentenceType(bytes: address, count: addressLength)
        } else {
            talker = Talker(address[0], addressLength > 1 ? address[1] : 0)
            type =
                addressLength > 2
                ? SentenceType(bytes: address + 2, count: addressLength - 2) : SentenceType(rawValue: 0)
        }
        self.bytes = bytes
        self.checksum = checksum
        self.line = line
        fieldsOffset = addressEnd + 1
        isTerminated = false
    }

    /// A view made by the framer, whose bytes are followed by a readable stop byte (see ``isTerminated``).
    init(terminated bytes: UnsafeRawBufferPointer, checksum: UInt8?, line: Int) throws(NMEAError) {
        let sentence = try Sentence(unchecked: bytes, checksum: checksum, line: line)
        self.init(
            bytes: bytes, talker: sentence.talker, type: sentence.type, checksum: checksum, line: line,
            fieldsOffset: sentence.fieldsOffset, isTerminated: true)
    }

    /// The framer's fast path: reads a short address (three to seven characters, then a comma, not proprietary)
    /// from one 8-byte load. `nil` for anything else, which takes ``init(unchecked:checksum:line:)``.
    ///
    /// `start` must have at least 9 readable bytes (a sentence with `*hh` always has them), and `start[count]` must be
    /// the `*` of the checksum.
    @inline(__always)
    init?(framed start: UnsafePointer<UInt8>, count: Int, checksum: UInt8?, line: Int) {
        let bytes = UnsafeRawBufferPointer(start: start, count: count)
        let word = UInt64(littleEndian: UnsafeRawPointer(start + 1).loadUnaligned(as: UInt64.self))
        let commas = ByteScan.zeroBytes(word ^ (UInt64(UInt8(ascii: ",")) &* ByteScan.ones))
        let addressLength = commas.trailingZeroBitCount >> 3
        let first = UInt8(truncatingIfNeeded: word)
        guard addressLength >= 3, addressLength < 8, addressLength + 1 < count, first != UInt8(ascii: "P") else {
            return nil
        }
        let typeBits = UInt64(addressLength - 2) * 8
        self.init(
            bytes: bytes, talker: Talker(rawValue: UInt16(truncatingIfNeeded: word)),
            type: SentenceType(rawValue: (word >> 16) & ((1 << typeBits) - 1)), checksum: checksum, line: line,
            fieldsOffset: addressLength + 2, isTerminated: true)
    }

    @inline(__always)
    private init(
        bytes: UnsafeRawBufferPointer, talker: Talker, type: SentenceType, checksum: UInt8?, line: Int,
        fieldsOffset: Int, isTerminated: Bool
    ) {
        self.bytes = bytes
        self.talker = talker
        self.type = type
        self.checksum = checksum
        self.line = line
        self.fieldsOffset = fieldsOffset
        self.isTerminated = isTerminated
    }

    /// `true` for a `P`-talker address that is really a standard sentence (`PQGSA` from Quectel receivers).
    /// Only the `PQ` talker qualifies: Garmin's proprietary `$PGRMC` must not pass for an RMC.
    static func isStandard(address: UnsafePointer<UInt8>, length: Int) -> Bool {
        guard length == 5, address[1] == UInt8(ascii: "Q") else { return false }
        switch SentenceType(bytes: address + 2, count: 3) {
        case .gsa, .gsv, .rmc, .gga, .gll, .vtg, .zda, .gns, .gst: return true
        default: return false
        }
    }

    /// `true` when the sentence starts with `!` (AIS and other encapsulated data).
    public var isEncapsulated: Bool { bytes[0] == UInt8(ascii: "!") }

    /// The address field: `GPRMC` for `$GPRMC,…`.
    public var address: Field {
        Field(UnsafeRawBufferPointer(rebasing: bytes[1..<(fieldsOffset - 1)]))
    }

    /// The type as sent, every letter of it: `RMC`, or the whole address of a proprietary sentence (`PINVMSLOPE`).
    /// ``type`` packs the first eight letters, which is what dispatch and comparisons need; this view keeps the rest.
    public var typeName: Field {
        let address = self.address.bytes
        let skipped = talker == .proprietary ? 0 : Swift.min(2, address.count)
        return Field(UnsafeRawBufferPointer(rebasing: address[skipped...]))
    }

    /// A reader positioned at the first field after the address.
    @inlinable @inline(__always)
    public var fieldReader: FieldReader { FieldReader(self) }

    /// The fields after the address, in order.
    public var fields: [Field] {
        var reader = fieldReader
        var result: [Field] = []
        while let field = reader.nextField() { result.append(field) }
        return result
    }

    /// The number of fields after the address (commas + 1, or 0 when the address stands alone).
    public var fieldCount: Int {
        if fieldsOffset > bytes.count { return 0 }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return 1 + ByteScan.count(UInt8(ascii: ","), from: base + fieldsOffset, to: base + bytes.count)
    }

    /// The field at `index`, counting from 1 for the first field after the address as field diagrams do;
    /// `nil` past the last field.
    /// - Complexity: O(*n*) in the length of the sentence.
    public func field(_ index: Int) -> Field? {
        guard index >= 1 else { return nil }
        var reader = fieldReader
        for _ in 1..<index where reader.nextField() == nil { return nil }
        return reader.nextField()
    }
}

extension Sentence {
    /// Checks one line of NMEA (with or without its line ending) and calls `body` with the sentence.
    ///
    ///     let rmc = try Sentence.withParsing("$GPRMC,…*6A") { sentence throws(NMEAError) in try RMC(sentence) }
    ///
    /// - Throws: the framer's error for the line (``NMEAError/checksumMismatch(calculated:found:)``…), or
    ///   whatever `body` throws.
    public static func withParsing<R>(
        _ line: some StringProtocol, checksumPolicy: Framer.ChecksumPolicy = .required,
        _ body: (Sentence) throws(NMEAError) -> R
    ) throws(NMEAError) -> R {
        var text = String(line)
        let outcome = text.withUTF8 { buffer -> Result<R, NMEAError> in
            do throws(NMEAError) {
                return .success(
                    try withParsing(bytes: UnsafeRawBufferPointer(buffer), checksumPolicy: checksumPolicy, body))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Frames `bytes`, one line, and calls `body` with its sentence; as ``withParsing(_:checksumPolicy:_:)``.
    /// - Throws: the framer's rejection of the line (``NMEAError/truncated`` when there is no sentence), or what
    ///   `body` throws.
    public static func withParsing<R>(
        bytes: UnsafeRawBufferPointer, checksumPolicy: Framer.ChecksumPolicy = .required,
        _ body: (Sentence) throws(NMEAError) -> R
    ) throws(NMEAError) -> R {
        var framer = Framer(maximumLength: max(bytes.count, 8), checksumPolicy: checksumPolicy)
        var outcome: Result<R, NMEAError>?
        let events: (FramerEvent) -> Void = { event in
            guard outcome == nil else { return }
            switch event {
            case .sentence(let sentence):
                do throws(NMEAError) { outcome = .success(try body(sentence)) } catch { outcome = .failure(error) }
            case .rejected(let rejection):
                outcome = .failure(rejection.error)
            case .binaryFrame:
                break  // not a sentence: the outcome stays "truncated" unless a sentence follows
            }
        }
        framer.feed(bytes, events)
        framer.finish(events)
        return try (outcome ?? .failure(.truncated)).get()
    }
}
