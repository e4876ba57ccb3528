extension FixAssembler {
    // MARK: Each type: its time and place in the cycle come first (they may close the epoch in progress), then its
    // facts are merged. Each returns the sentence's signature, or `nil` when it belonged to an epoch already handed
    // out (and nothing more is to be done).

    mutating func handle(_ rmc: RMC, as type: SentenceType = .rmc) -> SentenceSignature? {
        let signature = SentenceSignature(rmc.talker, type)
        guard begin(rmc.time, signature, reportsFix: true, lateDate: rmc.isValid ? rmc.date : nil) else { return nil }
        merge(rmc)
        return signature
    }

    mutating func handle(_ gga: GGA, as type: SentenceType = .gga) -> SentenceSignature? {
        let signature = SentenceSignature(gga.talker, type)
        guard begin(gga.time, signature, reportsFix: true) else { return nil }
        merge(gga)
        return signature
    }

    mutating func handle(_ gns: GNS, as type: SentenceType = .gns) -> SentenceSignature? {
        let signature = SentenceSignature(gns.talker, type)
        guard begin(gns.time, signature, reportsFix: true) else { return nil }
        merge(gns)
        return signature
    }

    mutating func handle(_ gll: GLL, as type: SentenceType = .gll) -> SentenceSignature? {
        let signature = SentenceSignature(gll.talker, type)
        guard begin(gll.time, signature, reportsFix: true) else { return nil }
        merge(gll)
        return signature
    }

    mutating func handle(_ vtg: VTG, as type: SentenceType = .vtg) -> SentenceSignature? {
        merge(vtg)
        return SentenceSignature(vtg.talker, type)
    }

    mutating func handle(_ gsa: GSA, as type: SentenceType = .gsa) -> SentenceSignature? {
        merge(gsa)
        return SentenceSignature(gsa.talker, type)
    }

    mutating func handle(_ gsv: GSV, as type: SentenceType = .gsv) -> SentenceSignature? {
        merge(gsv)
        return SentenceSignature(gsv.talker, type, isLastPart: gsv.isLastPart)
    }

    mutating func handle(_ zda: ZDA) -> SentenceSignature? {
        let signature = SentenceSignature(zda.talker, .zda)
        guard begin(zda.time, signature, lateDate: zda.date) else { return nil }
        if let date = zda.date {
            century = Int(date.year) / 100 * 100
            epoch.date = date
        }
        return signature
    }

    mutating func handle(_ gst: GST, as type: SentenceType = .gst) -> SentenceSignature? {
        let signature = SentenceSignature(gst.talker, type)
        guard begin(gst.time, signature) else { return nil }
        merge(gst)
        return signature
    }

    mutating func handle(_ gbs: GBS) -> SentenceSignature? {
        let signature = SentenceSignature(gbs.talker, .gbs)
        guard begin(gbs.time, signature) else { return nil }
        return signature
    }

    mutating func handle(_ grs: GRS, as type: SentenceType = .grs) -> SentenceSignature? {
        let signature = SentenceSignature(grs.talker, type)
        guard begin(grs.time, signature) else { return nil }
        return signature
    }

    mutating func handle(_ pubx: PUBXPosition) -> SentenceSignature? {
        let signature = SentenceSignature(.proprietary, .pubx)
        guard begin(pubx.time, signature, reportsFix: true) else { return nil }
        merge(pubx)
        return signature
    }

    mutating func handle(_ pubx: PUBXTime) -> SentenceSignature? {
        let signature = SentenceSignature(.proprietary, .pubx, isLastPart: false)
        guard begin(pubx.time, signature, lateDate: pubx.date) else { return nil }
        if let date = pubx.date { epoch.date = epoch.date ?? date }
        return signature
    }

    mutating func handle(_ pgrme: PGRME) -> SentenceSignature? {
        if let error = pgrme.horizontalErrorMeters { epoch.horizontalError = error.doubleValue }
        if let error = pgrme.verticalErrorMeters { epoch.verticalError = error.doubleValue }
        return SentenceSignature(.proprietary, .pgrme)
    }

    mutating func handle(_ pgrmz: PGRMZ) -> SentenceSignature? {
        if let meters = pgrmz.altitudeMeters { epoch.altitude = epoch.altitude ?? meters }
        return SentenceSignature(.proprietary, .pgrmz)
    }

    mutating func handle(_ hdt: HDT) -> SentenceSignature? {
        if let heading = hdt.headingDegrees { epoch.heading = heading.doubleValue }
        return SentenceSignature(hdt.talker, .hdt)
    }

    mutating func handle(_ hdg: HDG) -> SentenceSignature? {
        if let magnetic = hdg.magneticHeadingDegrees {
            epoch.magneticHeading = magnetic
            epoch.headingFromMagnetic = hdg.trueHeadingDegrees
        }
        return SentenceSignature(hdg.talker, .hdg)
    }

    mutating func handle(_ hdm: HDM) -> SentenceSignature? {
        if let magnetic = hdm.headingMagneticDegrees { epoch.magneticHeading = magnetic.doubleValue }
        return SentenceSignature(hdm.talker, .hdm)
    }

    mutating func handle(_ dpt: DPT) -> SentenceSignature? {
        if let depth = dpt.depthMeters { epoch.depth = depth.doubleValue }
        return SentenceSignature(dpt.talker, .dpt)
    }

    mutating func handle(_ dbt: DBT) -> SentenceSignature? {
        if let depth = dbt.depth.bestMeters { epoch.depth = depth }
        return SentenceSignature(dbt.talker, .dbt)
    }

    mutating func handle(_ rot: ROT) -> SentenceSignature? {
        if rot.isValid != false, let rate = rot.degreesPerMinute { epoch.rateOfTurn = rate.doubleValue }
        return SentenceSignature(rot.talker, .rot)
    }

    mutating func handle(_ ths: THS) -> SentenceSignature? {
        if ths.isValid, let heading = ths.headingDegrees { epoch.heading = heading.doubleValue }
        return SentenceSignature(ths.talker, .ths)
    }

    // Attitude sentences: a true heading (as HDT's), pitch and roll into the epoch in progress. Their own times (an
    // inertial system's `$PASHR` comes 25 times a second) neither open nor close epochs, as gpsd also leaves them.

    mutating func handle(_ pashr: PASHR) -> SentenceSignature? {
        mergeAttitude(heading: pashr.trueHeadingDegrees, pitch: pashr.pitchDegrees, roll: pashr.rollDegrees)
        return SentenceSignature(.proprietary, .pashr)
    }

    mutating func handle(_ avr: PTNLAVR) -> SentenceSignature? {
        if avr.isValid { mergeAttitude(heading: avr.yawDegrees, pitch: avr.tiltDegrees, roll: avr.rollDegrees) }
        return SentenceSignature(.proprietary, .ptnl, isLastPart: false)
    }

    mutating func handle(_ prdid: PRDID) -> SentenceSignature? {
        mergeAttitude(heading: prdid.headingDegrees, pitch: prdid.pitchDegrees, roll: prdid.rollDegrees)
        return SentenceSignature(.proprietary, .prdid)
    }

    mutating func handle(_ attitude: PFECAttitude) -> SentenceSignature? {
        mergeAttitude(heading: attitude.headingDegrees, pitch: attitude.pitchDegrees, roll: attitude.rollDegrees)
        return SentenceSignature(.proprietary, .pfec, isLastPart: false)
    }

    mutating func mergeAttitude(heading: FixedPoint?, pitch: FixedPoint?, roll: FixedPoint?) {
        if let heading { epoch.heading = Heading.normalized(heading.doubleValue) }
        if let pitch { epoch.pitch = pitch.doubleValue }
        if let roll { epoch.roll = roll.doubleValue }
    }

    // A dual-antenna receiver's secondary antenna (`GGAH`…): merged as its standard type by `merge` while the receiver
    // has sent no sentence of that type (which is the primary antenna's), otherwise only its place in the cycle.

    /// `true` once the receiver has sent a sentence of `kind`, a standard type with a secondary-antenna variant.
    func hasSentPrimary(_ kind: SentenceKind) -> Bool {
        let type = PrimaryTypes(kind)
        return !type.isEmpty && primaryTypes.contains(type)
    }

    /// Notes that the receiver sends `type` itself, and hands `signature` on.
    mutating func primary(_ type: PrimaryTypes, _ signature: SentenceSignature?) -> SentenceSignature? {
        primaryTypes.insert(type)
        return signature
    }

    /// The standard types that have a secondary-antenna variant.
    struct PrimaryTypes: OptionSet, Sendable {
        var rawValue: UInt16
        static let gga = PrimaryTypes(rawValue: 1 << 0)
        static let gll = PrimaryTypes(rawValue: 1 << 1)
        static let gns = PrimaryTypes(rawValue: 1 << 2)
        static let gst = PrimaryTypes(rawValue: 1 << 3)
        static let gsa = PrimaryTypes(rawValue: 1 << 4)
        static let gsv = PrimaryTypes(rawValue: 1 << 5)
        static let rmc = PrimaryTypes(rawValue: 1 << 6)
        static let vtg = PrimaryTypes(rawValue: 1 << 7)
        static let grs = PrimaryTypes(rawValue: 1 << 8)

        init(rawValue: UInt16) { self.rawValue = rawValue }

        /// The bit of `kind`; none for a kind without a secondary-antenna variant.
        init(_ kind: SentenceKind) {
            switch kind {
            case .gga: self = .gga
            case .gll: self = .gll
            case .gns: self = .gns
            case .gst: self = .gst
            case .gsa: self = .gsa
            case .gsv: self = .gsv
            case .rmc: self = .rmc
            case .vtg: self = .vtg
            case .grs: self = .grs
            default: self = []
            }
        }
    }

    /// After a sentence's facts are merged: notes its place in the cycle, and hands the epoch out when this
    /// sentence ends the learned cycle; the first position, and while no cycle end is known every epoch's, goes out
    /// at once, as a provisional fix, when asked for them (``Options/provisionalPositions``).
    mutating func finishSentence(_ signature: SentenceSignature) {
        if epoch.firstSignature == nil {
            epoch.firstSignature = signature
            epoch.receivedNanoseconds = sentenceReceivedNanoseconds
        }
        epoch.lastSignature = signature
        let bit = signature.bit
        epoch.lastSignatureRepeated = epoch.seenSignatures & bit != 0
        epoch.seenSignatures |= bit
        if let cycleEnd, signature == cycleEnd, epoch.time != nil, epoch.carriesFix {
            statistics.epochsClosedByCycleEnd += 1
            close(learning: false)
        } else if options.provisionalPositions && (cycleEnd == nil || !firstPositionPublished)
            && !epoch.sentProvisional && epoch.hasPosition
        {
            // The first position at once whatever is known (epochs without a fix may have taught the cycle's end),
            // and every epoch's while the end is not known.
            firstPositionPublished = true
            epoch.sentProvisional = true
            build(date: epoch.date ?? currentDate)
            output.isProvisional = true
            statistics.provisionalFixes += 1
            queueOutput()
        }
    }

    /// Places a sentence stamped `time` in the epochs: a new time closes the epoch in progress. Returns `false` for
    /// a sentence that belongs to an epoch already handed out (it is counted, and any date it carries still dates
    /// the fixes waiting for one).
    ///
    /// `reportsFix` is `true` for the sentences that report the fix itself (a position, or that there is none). An
    /// epoch that has none of them only carries a time — a ZDA sent a moment before the GGA it belongs with, at the
    /// whole second before `.379`, or a receiver's ZDA two seconds ahead of its fix: a new time does not close it
    /// (it would be a fix of its own, without a position, and cut the track), it moves it to the new time.
    mutating func begin(
        _ time: UTCTime?, _ signature: SentenceSignature, reportsFix: Bool = false, lateDate: UTCDate? = nil
    ) -> Bool {
        guard let time, epoch.time != time else {
            if reportsFix { epoch.carriesFix = true }
            return true
        }
        if epoch.time != nil && epoch.carriesFix { close(learning: true) }
        if closedTime == time && signature != closedFirstSignature {
            // Data for the epoch already handed out: the learned cycle end was wrong. (The same time with the
            // cycle's first sentence is a new epoch: receivers at 5 Hz with whole-second times repeat times.)
            statistics.lateSentences += 1
            if cycleEnd != nil { cycleEndWasWrong = true }
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
        epoch.retime(to: time)
        if reportsFix { epoch.carriesFix = true }
        return true
    }

    /// Ends the input: hands out the epoch in progress and any fixes still waiting for a date (without one).
    public mutating func finish(_ emit: (Fix) -> Void) {
        close(learning: false)
        for var fix in waitingForDate {
            fix.date = nil
            statistics.undatedFixes += 1
            queue(fix)
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
        cycleEndWasWrong = false
        closedTime = nil
    }

    /// ``reset()`` for the next input of a ``FixReader``, which may be another receiver's: what described the last
    /// receiver — its sky, kept for epochs without GSV, the dimension of its last fix, and which standard types it
    /// sent (so that a second antenna's stand in for them) — is forgotten too. Dates
    /// are kept, so a log cut in two reads as one.
    mutating func startNewInput() {
        reset()
        latestReceived = nil
        output.satellites.removeAll()
        lastMode = nil
        primaryTypes = []
    }
}

// MARK: Each type's merge: the witnesses of `DecodableSentence.merge(into:)` for the types that carry fix data (the
// others take the default, their place in the cycle), and of `SecondaryAntennaVariant.merge(into:as:)`.

extension RMC {
    /// Merges its facts into the epoch, and notes that the receiver sends `RMC` itself (see ``SecondaryAntenna``).
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        assembler.primary(.rmc, assembler.handle(self))
    }

    /// Merges its facts into the epoch as a sentence of `type`.
    public func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature? {
        assembler.handle(self, as: type)
    }
}

extension GGA {
    /// Merges its facts into the epoch, and notes that the receiver sends `GGA` itself (see ``SecondaryAntenna``).
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        assembler.primary(.gga, assembler.handle(self))
    }

    /// Merges its facts into the epoch as a sentence of `type`.
    public func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature? {
        assembler.handle(self, as: type)
    }
}

extension GNS {
    /// Merges its facts into the epoch, and notes that the receiver sends `GNS` itself (see ``SecondaryAntenna``).
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        assembler.primary(.gns, assembler.handle(self))
    }

    /// Merges its facts into the epoch as a sentence of `type`.
    public func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature? {
        assembler.handle(self, as: type)
    }
}

extension GLL {
    /// Merges its facts into the epoch, and notes that the receiver sends `GLL` itself (see ``SecondaryAntenna``).
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        assembler.primary(.gll, assembler.handle(self))
    }

    /// Merges its facts into the epoch as a sentence of `type`.
    public func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature? {
        assembler.handle(self, as: type)
    }
}

extension VTG {
    /// Merges its facts into the epoch, and notes that the receiver sends `VTG` itself (see ``SecondaryAntenna``).
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        assembler.primary(.vtg, assembler.handle(self))
    }

    /// Merges its facts into the epoch as a sentence of `type`.
    public func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature? {
        assembler.handle(self, as: type)
    }
}

extension GSA {
    /// Merges its facts into the epoch, and notes that the receiver sends `GSA` itself (see ``SecondaryAntenna``).
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        assembler.primary(.gsa, assembler.handle(self))
    }

    /// Merges its facts into the epoch as a sentence of `type`.
    public func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature? {
        assembler.handle(self, as: type)
    }
}

extension GSV {
    /// Merges its facts into the epoch, and notes that the receiver sends `GSV` itself (see ``SecondaryAntenna``).
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        assembler.primary(.gsv, assembler.handle(self))
    }

    /// Merges its facts into the epoch as a sentence of `type`.
    public func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature? {
        assembler.handle(self, as: type)
    }
}

extension GST {
    /// Merges its facts into the epoch, and notes that the receiver sends `GST` itself (see ``SecondaryAntenna``).
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        assembler.primary(.gst, assembler.handle(self))
    }

    /// Merges its facts into the epoch as a sentence of `type`.
    public func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature? {
        assembler.handle(self, as: type)
    }
}

extension GRS {
    /// Merges its facts into the epoch, and notes that the receiver sends `GRS` itself (see ``SecondaryAntenna``).
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? {
        assembler.primary(.grs, assembler.handle(self))
    }

    /// Merges its facts into the epoch as a sentence of `type`.
    public func merge(into assembler: inout FixAssembler, as type: SentenceType) -> SentenceSignature? {
        assembler.handle(self, as: type)
    }
}

extension ZDA {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension GBS {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension PUBXPosition {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension PUBXTime {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension PGRME {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension PGRMZ {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension HDT {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension THS {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension HDG {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension HDM {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension DPT {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension DBT {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension ROT {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension PASHR {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension PTNLAVR {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension PRDID {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}

extension PFECAttitude {
    /// Merges its facts into the epoch.
    public func merge(into assembler: inout FixAssembler) -> SentenceSignature? { assembler.handle(self) }
}
