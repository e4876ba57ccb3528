/// Ashtech (Magellan, Spectra) `$PASHR,LTN`, latency: how long the receiver took from the time tag of its measurement
/// to having the position ready to send.
///
///     $PASHR,LTN,29*05
///
///           1   2
///     $PASHR,LTN,d*hh
///
/// 1. Message ID `LTN`
/// 2. Latency, milliseconds (20–40 typically; up to 10,000 in time-tagged RTK, where it includes the corrections'
///    time on the data link)
///
/// The layout is the Ashtech G12 and DG14/DG16 reference manuals' (`$PASHR,LTN,d1*hh`, whose example is the sample)
/// and the ProFlex 800 and HDS800 reference manuals' ("LTN: Latency"; their example `$PASHR,LTN,60*2C` has a wrong
/// checksum: `*08`). pynmea2 and pynmeagps read the one field alike, pynmea2 as a whole number and pynmeagps as a
/// decimal: it is kept as sent, so a fraction some receiver might send is not lost. (Both name this message
/// `ASHRLTN`, the address without its `P` and the message ID: no receiver sends a `$PASHR,RLTN`.) A negative latency
/// is an ``FieldError/outOfRange`` error.
public struct PASHRLTN: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pashr, messageID: "L", "T", "N") }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PASHR,LTN,29*05"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var latencyMilliseconds: FixedPoint?

    public init(latencyMilliseconds: FixedPoint?) {
        self.latencyMilliseconds = latencyMilliseconds
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        try fields.expectMessage(of: Self.address)
        let start = fields.position
        latencyMilliseconds = fields.fixedPoint()
        if let latency = latencyMilliseconds, latency.significand < 0 {
            fields.reject(.outOfRange, fieldAt: start)
            latencyMilliseconds = nil
        }
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("latency_ms", latencyMilliseconds)
    }
}
