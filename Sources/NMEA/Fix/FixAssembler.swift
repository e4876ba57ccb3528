/// Merges the sentences of each epoch into one ``Fix``.
///
///     var assembler = FixAssembler()
///     try framer.feed(bytes) { event in
///         guard case .sentence(let sentence) = event, let parsed = try? ParsedSentence(sentence) else { return }
///         assembler.add(parsed) { fix in … }
///     }
///     assembler.finish { fix in … }
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

        public init(fallbackDate: UTCDate? = nil, referenceDate: UTCDate? = nil, backfillLimit: Int = 10_000,
                    provisionalFirstFix: Bool = false) {
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
    /// The most recent complete sky, kept for epochs without GSV.
    private var sky = FixedList<64, SatelliteInView>()
    private var candidateEnd: SentenceSignature?
    private var candidateCount = 0
    private var waitingForDate: [Fix] = []
    private var firstPositionPublished = false
    /// The dimension of the last fix that had a position, for epochs that do not say.
    private var lastMode: FixMode?
    /// The first sentence of the epoch last handed out.
    private var closedFirstSignature: SentenceSignature?

    public init(options: Options = Options()) {
        self.options = options
        currentDate = options.fallbackDate
    }

    /// Adds one decoded sentence; calls `emit` with each fix this completes (none, one, or — when a date arrives
    /// after fixes were held for one — several).
    public mutating func add(_ sentence: ParsedSentence, _ emit: (Fix) -> Void) {
        let signature = SentenceSignature(sentence)
        if let time = sentence.epochTime {
            if let epochTime = epoch.time {
                if epochTime != time { close(learning: true, emit) }
            } else if closedTime == time && signature != closedFirstSignature {
                // Data for the epoch already handed out: the learned cycle end was wrong. (The same time with the
                // cycle's first sentence is a new epoch: receivers at 5 Hz with whole-second times repeat times.)
                statistics.lateSentences += 1
                cycleEnd = nil
                candidateEnd = nil
                candidateCount = 0
                // A late date still dates what waits for one (a log's single ZDA after its last GGA).
                if let date = sentence.date(century: century) { lateDate(date, emit) }
                return
            }
            if epoch.time == nil { epoch.time = time }
        }
        merge(sentence)
        if epoch.firstSignature == nil { epoch.firstSignature = signature }
        epoch.lastSignature = signature
        if let cycleEnd, signature == cycleEnd, epoch.time != nil {
            statistics.epochsClosedByCycleEnd += 1
            close(learning: false, emit)
        } else if options.provisionalFirstFix && !firstPositionPublished && epoch.hasPosition {
            firstPositionPublished = true
            var fix = build(date: epoch.date ?? currentDate)
            fix.isProvisional = true
            statistics.provisionalFixes += 1
            emit(fix)
        }
    }

    /// Ends the input: hands out the epoch in progress and any fixes still waiting for a date (without one).
    public mutating func finish(_ emit: (Fix) -> Void) {
        close(learning: false, emit)
        for var fix in waitingForDate {
            fix.date = nil
            statistics.undatedFixes += 1
            emit(fix)
        }
        waitingForDate.removeAll()
    }

    /// Forgets the epoch in progress and the learned cycle (the receiver was unplugged, or a new file begins);
    /// dates, century and sky are kept.
    public mutating func reset() {
        epoch = EpochBuilder()
        cycleEnd = nil
        candidateEnd = nil
        candidateCount = 0
        closedTime = nil
    }

    // MARK: Merging

    private mutating func merge(_ sentence: ParsedSentence) {
        switch sentence {
        case .rmc(let rmc):
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
        case .gga(let gga):
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
        case .gns(let gns):
            let best = gns.modes.map(FixQuality.init).max { $0.rawValue < $1.rawValue } ?? FixQuality.none
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
        case .gll(let gll):
            if gll.isValid && gll.mode != .notValid, let latitude = gll.latitude, let longitude = gll.longitude {
                epoch.setPosition(latitude, longitude)
                epoch.modeQuality = epoch.modeQuality ?? gll.mode.map(FixQuality.init)
            } else if !gll.isValid {
                epoch.sawInvalid = true
            }
        case .vtg(let vtg):
            if let knots = vtg.speedKnots {
                epoch.speed = epoch.speed ?? knots.doubleValue * 1852 / 3600
            } else if let kmh = vtg.speedKilometersPerHour {
                epoch.speed = epoch.speed ?? kmh.doubleValue / 3.6
            }
            if let course = vtg.courseTrueDegrees { epoch.course = epoch.course ?? course.doubleValue }
        case .gsa(let gsa):
            if let fixType = gsa.fixType {
                let mode: FixMode = fixType == .threeD ? .threeD : fixType == .twoD ? .twoD : .none
                epoch.gsaMode = max(epoch.gsaMode ?? .none, mode)
            }
            for prn in gsa.satellites {
                let system = gsa.system ?? GNSSSystem(prn: Int(prn))
                epoch.used.append(SatelliteID(system: system, prn: prn))
            }
            if let pdop = gsa.pdop { epoch.pdop = pdop.doubleValue }
            if let hdop = gsa.hdop { epoch.hdop = epoch.hdop ?? hdop.doubleValue }
            if let vdop = gsa.vdop { epoch.vdop = vdop.doubleValue }
        case .gsv(let gsv):
            let system = gsv.talker.system
            for satellite in gsv.satellites {
                epoch.sky.append(SatelliteInView(
                    system: system ?? GNSSSystem(prn: Int(satellite.prn)), prn: satellite.prn,
                    elevationDegrees: satellite.elevationDegrees, azimuthDegrees: satellite.azimuthDegrees,
                    snr: satellite.snr, signalID: gsv.signalID))
            }
            epoch.sawGSV = true
        case .zda(let zda):
            if let date = zda.date {
                century = Int(date.year) / 100 * 100
                epoch.date = date
            }
        case .gst(let gst):
            if let error = gst.latitudeErrorMeters { epoch.latitudeError = error.doubleValue }
            if let error = gst.longitudeErrorMeters { epoch.longitudeError = error.doubleValue }
            if let error = gst.altitudeErrorMeters { epoch.verticalError = error.doubleValue }
            if let lat = gst.latitudeErrorMeters?.doubleValue, let lon = gst.longitudeErrorMeters?.doubleValue {
                epoch.horizontalError = (lat * lat + lon * lon).squareRoot()
            }
        case .pubxPosition(let pubx):
            let status = pubx.navigationStatus
            let valid = status != "NF" && status != "TT" && !status.isEmpty
            if valid, let latitude = pubx.latitude, let longitude = pubx.longitude {
                epoch.setPosition(latitude, longitude)
                let quality: FixQuality = status == "DR" ? .deadReckoning
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
        case .pubxTime(let pubx):
            if let date = pubx.date { epoch.date = epoch.date ?? date }
        case .pgrme(let pgrme):
            if let error = pgrme.horizontalErrorMeters { epoch.horizontalError = error.doubleValue }
            if let error = pgrme.verticalErrorMeters { epoch.verticalError = error.doubleValue }
        case .pgrmz(let pgrmz):
            if let meters = pgrmz.altitudeMeters { epoch.altitude = epoch.altitude ?? meters }
        case .hdt(let hdt):
            if let heading = hdt.headingDegrees { epoch.heading = heading.doubleValue }
        case .ths(let ths):
            if ths.isValid, let heading = ths.headingDegrees { epoch.heading = heading.doubleValue }
        case .gbs, .grs, .txt, .dtm, .pubxSatellites, .pgrmm, .unknown:
            break
        }
        if sentence.epochTime == nil { epoch.hasTimelessData = true }
    }

    // MARK: Closing an epoch

    private mutating func close(learning: Bool, _ emit: (Fix) -> Void) {
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
            (date, corrected) = correctingRollover(own)
            if corrected { statistics.weekRolloverCorrections += 1 } else { lastGoodDate = own }
            currentDate = date
        } else if var running = currentDate {
            if let last = lastEpochTime, time.nanosecondsSinceMidnight < last.nanosecondsSinceMidnight - 43_200_000_000_000 {
                running = UTCDate(daysSinceEpoch: running.daysSinceEpoch + 1)
                currentDate = running
            }
            date = running
        }
        lastEpochTime = time
        if epoch.sawGSV { sky = epoch.sky }
        var fix = build(date: date)
        fix.dateWasCorrected = corrected
        if fix.hasPosition { lastMode = fix.mode }
        closedTime = time
        closedFirstSignature = epoch.firstSignature
        epoch = EpochBuilder()
        hand(fix, emit)
    }

    /// Hands out `fix`, or holds it while no date is known; releases held fixes once one is.
    private mutating func hand(_ fix: Fix, _ emit: (Fix) -> Void) {
        guard let date = fix.date else {
            if waitingForDate.count < options.backfillLimit {
                if waitingForDate.isEmpty { waitingForDate.reserveCapacity(64) }
                waitingForDate.append(fix)
            } else {
                count(fix)
                statistics.undatedFixes += 1
                emit(fix)
            }
            return
        }
        releaseWaiting(before: date, at: fix.time, emit)
        count(fix)
        emit(fix)
    }

    /// Dates the fixes waiting for a date, walking back from `date` at `time` and stepping back a day each time
    /// the clock runs backwards past midnight, and hands them out.
    private mutating func releaseWaiting(before date: UTCDate, at time: UTCTime?, _ emit: (Fix) -> Void) {
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
            count(held)
            statistics.backfilledFixes += 1
            emit(held)
        }
        waitingForDate.removeAll()
    }

    /// A date that arrived after its epoch was handed out: it becomes the running date, and dates held fixes.
    private mutating func lateDate(_ date: UTCDate, _ emit: (Fix) -> Void) {
        let (corrected, wasCorrected) = correctingRollover(date)
        if wasCorrected { statistics.weekRolloverCorrections += 1 } else { lastGoodDate = date }
        currentDate = corrected
        // The held fix of that very epoch takes the date itself; earlier ones count back from it.
        releaseWaiting(before: corrected, at: closedTime, emit)
    }

    private mutating func count(_ fix: Fix) {
        statistics.fixes += 1
        if !fix.hasPosition { statistics.fixesWithoutPosition += 1 }
    }

    /// `date`, moved forward 1024 weeks (once or more) when it is a week-rollover victim.
    private func correctingRollover(_ date: UTCDate) -> (UTCDate, Bool) {
        let rollover = 7168  // days in 1024 weeks
        var days = date.daysSinceEpoch
        if let reference = options.referenceDate?.daysSinceEpoch {
            while reference - days > rollover - 366 { days += rollover }
        } else if let good = lastGoodDate?.daysSinceEpoch, abs(good - days - rollover) <= 7 {
            days += rollover
        } else {
            // Right after a rollover boundary a receiver with a 10-bit week counter reports the start of the GPS
            // epoch; nobody logged NMEA in early 1980, and hardly anybody in the weeks after 1999-08-22.
            for boundary in [UTCDate(year: 1980, month: 1, day: 6), UTCDate(year: 1999, month: 8, day: 22)] {
                let start = boundary.daysSinceEpoch
                if days >= start && days < start + 140 {
                    days += rollover
                    while let reference = lastGoodDate?.daysSinceEpoch, reference - days > rollover / 2 {
                        days += rollover
                    }
                }
            }
        }
        return days == date.daysSinceEpoch ? (date, false) : (UTCDate(daysSinceEpoch: days), true)
    }

    /// The fix for the epoch in progress.
    private func build(date: UTCDate?) -> Fix {
        var fix = Fix(date: date, time: epoch.time)
        let valid = epoch.latitude != nil && (epoch.gsaMode != FixMode.none || epoch.ggaQuality != nil
            || epoch.modeQuality != nil)
        if valid {
            fix.latitude = epoch.latitude
            fix.longitude = epoch.longitude
            fix.quality = epoch.ggaQuality ?? epoch.modeQuality ?? .gps
            if fix.quality == .none { fix.quality = .gps }
            // An altitude makes a 3D fix even when GSA says 2D (Garmins report their last altitude), as in gpsd.
            fix.altitudeMeters = epoch.altitude
            if fix.altitudeMeters == nil, let height = epoch.ellipsoidHeight, let separation = epoch.geoidSeparation {
                fix.altitudeMeters = height - separation
            }
            if fix.altitudeMeters != nil || epoch.gsaMode == .threeD {
                fix.mode = .threeD
            } else if epoch.gsaMode == .twoD || epoch.sawAltitudeField {
                fix.mode = .twoD
            } else {
                // Nothing in this epoch tells the dimension (an RMC-only epoch between GGAs): it stays what it was.
                fix.mode = lastMode ?? .twoD
            }
            fix.speed = epoch.speed
            fix.courseDegrees = epoch.course
            fix.climb = epoch.climb
        }
        fix.geoidSeparationMeters = epoch.geoidSeparation
        fix.magneticVariationDegrees = epoch.magneticVariation
        fix.headingDegrees = epoch.heading
        fix.hdop = epoch.hdop
        fix.vdop = epoch.vdop
        fix.pdop = epoch.pdop
        fix.satellitesUsed = epoch.satellitesUsed ?? (epoch.used.isEmpty ? nil : epoch.used.count)
        fix.latitudeErrorMeters = epoch.latitudeError
        fix.longitudeErrorMeters = epoch.longitudeError
        fix.horizontalErrorMeters = epoch.horizontalError
        fix.verticalErrorMeters = epoch.verticalError
        fix.differentialAgeSeconds = epoch.differentialAge
        fix.differentialStationID = epoch.differentialStation
        var satellites = epoch.sawGSV ? epoch.sky : sky
        if !epoch.used.isEmpty {
            for index in satellites.indices {
                let satellite = satellites[index]
                let used = epoch.used.contains { $0.prn == satellite.prn && ($0.system == nil || $0.system == satellite.system) }
                if used { satellites.setUsed(at: index) }
            }
        }
        fix.satellites = satellites
        return fix
    }
}

/// A satellite named by system and PRN.
struct SatelliteID: Hashable, Sendable, FixedListElement {
    var system: GNSSSystem?
    var prn: UInt16
    static var placeholder: SatelliteID { SatelliteID(system: nil, prn: 0) }
}

/// What identifies a sentence's place in a receiver's cycle: talker, type, and for GSV whether it is the last part.
public struct SentenceSignature: Hashable, Sendable, CustomStringConvertible {
    public var talker: Talker
    public var type: SentenceType
    /// For GSV: `true` when this is the last sentence of its group.
    public var isLastPart: Bool

    init(_ sentence: ParsedSentence) {
        switch sentence {
        case .gsv(let gsv):
            talker = gsv.talker
            type = .gsv
            isLastPart = gsv.messageNumber == gsv.totalMessages
        case .unknown(let raw):
            talker = raw.talker
            type = raw.type
            isLastPart = true
        default:
            talker = sentence.talker
            type = sentence.kind.map(\.sentenceType) ?? SentenceType(rawValue: 0)
            isLastPart = true
        }
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
    var used = FixedList<64, SatelliteID>()
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
    var hasTimelessData = false

    var hasPosition: Bool { latitude != nil }

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
    mutating func setUsed(at index: Int) {
        storage[index].isUsed = true
    }
}

extension ParsedSentence {
    /// The date a sentence carries (ZDA, valid RMC, PUBX,04), with RMC's century taken from `century` when known.
    func date(century: Int?) -> UTCDate? {
        switch self {
        case .zda(let zda): return zda.date
        case .rmc(let rmc):
            guard rmc.isValid, var date = rmc.date else { return nil }
            if let century { date.year = Int16(century + Int(date.year) % 100) }
            return date
        case .pubxTime(let pubx): return pubx.date
        default: return nil
        }
    }

    /// The time of day the sentence is stamped with, for sentences that carry one.
    var epochTime: UTCTime? {
        switch self {
        case .rmc(let rmc): rmc.time
        case .gga(let gga): gga.time
        case .gll(let gll): gll.time
        case .gns(let gns): gns.time
        case .zda(let zda): zda.time
        case .gst(let gst): gst.time
        case .gbs(let gbs): gbs.time
        case .grs(let grs): grs.time
        case .pubxPosition(let pubx): pubx.time
        case .pubxTime(let pubx): pubx.time
        default: nil
        }
    }

    /// The talker of a standard sentence (``Talker/proprietary`` for `$P…`).
    var talker: Talker {
        switch self {
        case .rmc(let value): value.talker
        case .gga(let value): value.talker
        case .gsa(let value): value.talker
        case .gsv(let value): value.talker
        case .gll(let value): value.talker
        case .vtg(let value): value.talker
        case .zda(let value): value.talker
        case .gst(let value): value.talker
        case .gns(let value): value.talker
        case .gbs(let value): value.talker
        case .grs(let value): value.talker
        case .txt(let value): value.talker
        case .dtm(let value): value.talker
        case .hdt(let value): value.talker
        case .ths(let value): value.talker
        case .unknown(let sentence): sentence.talker
        case .pubxPosition, .pubxSatellites, .pubxTime, .pgrme, .pgrmz, .pgrmm: .proprietary
        }
    }
}

extension SentenceKind {
    /// The address type this kind is decoded from.
    public var sentenceType: SentenceType {
        switch self {
        case .rmc: .rmc
        case .gga: .gga
        case .gsa: .gsa
        case .gsv: .gsv
        case .gll: .gll
        case .vtg: .vtg
        case .zda: .zda
        case .gst: .gst
        case .gns: .gns
        case .gbs: .gbs
        case .grs: .grs
        case .txt: .txt
        case .dtm: .dtm
        case .hdt: .hdt
        case .ths: .ths
        case .pubxPosition, .pubxSatellites, .pubxTime: .pubx
        case .pgrme: .pgrme
        case .pgrmz: .pgrmz
        case .pgrmm: .pgrmm
        }
    }
}
