/// The fields of one sentence that did not read, each as ``NMEAError/badField(index:reason:)``, in field order.
///
/// A decoder keeps every field that reads and leaves a bad one absent (`nil`): a wrong letter, a number that is no
/// number, a time out of range never cost the sentence its other fields. This records what was left out, so that
/// it is reported, never silent. The first ``capacity`` errors are kept (stored inline: no allocation); ``count``
/// counts them all.
///
///     var errors = FieldErrors()
///     let ths = try THS(sentence, fieldErrors: &errors)   // $GPTHS,77.52,B: heading 77.52, mode nil
///     errors.first                                        // .badField(index: 2, reason: .unexpectedCharacter)
public struct FieldErrors: Hashable, Sendable, Sequence {
    /// The most errors kept; more are counted.
    public static let capacity = 4

    /// Each kept error packed as its field index (high bits) and reason (low byte).
    private var packed: InlineArray<4, UInt32> = InlineArray(repeating: 0)
    /// Every error recorded, kept or not.
    public private(set) var count = 0

    /// No errors.
    public init() {}

    /// `true` when every field read.
    @inlinable public var isEmpty: Bool { count == 0 }

    /// The first bad field.
    @inlinable public var first: NMEAError? { isEmpty ? nil : firstKept }

    /// The first error kept, unpacked (out of line: a decoder's fast path only tests ``isEmpty``).
    @usableFromInline var firstKept: NMEAError { FieldErrors.unpack(packed[0]) }

    /// Records that field `index` (from 1, as in field diagrams) did not read, for `reason`.
    public mutating func append(index: Int, reason: FieldError) {
        if count < FieldErrors.capacity {
            packed[count] = UInt32(truncatingIfNeeded: Swift.min(index, 0xFF_FFFF)) << 8 | UInt32(reason.rawValue)
        }
        count += 1
    }

    /// Records `other`'s errors with their field numbers moved by `offset` (for a reader over a copy of a field).
    @usableFromInline
    mutating func append(_ other: FieldErrors, offset: Int) {
        for error in other {
            if case .badField(let index, let reason) = error { append(index: index + offset, reason: reason) }
        }
        count += other.count - Swift.min(other.count, FieldErrors.capacity)
    }

    /// The errors kept, in field order.
    public func makeIterator() -> Iterator { Iterator(errors: self) }

    /// The kept errors, in field order.
    public struct Iterator: IteratorProtocol {
        let errors: FieldErrors
        var position = 0

        /// The next error, or `nil` after the last.
        public mutating func next() -> NMEAError? {
            guard position < Swift.min(errors.count, FieldErrors.capacity) else { return nil }
            defer { position += 1 }
            return FieldErrors.unpack(errors.packed[position])
        }
    }

    static func unpack(_ value: UInt32) -> NMEAError {
        .badField(index: Int(value >> 8), reason: FieldError(rawValue: UInt8(value & 0xFF)) ?? .notANumber)
    }

    /// Equal when every value is.
    public static func == (lhs: FieldErrors, rhs: FieldErrors) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Hashes the values ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for error in self { hasher.combine(error) }
    }
}

extension FieldErrors: CustomStringConvertible {
    /// `field 2: unexpected character; field 7: not a number`.
    public var description: String {
        var parts = map { $0.description }
        if count > FieldErrors.capacity { parts.append("\(count - FieldErrors.capacity) more") }
        return parts.joined(separator: "; ")
    }
}
