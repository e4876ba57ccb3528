extension String {
    /// The text of the bytes `write` hands over one at a time, each as the Unicode scalar of its value: how the
    /// values that write themselves (``UTCTime``, ``UTCDate``, ``FixedPoint``, ``Talker``…) make their descriptions.
    init(writing write: ((UInt8) -> Void) -> Void) {
        var text = ""
        write { text.unicodeScalars.append(Unicode.Scalar($0)) }
        self = text
    }
}
