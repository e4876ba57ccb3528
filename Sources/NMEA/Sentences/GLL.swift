/// GLL, geographic position: latitude, longitude, time and status.
///
///     $GPGLL,4916.45,N,12311.12,W,225444,A,*1D
///
///            1       2 3        4 5         6 7
///     $--GLL,ddmm.mm,a,dddmm.mm,a,hhmmss.ss,A,a*hh
///
/// 1. 2. Latitude, `N`/`S`
/// 3. 4. Longitude, `E`/`W`
/// 5. UTC time
/// 6. Status: `A` valid, `V` not valid
/// 7. FAA mode indicator (NMEA 2.3 and later)
public struct GLL: DecodableSentence, Hashable {
    public static var sentenceType: SentenceType { .gll }

    public var talker: Talker
    /// Decimal degrees, negative south.
    public var latitude: FixedPoint?
    /// Decimal degrees, negative west.
    public var longitude: FixedPoint?
    public var time: UTCTime?
    /// `true` for status `A`.
    public var isValid: Bool
    public var mode: FAAMode?

    public init(
        talker: Talker = .gps, latitude: FixedPoint?, longitude: FixedPoint?, time: UTCTime?, isValid: Bool,
        mode: FAAMode? = nil
    ) {
        self.talker = talker
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.isValid = isValid
        self.mode = mode
    }

    @inline(__always)
    public init(_ sentence: Sentence) throws(NMEAError) {
        // Fast path for the usual forms, up to the stop byte the framer guarantees after the sentence; anything
        // else is read the careful way below, which gives the same values and the exact errors.
        fast: if sentence.isTerminated {
            var fields = TerminatedFieldReader(sentence)
            guard let latitude = fields.latitude(), let longitude = fields.longitude(), !fields.pastEnd,
                  let time = fields.time(), let status = fields.character()
            else { break fast }
            let isValid: Bool
            switch status {
            case UInt8(ascii: "A"): isValid = true
            case UInt8(ascii: "V"): isValid = false
            case nil: isValid = fields.pastEnd && latitude != nil  // NMEA 1.5 sends only the position: valid
            default: break fast
            }
            guard let mode = fields.character() else { break fast }
            self.isValid = isValid
            talker = sentence.talker
            self.latitude = latitude
            self.longitude = longitude
            self.time = time
            self.mode = mode.map(FAAMode.init(rawValue:))
            return
        }
        self = try GLL(carefully: sentence)
    }

    /// Decodes any form, field by field, with exact errors.
    init(carefully sentence: Sentence) throws(NMEAError) {
        var fields = sentence.fieldReader
        talker = sentence.talker
        latitude = try fields.latitude()
        longitude = try fields.longitude()
        time = try fields.time()
        switch try fields.character() {
        case UInt8(ascii: "A"): isValid = true
        case UInt8(ascii: "V"): isValid = false
        case nil: isValid = fields.ranPastEnd && latitude != nil  // NMEA 1.5 sends only the position: valid
        default: throw .badField(index: 6, reason: .unexpectedCharacter)
        }
        mode = try fields.character().map(FAAMode.init(rawValue:))
        try fields.requireRead(4)
    }
}
