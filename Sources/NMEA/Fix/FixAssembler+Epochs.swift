extension FixAssembler {
    // MARK: Closing an epoch

    mutating func close(learning: Bool) {
        guard let time = epoch.time else {
            // Only time-less sentences so far: they belong to the next epoch.
            return
        }
        guard epoch.carriesFix else {
            // Only a time (a ZDA at the end of a log): no fix of its own, but its date dates what waits for one.
            if let date = epoch.date {
                let (corrected, wasCorrected) = correctingRollover(date)
                if wasCorrected { statistics.weekRolloverCorrections += 1 } else { lastGoodDate = date }
                currentDate = corrected
                lastEpochTime = time
                releaseWaiting(before: corrected, at: time)
            }
            epoch.reset()
            return
        }
        if learning { learnCycleEnd() }
        // The date: this epoch's own (corrected for rollover), else the running date carried over midnight.
        var date: UTCDate?
        var corrected = false
        if let own = epoch.date {
            (date, corrected) = FixAssembler.correctingRollover(
                own, reference: options.referenceDate,
                lastGood: lastGoodDate)
            if corrected { statistics.weekRolloverCorrections += 1 } else { lastGoodDate = own }
            currentDate = date
        } else if let received = latestReceived {
            date = FixAssembler.date(of: time, receivedAt: received)
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
        output.dateIsFromEpoch = epoch.date != nil
        if output.hasPosition { lastMode = output.mode }
        closedTime = time
        closedFirstSignature = epoch.firstSignature
        epoch.reset()
        handOutput()
    }

    /// Learns the cycle's end from the epoch's last sentence.
    private mutating func learnCycleEnd() {
        guard let last = epoch.lastSignature, !epoch.lastSignatureRepeated else { return }
        if last == candidateEnd {
            candidateCount += 1
        } else {
            candidateEnd = last
            candidateCount = 1
        }
        // Two epochs in a row teach the cycle's end; for live displays (``Options/provisionalPositions``) the
        // first epoch alone does, so that the second epoch's fix is not a cycle late, until a late sentence
        // shows a lesson wrong: from then on, two again.
        let lessons = options.provisionalPositions && !cycleEndWasWrong ? 1 : 2
        if candidateCount >= lessons { cycleEnd = candidateEnd }
    }

    /// Hands out ``output``, or holds it while no date is known; releases held fixes once one is.
    mutating func handOutput() {
        guard let date = output.date else {
            if waitingForDate.count < options.backfillLimit {
                if waitingForDate.isEmpty { waitingForDate.reserveCapacity(64) }
                waitingForDate.append(output)
            } else {
                countOutput()
                statistics.undatedFixes += 1
                queueOutput()
            }
            return
        }
        releaseWaiting(before: date, at: output.time)
        countOutput()
        queueOutput()
    }

    /// Queues the fix just built in ``output`` to be handed out after the sentence. It stays where it was built
    /// (no copy of a 1.2 KB `Fix`, no queue storage: firmware allocates nothing) unless another fix is built or
    /// queued behind it before then, which moves it into ``completedFixes`` first (see ``spillOutput()``).
    mutating func queueOutput() {
        spillOutput()
        outputIsQueued = true
    }

    /// Queues `fix`, behind the fixes queued before it.
    mutating func queue(_ fix: Fix) {
        spillOutput()
        completedFixes.append(fix)
    }

    /// Moves a queued ``output`` into ``completedFixes``, before ``output`` is built again or another fix queued.
    mutating func spillOutput() {
        guard outputIsQueued else { return }
        completedFixes.append(output)
        outputIsQueued = false
    }

    /// Dates the fixes waiting for a date, walking back from `date` at `time` and stepping back a day each time
    /// the clock runs backwards past midnight, and hands them out.
    mutating func releaseWaiting(before date: UTCDate, at time: UTCTime?) {
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
            queue(held)
        }
        waitingForDate.removeAll()
    }

    /// The date of a fix at `time` of day received at `received` (milliseconds since 1970): the receive moment's UTC
    /// day, or the day before or after when that puts the fix nearer the moment (a fix just before midnight
    /// received just after it, or a receive clock running a little fast or slow).
    static func date(of time: UTCTime, receivedAt received: Int64) -> UTCDate {
        let day: Int64 = 86_400_000
        var days = received.flooredDivision(by: day).quotient
        let fixMilliseconds = days * day + time.nanosecondsSinceMidnight / 1_000_000
        if fixMilliseconds - received > day / 2 {
            days -= 1
        } else if received - fixMilliseconds > day / 2 {
            days += 1
        }
        return UTCDate(daysSinceEpoch: Int(days))
    }

    /// A date that arrived after its epoch was handed out: it becomes the running date, and dates held fixes.
    mutating func lateDate(_ date: UTCDate) {
        let (corrected, wasCorrected) = correctingRollover(date)
        if wasCorrected { statistics.weekRolloverCorrections += 1 } else { lastGoodDate = date }
        currentDate = corrected
        // The held fix of that very epoch takes the date itself; earlier ones count back from it.
        releaseWaiting(before: corrected, at: closedTime)
    }

    mutating func countOutput() {
        statistics.fixes += 1
        if !output.hasPosition { statistics.fixesWithoutPosition += 1 }
    }

    /// `date`, moved forward 1024 weeks (once or more) when it is a week-rollover victim.
    func correctingRollover(_ date: UTCDate) -> (UTCDate, Bool) {
        FixAssembler.correctingRollover(date, reference: options.referenceDate, lastGood: lastGoodDate)
    }

    /// The rollover rule itself, apart from the assembler's state (so calling it copies nothing).
    static func correctingRollover(_ date: UTCDate, reference: UTCDate?, lastGood: UTCDate?)
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
    mutating func build(date: UTCDate?) {
        spillOutput()
        output.date = date
        output.time = epoch.time
        output.isProvisional = false
        output.dateWasCorrected = false
        output.receivedNanoseconds = epoch.receivedNanoseconds
        let valid =
            epoch.latitude != nil
            && (epoch.gsaMode != FixMode.none || epoch.ggaQuality != nil
                || epoch.modeQuality != nil)
        if valid {
            buildPosition()
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
        output.headingDegrees = epoch.heading ?? epoch.headingFromMagnetic
        output.magneticHeadingDegrees = epoch.magneticHeading
        output.depthMeters = epoch.depth
        output.rateOfTurnDegreesPerMinute = epoch.rateOfTurn
        output.pitchDegrees = epoch.pitch
        output.rollDegrees = epoch.roll
        output.hdop = epoch.hdop
        output.vdop = epoch.vdop
        output.pdop = epoch.pdop
        output.satellitesUsed = epoch.satellitesUsed ?? (epoch.usedCount == 0 ? nil : epoch.usedCount)
        output.latitudeErrorMeters = epoch.latitudeError
        output.longitudeErrorMeters = epoch.longitudeError
        output.horizontalErrorMeters = epoch.horizontalError
        output.verticalErrorMeters = epoch.verticalError
        output.speedErrorMetersPerSecond = epoch.speedError
        output.timeErrorSeconds = epoch.timeError
        output.differentialAgeSeconds = epoch.differentialAge
        output.differentialStationID = epoch.differentialStation
        // The sky: this epoch's GSVs, else the last one seen (still in `output`).
        if epoch.sawGSV { output.satellites = epoch.sky }
        if epoch.usedCount > 0 { output.satellites.markUsed(epoch.used) }
    }

    /// The position of a valid fix: where, how (quality, mode), the altitude and the motion.
    private mutating func buildPosition() {
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
    }
}
