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
/// the same sentence has ended two cycles in a row, the epoch is handed out the moment it arrives, not one epoch
/// late when the next begins. If data for an epoch arrives after it was handed out, the lesson is forgotten and
/// learned again. Receivers that send no RMC, or only GGA, give fixes all the same.
///
/// **Time.** The date comes from RMC (valid ones only) or ZDA (whose four-digit year also fixes the century of RMC's
/// two-digit one). Date-less sentences take the last known date and roll over at midnight. With no date at all,
/// ``Options/fallbackDate`` is used; failing that, fixes are held (up to ``Options/backfillLimit``) until a date
/// arrives and then back-filled, as GPSBabel does. Dates 1024 weeks in the past — GPS week-number rollover bugs — are
/// corrected and counted.
///
/// **Validity.** RMC status `V`, GGA quality 0, GLL `V` and GNS mode `N` never give a position: such epochs become
/// fixes with ``FixMode/none``, never a position at 0,0 or the previous position again.
public struct FixAssembler: Sendable {
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
        /// Hand out the first position as soon as it is decoded, before its epoch is complete, marked
        /// ``Fix/isProvisional`` (the complete fix follows). For live displays: position at once.
        public var provisionalFirstFix: Bool

        public init(
            fallbackDate: UTCDate? = nil, referenceDate: UTCDate? = nil, backfillLimit: Int = 10_000,
            provisionalFirstFix: Bool = false
        ) {
            self.fallbackDate = fallbackDate
            self.referenceDate = referenceDate
            self.backfillLimit = backfillLimit
            self.provisionalFirstFix = provisionalFirstFix
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
        public init() {}
    }

    public let options: Options
    public private(set) var statistics = Statistics()
    /// The sentence learned to end each cycle, once learned.
    public private(set) var cycleEnd: SentenceSignature?

    private var epoch = EpochBuilder()
    /// The time of the epoch last handed out (to recognise late sentences).
    private var closedTime: UTCTime?
    /// The date the next date-less epoch gets, and the time of the last dated epoch (to see midnight pass).
    private var currentDate: UTCDate?
    private var lastEpochTime: UTCTime?
    /// The century ZDA reported (2000), used for RMC's two-digit years.
    private var century: Int?
    /// The last date that needed no correction, for spotting a jump back by 1024 weeks.
    private var lastGoodDate: UTCDate?
    /// The fix being handed out, built in place (see ``build(date:)``); between epochs it keeps the last sky.
    private var output = Fix()
    private var candidateEnd: SentenceSignature?
    private var candidateCount = 0
    private var waitingForDate: [Fix] = []
    private var firstPositionPublished = false
    /// The dimension of the last fix that had a position, for epochs that do not say.
    private var lastMode: FixMode?
    /// The first sentence of the epoch last handed out.
    private var closedFirstSignature: SentenceSignature?
    /// The fixes completed by the sentence being added, handed out after it by ``handOut(_:)`` (empty between
    /// calls; the storage is kept, so the steady state allocates nothing).
    private var completedFixes: [Fix] = []

    public init(options: Options = Options()) {
        self.options = options
        currentDate = options.fallbackDate
    }

    /// Adds one decoded sentence; calls `emit` with each fix this completes (none, one, or — when a date arrives
    /// after fixes were held for one — several).
    public mutating func add(_ sentence: ParsedSentence, _ emit: (Fix) -> Void) {
        withUnsafeMutablePointer(to: &self) { assembler in
            var visitor = Merging(assembler: assembler)
            sentence.visit(into: &visitor)
        }
        handOut(emit)
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
        guard !completedFixes.isEmpty else { return }
        // Through the buffer: iterating the array runs its read coroutine, which allocates when unspecialized.
        completedFixes.withUnsafeBufferPointer { fixes in
            for index in fixes.indices { emit(fixes[index]) }
        }
        completedFixes.removeAll(keepingCapacity: true)
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
    /// The types that carry fix data have their merge below; any other type only takes its place in the receiver's
    /// cycle, as an unknown type does. Specialized for each type, the switch folds to the one branch.
    mutating func merge<S: DecodableSentence>(_ sentence: S) {
        let signature: SentenceSignature?
        switch S.kind {
        case .rmc: signature = handle(sentence as! RMC)
        case .gga: signature = handle(sentence as! GGA)
        case .gns: signature = handle(sentence as! GNS)
        case .gll: signature = handle(sentence as! GLL)
        case .vtg: signature = handle(sentence as! VTG)
        case .gsa: signature = handle(sentence as! GSA)
        case .gsv: signature = handle(sentence as! GSV)
        case .zda: signature = handle(sentence as! ZDA)
        case .gst: signature = handle(sentence as! GST)
        case .gbs: signature = handle(sentence as! GBS)
        case .grs: signature = handle(sentence as! GRS)
        case .pubxPosition: signature = handle(sentence as! PUBXPosition)
        case .pubxTime: signature = handle(sentence as! PUBXTime)
        case .pgrme: signature = handle(sentence as! PGRME)
        case .pgrmz: signature = handle(sentence as! PGRMZ)
        case .hdt: signature = handle(sentence as! HDT)
        case .ths: signature = handle(sentence as! THS)
        default:
            // No fix data: only its place in the cycle. Proprietary messages that share an address are told apart
            // from the one without a message ID.
            let address = S.address
            signature = SentenceSignature(sentence.talker, address.type, isLastPart: address.messageID == 0)
        }
        if let signature { finishSentence(signature) }
    }

    /// A sentence of a type not decoded here: its place in the cycle.
    mutating func mergeUnknown(_ sentence: Sentence) {
        finishSentence(SentenceSignature(sentence.talker, sentence.type))
    }

    // MARK: Each type: its time and place in the cycle come first (they may close the epoch in progress), then its
    // facts are merged. Each returns the sentence's signature, or `nil` when it belonged to an epoch already handed
    // out (and nothing more is to be done).

    private mutating func handle(_ rmc: RMC) -> SentenceSignature? {
        let signature = SentenceSignature(rmc.talker, .rmc)
        guard begin(rmc.time, signature, lateDate: rmc.isValid ? rmc.date : nil) else { return nil }
        merge(rmc)
        return signature
    }

    private mutating func handle(_ gga: GGA) -> SentenceSignature? {
        let signature = SentenceSignature(gga.talker, .gga)
        guard begin(gga.time, signature) else { return nil }
        merge(gga)
        return signature
    }

    private mutating func handle(_ gns: GNS) -> SentenceSignature? {
        let signature = SentenceSignature(gns.talker, .gns)
        guard begin(gns.time, signature) else { return nil }
        merge(gns)
        return signature
    }

    private mutating func handle(_ gll: GLL) -> SentenceSignature? {
        let signature = SentenceSignature(gll.talker, .gll)
        guard begin(gll.time, signature) else { return nil }
        merge(gll)
        return signature
    }

    private mutating func handle(_ vtg: VTG) -> SentenceSignature? {
        merge(vtg)
        return SentenceSignature(vtg.talker, .vtg)
    }

    private mutating func handle(_ gsa: GSA) -> SentenceSignature? {
        merge(gsa)
        return SentenceSignature(gsa.talker, .gsa)
    }

    private mutating func handle(_ gsv: GSV) -> SentenceSignature? {
        merge(gsv)
        return SentenceSignature(gsv.talker, .gsv, isLastPart: gsv.messageNumber == gsv.totalMessages)
    }

    private mutating func handle(_ zda: ZDA) -> SentenceSignature? {
        let signature = SentenceSignature(zda.talker, .zda)
        guard begin(zda.time, signature, lateDate: zda.date) else { return nil }
        if let date = zda.date {
            century = Int(date.year) / 100 * 100
            epoch.date = date
        }
        return signature
    }

    private mutating func handle(_ gst: GST) -> SentenceSignature? {
        let signature = SentenceSignature(gst.talker, .gst)
        guard begin(gst.time, signature) else { return nil }
        merge(gst)
        return signature
    }

    private mutating func handle(_ gbs: GBS) -> SentenceSignature? {
        let signature = SentenceSignature(gbs.talker, .gbs)
        guard begin(gbs.time, signature) else { return nil }
        return signature
    }

    private mutating func handle(_ grs: GRS) -> SentenceSignature? {
        let signature = SentenceSignature(grs.talker, .grs)
        guard begin(grs.time, signature) else { return nil }
        return signature
    }

    private mutating func handle(_ pubx: PUBXPosition) -> SentenceSignature? {
        let signature = SentenceSignature(.proprietary, .pubx)
        guard begin(pubx.time, signature) else { return nil }
        merge(pubx)
        return signature
    }

    private mutating func handle(_ pubx: PUBXTime) -> SentenceSignature? {
        let signature = SentenceSignature(.proprietary, .pubx, isLastPart: false)
        guard begin(pubx.time, signature, lateDate: pubx.date) else { return nil }
        if let date = pubx.date { epoch.date = epoch.date ?? date }
        return signature
    }

    private mutating func handle(_ pgrme: PGRME) -> SentenceSignature? {
        if let error = pgrme.horizontalErrorMeters { epoch.horizontalError = error.doubleValue }
        if let error = pgrme.verticalErrorMeters { epoch.verticalError = error.doubleValue }
        return SentenceSignature(.proprietary, .pgrme)
    }

    private mutating func handle(_ pgrmz: PGRMZ) -> SentenceSignature? {
        if let meters = pgrmz.altitudeMeters { epoch.altitude = epoch.altitude ?? meters }
        return SentenceSignature(.proprietary, .pgrmz)
    }

    private mutating func handle(_ hdt: HDT) -> SentenceSignature? {
        if let heading = hdt.headingDegrees { epoch.heading = heading.doubleValue }
        return SentenceSignature(hdt.talker, .hdt)
    }

    private mutating func handle(_ ths: THS) -> SentenceSignature? {
        if ths.isValid, let heading = ths.headingDegrees { epoch.heading = heading.doubleValue }
        return SentenceSignature(ths.talker, .ths)
    }

    /// After a sentence's facts are merged: notes its place in the cycle, and hands the epoch out when this
    /// sentence ends the learned cycle (or a provisional first fix when asked for one).
    private mutating func finishSentence(_ signature: SentenceSignature) {
        if epoch.firstSignature == nil { epoch.firstSignature = signature }
        epoch.lastSignature = signature
        if let cycleEnd, signature == cycleEnd, epoch.time != nil {
            statistics.epochsClosedByCycleEnd += 1
            close(learning: false)
        } else if options.provisionalFirstFix && !firstPositionPublished && epoch.hasPosition {
            firstPositionPublished = true
            build(date: epoch.date ?? currentDate)
            output.isProvisional = true
            statistics.provisionalFixes += 1
            completedFixes.append(output)
        }
    }

    /// Places a sentence stamped `time` in the epochs: a new time closes the epoch in progress. Returns `false` for
    /// a sentence that belongs to an epoch already handed out (it is counted, and any date it carries still dates
    /// the fixes waiting for one).
    private mutating func begin(
        _ time: UTCTime?, _ signature: SentenceSignature, lateDate: UTCDate? = nil
    ) -> Bool {
        guard let time else { return true }
        if let epochTime = epoch.time {
            if epochTime != time { close(learning: true) }
        } else if closedTime == time && signature != closedFirstSignature {
            // Data for the epoch already handed out: the learned cycle end was wrong. (The same time with the
            // cycle's first sentence is a new epoch: receivers at 5 Hz with whole-second times repeat times.)
            statistics.lateSentences += 1
            cycleEnd = nil
            candidateEnd = nil
            candidateCount = 0
            // A late date still dates what waits for one (a log's single ZDA after its last GGA).
            if var date = lateDate {
                if let century, signature.type == .rmc { date.year = Int16(century + Int(date.year) % 100) }
                self.lateDate(date)
            }
            return false
        }
        if epoch.time == nil { epoch.time = time }
        return true
    }

    /// Ends the input: hands out the epoch in progress and any fixes still waiting for a date (without one).
    public mutating func finish(_ emit: (Fix) -> Void) {
        close(learning: false)
        for var fix in waitingForDate {
            fix.date = nil
            statistics.undatedFixes += 1
            completedFixes.append(fix)
        }
        waitingForDate.removeAll()
        handOut(emit)
    }

    /// Forgets the epoch in progress and the learned cycle (the receiver was unplugged, or a new file begins);
    /// dates, century and sky are kept.
    public mutating func reset() {
        epoch.reset()
        cycleEnd = nil
        candidateEnd = nil
        candidateCount = 0
        closedTime = nil
    }

    /// ``reset()`` for the next input of a ``FixReader``, which may be another receiver's: what described the last
    /// receiver — its sky, kept for epochs without GSV, and the dimension of its last fix — is forgotten too. Dates
    /// are kept, so a log cut in two reads as one.
    mutating func startNewInput() {
        reset()
        output.satellites.removeAll()
        lastMode = nil
    }

    // MARK: Merging

    private mutating func merge(_ rmc: RMC) {
        if rmc.isValid, let latitude = rmc.latitude, let longitude = rmc.longitude {
            epoch.setPosition(latitude, longitude)
            epoch.modeQuality = epoch.modeQuality ?? rmc.mode.map(FixQuality.init)
        } else if !rmc.isValid {
            epoch.sawInvalid = true
        }
        if let knots = rmc.speedKnots { epoch.speed = epoch.speed ?? knots.doubleValue * 1852 / 3600 }
        if let course = rmc.courseDegrees { epoch.course = epoch.course ?? course.doubleValue }
        if let variation = rmc.magneticVariationDegrees { epoch.magneticVariation = variation.doubleValue }
        if rmc.isValid, var date = rmc.date {
            if let century { date.year = Int16(century + Int(date.year) % 100) }
            epoch.date = date
        }
    }

    private mutating func merge(_ gga: GGA) {
        if let quality = gga.quality, quality.hasFix, let latitude = gga.latitude, let longitude = gga.longitude {
            epoch.setPosition(latitude, longitude)
            epoch.ggaQuality = FixQuality(quality)
        } else if gga.quality == .invalid {
            epoch.sawInvalid = true
        }
        if gga.quality?.hasFix == true { epoch.sawAltitudeField = true }
        if let count = gga.satellitesUsed { epoch.satellitesUsed = count }
        if let hdop = gga.hdop { epoch.hdop = hdop.doubleValue }
        if let altitude = gga.altitudeMeters { epoch.altitude = altitude.doubleValue }
        if let separation = gga.geoidSeparationMeters { epoch.geoidSeparation = separation.doubleValue }
        if let age = gga.differentialAgeSeconds { epoch.differentialAge = age.doubleValue }
        if let station = gga.differentialStationID { epoch.differentialStation = station }
    }

    private mutating func merge(_ gns: GNS) {
        var best = FixQuality.none
        for mode in gns.modes where FixQuality(mode).rawValue > best.rawValue { best = FixQuality(mode) }
        if best != .none, let latitude = gns.latitude, let longitude = gns.longitude {
            epoch.setPosition(latitude, longitude)
            epoch.modeQuality = epoch.modeQuality ?? best
        } else if !gns.modes.isEmpty && best == .none {
            epoch.sawInvalid = true
        }
        if best != .none { epoch.sawAltitudeField = true }
        if let count = gns.satellitesUsed { epoch.satellitesUsed = epoch.satellitesUsed ?? count }
        if let hdop = gns.hdop { epoch.hdop = epoch.hdop ?? hdop.doubleValue }
        if let altitude = gns.altitudeMeters { epoch.altitude = epoch.altitude ?? altitude.doubleValue }
        if let separation = gns.geoidSeparationMeters {
            epoch.geoidSeparation = epoch.geoidSeparation ?? separation.doubleValue
        }
    }

    private mutating func merge(_ gll: GLL) {
        if gll.isValid && gll.mode != .notValid, let latitude = gll.latitude, let longitude = gll.longitude {
            epoch.setPosition(latitude, longitude)
            epoch.modeQuality = epoch.modeQuality ?? gll.mode.map(FixQuality.init)
        } else if !gll.isValid {
            epoch.sawInvalid = true
        }
    }

    private mutating func merge(_ vtg: VTG) {
        if let knots = vtg.speedKnots {
            epoch.speed = epoch.speed ?? knots.doubleValue * 1852 / 3600
        } else if let kmh = vtg.speedKilometersPerHour {
            epoch.speed = epoch.speed ?? kmh.doubleValue / 3.6
        }
        if let course = vtg.courseTrueDegrees { epoch.course = epoch.course ?? course.doubleValue }
    }

    private mutating func merge(_ gsa: GSA) {
        if let fixType = gsa.fixType {
            let mode: FixMode = fixType == .threeD ? .threeD : fixType == .twoD ? .twoD : .none
            epoch.gsaMode = max(epoch.gsaMode ?? .none, mode)
        }
        let system = gsa.system
        for prn in gsa.satellites {
            epoch.used.insert(system ?? GNSSSystem(prn: Int(prn)), prn)
            epoch.usedCount += 1
        }
        if let pdop = gsa.pdop { epoch.pdop = pdop.doubleValue }
        if let hdop = gsa.hdop { epoch.hdop = epoch.hdop ?? hdop.doubleValue }
        if let vdop = gsa.vdop { epoch.vdop = vdop.doubleValue }
    }

    private mutating func merge(_ gsv: GSV) {
        let system = gsv.talker.system
        for satellite in gsv.satellites {
            epoch.sky.append(
                SatelliteInView(
                    system: system ?? GNSSSystem(prn: Int(satellite.prn)), prn: satellite.prn,
                    elevationDegrees: satellite.elevationDegrees, azimuthDegrees: satellite.azimuthDegrees,
                    snr: satellite.snr, signalID: gsv.signalID))
        }
        epoch.sawGSV = true
    }

    private mutating func merge(_ gst: GST) {
        if let error = gst.latitudeErrorMeters { epoch.latitudeError = error.doubleValue }
        if let error = gst.longitudeErrorMeters { epoch.longitudeError = error.doubleValue }
        if let error = gst.altitudeErrorMeters { epoch.verticalError = error.doubleValue }
        if let lat = gst.latitudeErrorMeters?.doubleValue, let lon = gst.longitudeErrorMeters?.doubleValue {
            epoch.horizontalError = (lat * lat + lon * lon).squareRoot()
        }
    }

    private mutating func merge(_ pubx: PUBXPosition) {
        let status = pubx.navigationStatus
        let valid = status != "NF" && status != "TT" && !status.isEmpty
        if valid, let latitude = pubx.latitude, let longitude = pubx.longitude {
            epoch.setPosition(latitude, longitude)
            let quality: FixQuality =
                status == "DR"
                ? .deadReckoning
                : status == "D2" || status == "D3" ? .differential : .gps
            epoch.modeQuality = epoch.modeQuality ?? quality
            if status == "G2" || status == "D2" { epoch.gsaMode = epoch.gsaMode ?? .twoD }
            if status == "G3" || status == "D3" || status == "RK" { epoch.gsaMode = epoch.gsaMode ?? .threeD }
        } else if !valid {
            epoch.sawInvalid = true
        }
        if let accuracy = pubx.horizontalAccuracyMeters { epoch.horizontalError = accuracy.doubleValue }
        if let accuracy = pubx.verticalAccuracyMeters { epoch.verticalError = accuracy.doubleValue }
        if let kmh = pubx.speedKilometersPerHour { epoch.speed = epoch.speed ?? kmh.doubleValue / 3.6 }
        if let course = pubx.courseDegrees { epoch.course = epoch.course ?? course.doubleValue }
        if let down = pubx.verticalVelocity { epoch.climb = -down.doubleValue }
        if let hdop = pubx.hdop { epoch.hdop = epoch.hdop ?? hdop.doubleValue }
        if let vdop = pubx.vdop { epoch.vdop = epoch.vdop ?? vdop.doubleValue }
        if let count = pubx.satellitesUsed { epoch.satellitesUsed = epoch.satellitesUsed ?? count }
        if let height = pubx.altitudeEllipsoidMeters { epoch.ellipsoidHeight = height.doubleValue }
    }

    // MARK: Closing an epoch

    private mutating func close(learning: Bool) {
        guard let time = epoch.time else {
            // Only time-less sentences so far: they belong to the next epoch.
            return
        }
        if learning, let last = epoch.lastSignature {
            if last == candidateEnd {
                candidateCount += 1
            } else {
                candidateEnd = last
                candidateCount = 1
            }
            if candidateCount >= 2 { cycleEnd = candidateEnd }
        }
        // The date: this epoch's own (corrected for rollover), else the running date carried over midnight.
        var date: UTCDate?
        var corrected = false
        if let own = epoch.date {
            (date, corrected) = FixAssembler.correctingRollover(
                own, reference: options.referenceDate,
                lastGood: lastGoodDate)
            if corrected { statistics.weekRolloverCorrections += 1 } else { lastGoodDate = own }
            currentDate = date
        } else if var running = currentDate {
            if let last = lastEpochTime,
                time.nanosecondsSinceMidnight < last.nanosecondsSinceMidnight - 43_200_000_000_000
            {
                running = UTCDate(daysSinceEpoch: running.daysSinceEpoch + 1)
                currentDate = running
            }
            date = running
        }
        lastEpochTime = time
        build(date: date)
        output.dateWasCorrected = corrected
        if output.hasPosition { lastMode = output.mode }
        closedTime = time
        closedFirstSignature = epoch.firstSignature
        epoch.reset()
        handOutput()
    }

    /// Hands out ``output``, or holds it while no date is known; releases held fixes once one is.
    private mutating func handOutput() {
        guard let date = output.date else {
            if waitingForDate.count < options.backfillLimit {
                if waitingForDate.isEmpty { waitingForDate.reserveCapacity(64) }
                waitingForDate.append(output)
            } else {
                countOutput()
                statistics.undatedFixes += 1
                completedFixes.append(output)
            }
            return
        }
        releaseWaiting(before: date, at: output.time)
        countOutput()
        completedFixes.append(output)
    }

    /// Dates the fixes waiting for a date, walking back from `date` at `time` and stepping back a day each time
    /// the clock runs backwards past midnight, and hands them out.
    private mutating func releaseWaiting(before date: UTCDate, at time: UTCTime?) {
        guard !waitingForDate.isEmpty else { return }
        var day = date.daysSinceEpoch
        var nextTime = time?.nanosecondsSinceMidnight ?? 0
        for index in waitingForDate.indices.reversed() {
            let time = waitingForDate[index].time?.nanosecondsSinceMidnight ?? 0
            if time > nextTime + 43_200_000_000_000 { day -= 1 }
            waitingForDate[index].date = UTCDate(daysSinceEpoch: day)
            nextTime = time
        }
        for held in waitingForDate {
            statistics.fixes += 1
            if !held.hasPosition { statistics.fixesWithoutPosition += 1 }
            statistics.backfilledFixes += 1
            completedFixes.append(held)
        }
        waitingForDate.removeAll()
    }

    /// A date that arrived after its epoch was handed out: it becomes the running date, and dates held fixes.
    private mutating func lateDate(_ date: UTCDate) {
        let (corrected, wasCorrected) = correctingRollover(date)
        if wasCorrected { statistics.weekRolloverCorrections += 1 } else { lastGoodDate = date }
        currentDate = corrected
        // The held fix of that very epoch takes the date itself; earlier ones count back from it.
        releaseWaiting(before: corrected, at: closedTime)
    }

    private mutating func countOutput() {
        statistics.fixes += 1
        if !output.hasPosition { statistics.fixesWithoutPosition += 1 }
    }

    /// `date`, moved forward 1024 weeks (once or more) when it is a week-rollover victim.
    private func correctingRollover(_ date: UTCDate) -> (UTCDate, Bool) {
        FixAssembler.correctingRollover(date, reference: options.referenceDate, lastGood: lastGoodDate)
    }

    /// The rollover rule itself, apart from the assembler's state (so calling it copies nothing).
    private static func correctingRollover(_ date: UTCDate, reference: UTCDate?, lastGood: UTCDate?)
        -> (UTCDate, Bool)
    {
        let rollover = 7168  // days in 1024 weeks
        var days = date.daysSinceEpoch
        if let reference = reference?.daysSinceEpoch {
            while reference - days > rollover - 366 { days += rollover }
        } else if let good = lastGood?.daysSinceEpoch, abs(good - days - rollover) <= 7 {
            days += rollover
        } else {
            // Right after a rollover boundary a receiver with a 10-bit week counter reports the start of the GPS
            // epoch; nobody logged NMEA in early 1980, and hardly anybody in the weeks after 1999-08-22.
            // (Two dates in an inline array: an array literal here would allocate at every epoch.)
            let boundaries: InlineArray<2, UTCDate> = [
                UTCDate(year: 1980, month: 1, day: 6),
                UTCDate(year: 1999, month: 8, day: 22),
            ]
            for index in boundaries.indices {
                let start = boundaries[index].daysSinceEpoch
                if days >= start && days < start + 140 {
                    days += rollover
                    while let reference = lastGood?.daysSinceEpoch, reference - days > rollover / 2 {
                        days += rollover
                    }
                }
            }
        }
        return days == date.daysSinceEpoch ? (date, false) : (UTCDate(daysSinceEpoch: days), true)
    }

    /// Makes ``output`` the fix for the epoch in progress. The fix is built in place: it is over a kilobyte, and
    /// its satellites stay from one epoch to the next when an epoch has no GSV.
    private mutating func build(date: UTCDate?) {
        output.date = date
        output.time = epoch.time
        output.isProvisional = false
        output.dateWasCorrected = false
        let valid =
            epoch.latitude != nil
            && (epoch.gsaMode != FixMode.none || epoch.ggaQuality != nil
                || epoch.modeQuality != nil)
        if valid {
            output.latitude = epoch.latitude
            output.longitude = epoch.longitude
            output.quality = epoch.ggaQuality ?? epoch.modeQuality ?? .gps
            if output.quality == .none { output.quality = .gps }
            // An altitude makes a 3D fix even when GSA says 2D (Garmins report their last altitude), as in gpsd.
            output.altitudeMeters = epoch.altitude
            if output.altitudeMeters == nil, let height = epoch.ellipsoidHeight,
                let separation = epoch.geoidSeparation
            {
                output.altitudeMeters = height - separation
            }
            if output.altitudeMeters != nil || epoch.gsaMode == .threeD {
                output.mode = .threeD
            } else if epoch.gsaMode == .twoD || epoch.sawAltitudeField {
                output.mode = .twoD
            } else {
                // Nothing in this epoch tells the dimension (an RMC-only epoch between GGAs): it stays what it was.
                output.mode = lastMode ?? .twoD
            }
            output.speed = epoch.speed
            output.courseDegrees = epoch.course
            output.climb = epoch.climb
        } else {
            output.latitude = nil
            output.longitude = nil
            output.quality = .none
            output.altitudeMeters = nil
            output.mode = .none
            output.speed = nil
            output.courseDegrees = nil
            output.climb = nil
        }
        output.geoidSeparationMeters = epoch.geoidSeparation
        output.magneticVariationDegrees = epoch.magneticVariation
        output.headingDegrees = epoch.heading
        output.hdop = epoch.hdop
        output.vdop = epoch.vdop
        output.pdop = epoch.pdop
        output.satellitesUsed = epoch.satellitesUsed ?? (epoch.usedCount == 0 ? nil : epoch.usedCount)
        output.latitudeErrorMeters = epoch.latitudeError
        output.longitudeErrorMeters = epoch.longitudeError
        output.horizontalErrorMeters = epoch.horizontalError
        output.verticalErrorMeters = epoch.verticalError
        output.differentialAgeSeconds = epoch.differentialAge
        output.differentialStationID = epoch.differentialStation
        // The sky: this epoch's GSVs, else the last one seen (still in `output`).
        if epoch.sawGSV { output.satellites = epoch.sky }
        if epoch.usedCount > 0 { output.satellites.markUsed(epoch.used) }
    }
}

/// The satellites GSA sentences listed as used: one bit per PRN (modulo 256) per system, so marking the sky costs a
/// lookup per satellite, not a search.
struct UsedSatellites: Sendable {
    /// Four 64-bit words per system; index 0 is "system unknown".
    private var bits = InlineArray<32, UInt64>(repeating: 0)

    mutating func insert(_ system: GNSSSystem?, _ prn: UInt16) {
        let (word, bit) = UsedSatellites.place(system, prn)
        bits[word] |= bit
    }

    /// `true` when `prn` of `system` was listed, or listed without a known system.
    func contains(_ system: GNSSSystem?, _ prn: UInt16) -> Bool {
        let (word, bit) = UsedSatellites.place(system, prn)
        let (anyWord, anyBit) = UsedSatellites.place(nil, prn)
        // Through a span: subscripting the array itself copied all 256 bytes for each lookup.
        let words = bits.span
        return words[word] & bit != 0 || words[anyWord] & anyBit != 0
    }

    mutating func removeAll() {
        for index in 0..<32 { bits[index] = 0 }
    }

    private static func place(_ system: GNSSSystem?, _ prn: UInt16) -> (Int, UInt64) {
        let row = Int(system?.rawValue ?? 0) & 7
        return (row * 4 + Int(prn >> 6) & 3, 1 << UInt64(prn & 63))
    }
}

/// What identifies a sentence's place in a receiver's cycle: talker, type, and for GSV whether it is the last part.
public struct SentenceSignature: Hashable, Sendable, CustomStringConvertible {
    public var talker: Talker
    public var type: SentenceType
    /// For GSV: `true` when this is the last sentence of its group.
    public var isLastPart: Bool

    init(_ talker: Talker, _ type: SentenceType, isLastPart: Bool = true) {
        self.talker = talker
        self.type = type
        self.isLastPart = isLastPart
    }

    public var description: String {
        "\(talker == .proprietary ? "" : talker.description)\(type)\(type == .gsv ? (isLastPart ? " (last)" : "") : "")"
    }
}

/// The facts of the epoch being assembled.
struct EpochBuilder: Sendable {
    var time: UTCTime?
    var date: UTCDate?
    var latitude: Double?
    var longitude: Double?
    var positionPrecision: UInt8 = 0
    var altitude: Double?
    var ellipsoidHeight: Double?
    var geoidSeparation: Double?
    var speed: Double?
    var course: Double?
    var climb: Double?
    var magneticVariation: Double?
    var heading: Double?
    var ggaQuality: FixQuality?
    var modeQuality: FixQuality?
    var gsaMode: FixMode?
    /// A GGA or GNS with a fix was seen, so a missing altitude means a 2D fix.
    var sawAltitudeField = false
    var sawInvalid = false
    var hdop: Double?
    var vdop: Double?
    var pdop: Double?
    var satellitesUsed: Int?
    var used = UsedSatellites()
    var usedCount = 0
    var sky = FixedList<64, SatelliteInView>()
    var sawGSV = false
    var latitudeError: Double?
    var longitudeError: Double?
    var horizontalError: Double?
    var verticalError: Double?
    var differentialAge: Double?
    var differentialStation: Int?
    var firstSignature: SentenceSignature?
    var lastSignature: SentenceSignature?

    var hasPosition: Bool { latitude != nil }

    /// Empties the builder for the next epoch without rewriting its inline storage.
    mutating func reset() {
        time = nil
        date = nil
        latitude = nil
        longitude = nil
        positionPrecision = 0
        altitude = nil
        ellipsoidHeight = nil
        geoidSeparation = nil
        speed = nil
        course = nil
        climb = nil
        magneticVariation = nil
        heading = nil
        ggaQuality = nil
        modeQuality = nil
        gsaMode = nil
        sawAltitudeField = false
        sawInvalid = false
        hdop = nil
        vdop = nil
        pdop = nil
        satellitesUsed = nil
        if usedCount > 0 { used.removeAll() }
        usedCount = 0
        sky.removeAll()
        sawGSV = false
        latitudeError = nil
        longitudeError = nil
        horizontalError = nil
        verticalError = nil
        differentialAge = nil
        differentialStation = nil
        firstSignature = nil
        lastSignature = nil
    }

    /// Takes a position unless the one already held was sent with more decimals: a receiver's RMC and GGA of
    /// one epoch can differ in precision (GGA with 5 decimals, RMC with 4), and the finer one wins; otherwise the
    /// later one does, as in gpsd.
    mutating func setPosition(_ latitude: FixedPoint, _ longitude: FixedPoint) {
        let precision = min(latitude.scale, longitude.scale)
        if self.latitude == nil || precision >= positionPrecision {
            self.latitude = latitude.doubleValue
            self.longitude = longitude.doubleValue
            positionPrecision = precision
        }
    }
}

extension FixedList where Element == SatelliteInView {
    /// Marks each satellite used or not, in place.
    mutating func markUsed(_ used: UsedSatellites) {
        for index in 0..<storedCount {
            storage[index].isUsed = used.contains(storage[index].system, storage[index].prn)
        }
    }
}
