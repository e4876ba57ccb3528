/// One field of a sentence: a borrowed view of its bytes, valid only as long as the ``Sentence`` it came from.
public struct Field {
    /// The field's bytes, without the separating commas.
    public let bytes: UnsafeRawBufferPointer

    /// A view of `bytes`, one field without its comma.
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// `true` for an empty field, which NMEA uses for "not available".
    @inlinable
    public var isEmpty: Bool { bytes.isEmpty }

    /// The field as text (a copy).
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}

extension Field: CustomStringConvertible {
    /// A readable form, for messages and tests.
    public var description: String { string }
}
