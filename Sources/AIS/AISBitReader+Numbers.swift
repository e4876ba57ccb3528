/// The readings of a number field that both ``AISBitReader/value(_:)`` and the typed reports make.
extension AISBitReader {
    /// A one-bit flag (`false` when not sent).
    @_transparent
    func flag(_ field: AISField) -> Bool { integer(field) != 0 }

    /// A number field's raw value, or `nil` when not sent (past the message's end) or "not available": the one test
    /// both ``value(_:)`` and the typed reports make.
    @_transparent
    func available(_ field: AISField) -> Int? {
        guard field.readsPastEnd || field.start + field.width <= bitCount else { return nil }
        let raw = integer(field)
        return raw == field.notAvailable ? nil : raw
    }

    /// A number field in units: `raw × scale`, or for the rate of turn `(raw / 4.733)²` with its sign (-128 is not
    /// available).
    @_transparent
    func number(_ field: AISField) -> Double? {
        if field.code == .rateOfTurn { return rateOfTurn(field) }
        guard let raw = available(field) else { return nil }
        return field.scale == 1 ? Double(raw) : Double(raw) * field.scale
    }

    /// The rate of turn in degrees per minute, `nil` for -128 (not available).
    @_transparent
    func rateOfTurn(_ field: AISField) -> Double? {
        let raw = integer(field)
        if raw == -128 { return nil }
        let rate = Double(raw) / 4.733
        return raw < 0 ? -(rate * rate) : rate * rate
    }
}
