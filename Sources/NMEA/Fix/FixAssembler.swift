/// Merges the sentences of each epoch into one ``Fix``.
///
///     var assembler = FixAssembler()
///     try framer.feed(bytes) { event in
///         guard case .sentence(let sentence) = event, let parsed = try? ParsedSentence(sentence) else { return }
///         assembler.add(parsed) { fix in … }
///     }
///     assembler.finish { fix in … }
///
/// When nothing else needs the ``ParsedSentence``, `try assembler.add(sentence) { fix in … }` decodes the sentence
/// in place and is faster (no enum is built and copied). ``FixReader`` runs framer, decoders and assembler as one
/// stream; use the assembler alone when the sentences come from elsewhere.
///
/// **Epochs.** A sentence whose time differs from the epoch's closes the epoch. The assembler also learns, as gpsd
/// does, which sentence ends each cycle of this receiver (for example the last part of `$GLGSV`, or `$GNGLL`): once
/// the same sentence has ended two cycles in a row (one, the first time, for live displays:
/// ``Options/provisionalPositions``), the epoch is handed out the moment it arrives, not one epoch late when the
/// next begins. A sentence that came before in the same epoch (a compass's heading ten times a second, multiplexed
/// with a 1 Hz receiver) teaches nothing: the end of a cycle comes once. If data for an epoch arrives after it was
/// handed out, the lesson is forgotten and learned again, from two cycles. Receivers that send no RMC, or only GGA,
/// give fixes all the same. An epoch only becomes a fix once a sentence that reports the fix (RMC, GGA, GNS, GLL,
/// `$PUBX,00`: a position, or that there is none) is in it: a ZDA, `$PUBX,04` or GST stamped with a time of its own
/// (the whole second before a GGA at `.379`, or seconds ahead of it) moves with the epoch to the fix's time instead
/// of becoming a position-less fix that cuts the track.
///
/// **Time.** The date comes from RMC (valid ones only) or ZDA (whose four-digit year also fixes the century of RMC's
/// two-digit one). Date-less sentences with a receive time (``noteReceiveTime(_:)``) take the day it puts them on;
/// others take the last known date and roll over at midnight. With no date at all,
/// ``Options/fallbackDate`` is used; failing that, fixes are held (up to ``Options/backfillLimit``) until a date
/// arrives and then back-filled, as GPSBabel does. Dates 1024 weeks in the past — GPS week-number rollover bugs — are
/// corrected and counted.
///
/// **Validity.** RMC status `V`, GGA quality 0, GLL `V` and GNS mode `N` never give a position: such epochs become
/// fixes with ``FixMode/none``, never a position at 0,0 or the previous position again.
///
/// **Attitude and a second antenna.** Attitude sentences (`$PASHR`, `$PTNL,AVR`, `$PRDID`, `$PFEC,GPatt`) give the
/// epoch in progress a true heading, pitch and roll, as HDT gives a heading, without opening epochs of their own. A
/// dual-antenna receiver's sentences about its secondary antenna (`GGAH`, `RMCH`…: ``SecondaryAntenna``) stand in
/// for the standard types only while it sends none of those.
public struct FixAssembler: Sendable {
    /// How the assembler dates, holds and hands out fixes.
    public struct Options: Sendable {
        /// The date for logs that never send one (GGA-only): the day of the first fix; midnight rolls it over.
        public var fallbackDate: UTCDate?
        /// Today, for a live receiver: a date about 1024 weeks before it is a week-rollover bug. Without it only
        /// dates in the 20 weeks after a GPS epoch began (1980-01-06, 1999-08-22), where receivers land after a
        /// rollover and genuine logs hardly exist, and dates 1024 weeks before one seen earlier in the stream are
        /// corrected, so genuine old logs stay as they are.
        public var referenceDate: UTCDate?
        /// How many fixes to hold while waiting for a first date. Beyond that they are handed out without one.
        public var backfillLimit: Int
        /// Hand out the first position, and each epoch's for as long as the end of the receiver's cycle is not known
        /// (the first epoch, whose end teaches it, and any after the cycle changed), as soon as it is decoded, before
        /// the epoch is complete, marked ``Fix/isProvisional`` (the complete fix follows). Once it is known, each
        /// epoch's complete fix comes out at its last sentence, and nothing is provisional. For live displays:
        /// position at once, then every epoch at its end, the second one's included (the cycle's end is learned
        /// from the first epoch, not two; after a late sentence showed it wrong, from two).
        public var provisionalPositions: Bool

        /// Options with the given values; the defaults suit a log read from a file.
        public init(
            fallbackDate: UTCDate? = nil, referenceDate: UTCDate? = nil, backfillLimit: Int = 10_000,
            provisionalPositions: Bool = false
        ) {
            self.fallbackDate = fallbackDate
            self.referenceDate = referenceDate
            self.backfillLimit = backfillLimit
            self.provisionalPositions = provisionalPositions
        }
    }

    /// What the assembler has done.
    public struct Statistics: Sendable, Hashable {
        /// Fixes handed out, with or without a position (provisional ones not counted).
        public var fixes = 0
        /// Of those, fixes without a position.
        public var fixesWithoutPosition = 0
        /// Provisional first fixes handed out.
        public var provisionalFixes = 0
        /// Dates corrected for a GPS week rollover.
        public var weekRolloverCorrections = 0
        /// Fixes that were held until a date arrived and then given it.
        public var backfilledFixes = 0
        /// Fixes handed out with no date (none ever arrived, or too many were waiting).
        public var undatedFixes = 0
        /// Sentences that arrived for an epoch already handed out (their data is not in any fix).
        public var lateSentences = 0
        /// Epochs handed out the moment their learned last sentence arrived.
        public var epochsClosedByCycleEnd = 0
        /// All counts zero.
        public init() {}
    }

    /// The options it was made with.
    public let options: Options
    /// What it has done so far.
    public internal(set) var statistics = Statistics()
    /// The sentence learned to end each cycle, once learned.
    public internal(set) var cycleEnd: SentenceSignature?

    var epoch = EpochBuilder()
    /// The time of the epoch last handed out (to recognise late sentences).
    var closedTime: UTCTime?
    /// The date the next date-less epoch gets, and the time of the last dated epoch (to see midnight pass).
    var currentDate: UTCDate?
    var lastEpochTime: UTCTime?
    /// The century ZDA reported (2000), used for RMC's two-digit years.
    var century: Int?
    /// The last date that needed no correction, for spotting a jump back by 1024 weeks.
    var lastGoodDate: UTCDate?
    /// The fix being handed out, built in place (see ``build(date:)``); between epochs it keeps the last sky.
    var output = Fix()
    var candidateEnd: SentenceSignature?
    var candidateCount = 0
    /// A learned cycle end was shown wrong by a late sentence: the cycle's end is learned from two epochs again.
    var cycleEndWasWrong = false
    var waitingForDate: [Fix] = []
    /// The dimension of the last fix that had a position, for epochs that do not say.
    var lastMode: FixMode?
    /// A provisional position went out (``Options/provisionalPositions``).
    var firstPositionPublished = false
    /// The first sentence of the epoch last handed out.
    var closedFirstSignature: SentenceSignature?
    /// The fixes completed by the sentence being added, handed out after it by ``handOut(_:)``, before a queued
    /// ``output``: only when one sentence completes several (held fixes released by a date, a provisional fix
    /// behind a closed one). Empty between calls; the storage is kept.
    var completedFixes: [Fix] = []
    /// ``output`` holds the last fix the sentence being added completed (see ``queueOutput()``).
    var outputIsQueued = false
    /// The standard types with a secondary-antenna variant that the receiver has sent (see ``SecondaryAntenna``).
    var primaryTypes = PrimaryTypes()
    /// The receive time of the latest sentence that had one (milliseconds since 1970), for epochs without a date of
    /// their own (see ``noteReceiveTime(_:)``); forgotten with each new input.
    var latestReceived: Int64?
    /// GPS time minus UTC, seconds, once a binary message gave it (see ``add(_:_:)-(EpochReport,_)``).
    var leapSeconds: Int?
    /// The GPS week a binary message gave, with the time of week it came with (to follow the week over).
    var gpsWeek: (week: Int, timeOfWeek: Int64)?
    /// When the sentence being added began to arrive, on the system clock in nanoseconds (``FixReader`` sets it
    /// when told its read times); the epoch it opens keeps it as ``Fix/receivedNanoseconds``.
    public var sentenceReceivedNanoseconds: Int64?

    /// An assembler with no epoch in progress.
    public init(options: Options = Options()) {
        self.options = options
        currentDate = options.fallbackDate
    }

    /// Adds one decoded sentence; calls `emit` with each fix this completes (none, one, or — when a date arrives
    /// after fixes were held for one — several).
    public mutating func add(_ sentence: ParsedSentence, _ emit: (Fix) -> Void) {
        if case .unknown(let unknown) = sentence {
            finishSentence(SentenceSignature(unknown.talker, unknown.type))
        } else {
            withUnsafeMutablePointer(to: &self) { assembler in
                var visitor = Merging(assembler: assembler)
                sentence.visit(into: &visitor)
            }
        }
        handOut(emit)
    }

    /// Tells the assembler when the sentence about to be added was received (in milliseconds since 1970: a TAG
    /// block's, a capture's timestamp, an Android line's; ``Sentence/receivedMilliseconds``). An epoch with no date
    /// of its own (a GGA-only log) takes the date on which its time of day lies nearest that moment, before any
    /// running date; fixes held for a date are then released with it. ``FixReader`` calls this for every sentence
    /// that has a receive time.
    public mutating func noteReceiveTime(_ milliseconds: Int64) {
        latestReceived = milliseconds
    }

    /// Decodes `sentence` and adds it, without building a ``ParsedSentence``: the decoded value is merged where it
    /// was decoded (see ``SentenceVisitor``). Gives the same fixes as decoding it into a
    /// ``ParsedSentence`` and adding that.
    ///
    ///     try framer.feed(bytes) { event in
    ///         guard case .sentence(let sentence) = event else { return }
    ///         _ = try? assembler.add(sentence) { fix in … }
    ///     }
    ///
    /// ``FixReader`` does this for you, with the framing and the counting.
    ///
    /// - Returns: which decoder read the sentence (`nil` for a type not decoded here), for ``DecoderStatistics``.
    /// - Throws: the decoder's ``NMEAError``; the assembler is then unchanged.
    @discardableResult
    public mutating func add(_ sentence: Sentence, _ emit: (Fix) -> Void) throws(NMEAError) -> SentenceKind? {
        let kind = try withUnsafeMutablePointer(to: &self) { (assembler) throws(NMEAError) -> SentenceKind? in
            var visitor = Merging(assembler: assembler)
            return try sentence.decode(into: &visitor)
        }
        handOut(emit)
        return kind
    }

    /// Hands out the fixes completed since the last call, in order, keeping the queue's storage.
    mutating func handOut(_ emit: (Fix) -> Void) {
        if !completedFixes.isEmpty {
            // Through the buffer: iterating the array runs its read coroutine, which allocates when unspecialized.
            completedFixes.withUnsafeBufferPointer { fixes in
                for index in fixes.indices { emit(fixes[index]) }
            }
            completedFixes.removeAll(keepingCapacity: true)
        }
        guard outputIsQueued else { return }
        outputIsQueued = false
        emit(output)
    }

    /// Merges each decoded sentence into the assembler it points to.
    struct Merging: SentenceVisitor {
        let assembler: UnsafeMutablePointer<FixAssembler>

        @inline(__always)
        mutating func visit<S: DecodableSentence>(_ sentence: S) { assembler.pointee.merge(sentence) }

        @inline(__always)
        mutating func visitUnknown(_ sentence: Sentence) { assembler.pointee.mergeUnknown(sentence) }
    }

    /// Merges one decoded sentence; the fixes it completes are queued for ``handOut(_:)``.
    ///
    /// Each type's own ``DecodableSentence/merge(into:)`` takes its facts: specialized for the type, the call is
    /// direct (the types without fix data take only their place in the receiver's cycle).
    @inline(__always)
    mutating func merge<S: DecodableSentence>(_ sentence: S) {
        if let signature = sentence.merge(into: &self) { finishSentence(signature) }
    }

    /// A sentence of a type not decoded here: its place in the cycle.
    mutating func mergeUnknown(_ sentence: Sentence) {
        finishSentence(SentenceSignature(sentence.talker, sentence.type))
    }
}
