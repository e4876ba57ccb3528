/// MediaTek `$PMTK001`, acknowledgement: the receiver's answer to a `$PMTK` command (MediaTek chips and the modules
/// built on them: GlobalTop, Quectel L70/L80, Adafruit…).
///
///     $PMTK001,604,3*32
///
///              1   2
///     $PMTK001,xxx,x*hh
///
/// 1. The command (packet type) acknowledged, `604` for `$PMTK604`
/// 2. Flag: `0` invalid command, `1` unsupported command, `2` valid command but the action failed, `3` valid
///    command and the action succeeded
///
/// Some firmware adds fields after the flag; they are not read.
public struct PMTK001: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .proprietary(.pmtk001) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$PMTK001,604,3*32"
    }
    /// ``Talker/proprietary``: the address names the maker.
    public var talker: Talker { .proprietary }

    public var command: Int?
    /// 0 invalid, 1 unsupported, 2 failed, 3 succeeded.
    public var flag: Int?

    public init(command: Int?, flag: Int?) {
        self.command = command
        self.flag = flag
    }

    /// `true` for flag 3.
    public var succeeded: Bool { flag == 3 }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        command = fields.integer(in: 0...999)
        flag = fields.integer(in: 0...3)
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("command", command)
        sink.field("flag", flag)
    }
}
