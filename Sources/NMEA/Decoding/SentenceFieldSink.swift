/// Receives the named values of a decoded sentence, in order, from ``DecodableSentence/describe(to:)``.
///
/// Each type of sentence names its fields once, in its own file; a sink turns them into an output. `nmea parse`
/// writes its JSON through one (`JSONWriter` in the JSON module):
///
///     struct Names: SentenceFieldSink {
///         var names: [String] = []
///         mutating func field(_ name: StaticString, _ value: FixedPoint?) { names.append("\(name)") }
///         …
///     }
///     rmc.describe(to: &names)
///
/// A value that is `nil` is absent from the sentence; a sink usually leaves it out. Lists (the satellites of a GSV)
/// come between ``beginList(_:)`` and ``endList()``: as plain ``element(_:)-swift.method`` values, or as groups of
/// named fields between ``beginGroup()`` and ``endGroup()``.
public protocol SentenceFieldSink {
    /// A decimal value, exactly as sent.
    mutating func field(_ name: StaticString, _ value: FixedPoint?)
    /// A whole number.
    mutating func field(_ name: StaticString, _ value: Int?)
    /// A flag.
    mutating func field(_ name: StaticString, _ value: Bool?)
    /// A UTC time of day.
    mutating func field(_ name: StaticString, _ value: UTCTime?)
    /// A UTC date.
    mutating func field(_ name: StaticString, _ value: UTCDate?)
    /// A one-character field: a status, a mode, a unit.
    mutating func field(_ name: StaticString, letter: UInt8?)
    /// Several one-character values written together (GNS's mode per system, `DAAA`).
    mutating func field(_ name: StaticString, letters: some Sequence<UInt8>)
    /// A short code such as a datum (`W84`).
    mutating func field(_ name: StaticString, code: ShortCode)
    /// Free text.
    mutating func field(_ name: StaticString, text: ShortText)

    /// Starts a list named `name`.
    mutating func beginList(_ name: StaticString)
    /// Ends the list begun last.
    mutating func endList()
    /// Starts one element of a list that has named fields of its own.
    mutating func beginGroup()
    /// Ends the element begun last.
    mutating func endGroup()
    /// One number in a list; `nil` for an empty slot.
    mutating func element(_ value: FixedPoint?)
    /// One whole number in a list.
    mutating func element(_ value: Int)
    /// A text element of a list (a route's waypoint identifiers).
    mutating func element(letters: some Sequence<UInt8>)
}

extension SentenceFieldSink {
    /// By default, a group with one field, `id`.
    public mutating func element(letters: some Sequence<UInt8>) {
        beginGroup()
        field("id", letters: letters)
        endGroup()
    }
}
