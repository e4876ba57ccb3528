/// RTE, the waypoints of a route, in one or more sentences.
///
///     $GPRTE,2,1,c,0,PBRCPK,PBRTO,PTELGR,PPLAND,PYAMBU,PPFAIR,PWARRN,PMORTL,PLISMR*73
///
///            1 2 3 4    5    6    n
///     $--RTE,x,x,a,c--c,c--c,c--c,…,c--c*hh
///
/// 1. Number of sentences in this route message
/// 2. This sentence's number, from 1
/// 3. Mode: `c` complete route (every waypoint), `w` working route (the first is the one last left, the second the
///    one steered to, then the rest)
/// 4. Route identifier
/// 5. … Waypoint identifiers, in order (up to ``capacity`` kept per sentence, in 128 bytes of names)
public struct RTE: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.rte) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$GPRTE,2,1,c,0,PBRCPK,PBRTO,PTELGR,PPLAND,PYAMBU,PPFAIR,PWARRN,PMORTL,PLISMR*73"
    }

    /// The most waypoints kept from one sentence (an 82-character sentence holds at most 38 one-letter ones).
    public static let capacity = 40

    /// Who sent the sentence.
    public var talker: Talker
    public var sentenceCount: Int?
    public var sentenceNumber: Int?
    /// `true` for a complete route (`c`), `false` for a working route (`w`).
    public var isComplete: Bool?
    public var routeID: WaypointID
    /// Packed in 128 bytes: a standard 82-character sentence's names always fit; a longer one keeps those that do.
    public var waypoints: WaypointIDList<128, 40>

    /// A value with the given fields, for tests and for writing sentences.
    public init(
        talker: Talker = .gps, sentenceCount: Int?, sentenceNumber: Int?, isComplete: Bool?, routeID: WaypointID,
        waypoints: [WaypointID]
    ) {
        self.talker = talker
        self.sentenceCount = sentenceCount
        self.sentenceNumber = sentenceNumber
        self.isComplete = isComplete
        self.routeID = routeID
        self.waypoints = WaypointIDList()
        for waypoint in waypoints where !self.waypoints.append(waypoint) { break }
    }

    /// `true` for the last sentence of its message.
    public var isLast: Bool { sentenceNumber != nil && sentenceNumber == sentenceCount }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        sentenceCount = fields.integer(in: 1...99)
        sentenceNumber = fields.integer(in: 1...99)
        isComplete = fields.letter(in: "cwCW").map { $0 | 0x20 == UInt8(ascii: "c") }
        routeID = fields.waypointID()
        waypoints = WaypointIDList()
        while fields.hasMore && waypoints.count < RTE.capacity {
            let waypoint = fields.waypointID()
            if !waypoint.isEmpty && !waypoints.append(waypoint) { break }
        }
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.field("sentences", sentenceCount)
        sink.field("sentence", sentenceNumber)
        sink.field("complete", isComplete)
        sink.field("route", letters: routeID.bytes)
        sink.beginList("waypoints")
        for waypoint in waypoints { sink.element(letters: waypoint.bytes) }
        sink.endList()
    }
}
