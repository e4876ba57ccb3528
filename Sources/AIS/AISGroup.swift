/// A repeated group of fields in a binary application: gpsd's arrays (the waypoints of a route, the cargos of a
/// dangerous cargo indication, the tidal windows, the VTS targets). Each element is a table of fields whose starts
/// are relative to the element's first bit; an element's bits past the message's end read as zeros, as gpsd reads
/// them. Tables hold groups (``AISField/Kind/group(_:)``), each listed once in ``AISLayout/groups``; nothing is made
/// when a message is read.
public final class AISGroup: Sendable {
    /// How many elements a message has.
    public enum Count: Sendable {
        /// As many as the unsigned number of `width` bits at `start` says (a route's waypoint count).
        case counted(start: Int, width: Int)
        /// Every element that starts before the message's end (the last may be cut short).
        case startingBeforeEnd
        /// Every element that starts at or before the message's end (so the last may lie wholly past it, all
        /// zeros: gpsd's loops over tidal windows and VTS targets).
        case startingAtOrBeforeEnd
    }

    /// The bits of one element.
    public let stride: Int
    /// How many elements a message has.
    public let count: Count
    /// The fields of an element; with a selector, one table per value of the selector (the last for larger ones).
    let layouts: [[AISField]]
    /// The bits of an element that choose its table (start within the element, and width; 0 for one table).
    let selectorStart: Int
    let selectorWidth: Int

    /// A group of elements of `stride` bits, each laid out as `fields`.
    init(stride: Int, count: Count, _ fields: [AISField]) {
        (self.stride, self.count, layouts, selectorStart, selectorWidth) = (stride, count, [fields], 0, 0)
    }

    /// A group whose elements are laid out as `layouts[selector]`, `selector` being the element's `width` bits at
    /// `start` (a VTS target's identifier: an MMSI, an IMO number, a call sign or other text).
    init(stride: Int, count: Count, selector start: Int, width: Int, _ layouts: [[AISField]]) {
        (self.stride, self.count, self.layouts, selectorStart, selectorWidth) = (stride, count, layouts, start, width)
    }
}

extension AISBitReader {
    /// The number of elements of a group field in this message.
    func elementCount(_ field: AISField) -> Int {
        guard let group = field.group else { return 0 }
        let count: Int
        switch group.count {
        case .counted(let start, let width):
            count = Int(paddedUnsigned(start, width))
        case .startingBeforeEnd:
            count = bitCount > field.start ? (bitCount - field.start + group.stride - 1) / group.stride : 0
        case .startingAtOrBeforeEnd:
            count = bitCount >= field.start ? (bitCount - field.start) / group.stride + 1 : 0
        }
        return count
    }

    /// Calls `body` with each field of element `element` of a group field, its start made absolute.
    func forEachField(of field: AISField, element: Int, _ body: (AISField) throws -> Void) rethrows {
        guard let group = field.group else { return }
        let base = field.start + element * group.stride
        var layout = 0
        if group.selectorWidth > 0 {
            layout = min(Int(paddedUnsigned(base + group.selectorStart, group.selectorWidth)), group.layouts.count - 1)
        }
        try group.layouts[layout].withUnsafeBufferPointer { fields in
            for index in 0..<fields.count { try body(AISField(element: fields[index], offset: base)) }
        }
    }
}

extension AISMessage {
    /// Calls `body` with each field of element `element` (0 up to the count in ``AISValue/group(count:)``) of a
    /// group field, its start made absolute. Read its values with ``value(_:)``.
    public func forEachField(of group: AISField, element: Int, _ body: (AISField) throws -> Void) rethrows {
        try payload.withBits { bits in try bits.forEachField(of: group, element: element, body) }
    }

    /// Calls `body` with each field of element `element` of a group field and its value, as
    /// ``forEachValue(raw:_:)`` gives them.
    public func forEachValue(
        of group: AISField, element: Int, raw: Bool = false, _ body: (AISField, AISValue?) throws -> Void
    ) rethrows {
        try payload.withBits { bits in
            try bits.forEachField(of: group, element: element) { field in
                try body(field, raw ? bits.rawValue(field) : bits.value(field))
            }
        }
    }
}
