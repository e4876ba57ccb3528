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
    var magneticHeading: Double?
    /// True heading computed from HDG (magnetic plus variation): used when no HDT/THS gave one.
    var headingFromMagnetic: Double?
    var depth: Double?
    var rateOfTurn: Double?
    var pitch: Double?
    var roll: Double?
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
    var speedError: Double?
    var timeError: Double?
    /// The GPS time of week of the binary messages in the epoch (``FixAssembler/add(_:_:)-(EpochReport,_)``).
    var timeOfWeek: Int64?
    /// An Earth-centred position's local frame (``EpochReport/localFrame``).
    var localFrame: (sinLatitude: Double, cosLatitude: Double, sinLongitude: Double, cosLongitude: Double)?
    var differentialAge: Double?
    var differentialStation: Int?
    var firstSignature: SentenceSignature?
    /// When the epoch's first sentence began to arrive (see ``Fix/receivedNanoseconds``).
    var receivedNanoseconds: Int64?
    var lastSignature: SentenceSignature?
    /// The signatures seen in this epoch, a bit each (``SentenceSignature/bit``).
    var seenSignatures: UInt64 = 0
    /// The last sentence had come before in this epoch (a compass's `$HCHDG` ten times a second among a 1 Hz
    /// receiver's sentences): it cannot teach the end of the cycle, which happens once.
    var lastSignatureRepeated = false
    /// A sentence that reports the fix itself — a position, or that there is none (RMC, GGA, GNS, GLL, `$PUBX,00`)
    /// — is in the epoch. Without one the epoch only carries a time (a ZDA, a `$PUBX,04`, a GST): it never becomes a
    /// fix of its own (see ``FixAssembler/begin(_:_:lateDate:)``).
    var carriesFix = false
    /// Its position went out as a provisional fix (``FixAssembler/Options/provisionalPositions``).
    var sentProvisional = false

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
        magneticHeading = nil
        headingFromMagnetic = nil
        depth = nil
        rateOfTurn = nil
        pitch = nil
        roll = nil
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
        speedError = nil
        timeError = nil
        timeOfWeek = nil
        localFrame = nil
        differentialAge = nil
        differentialStation = nil
        firstSignature = nil
        receivedNanoseconds = nil
        lastSignature = nil
        seenSignatures = 0
        lastSignatureRepeated = false
        carriesFix = false
        sentProvisional = false
    }

    /// Moves a time-only epoch to `time`, the first time a sentence of the fix gives: its date (a ZDA's) follows
    /// across midnight, and the time-less sentences already in it stay.
    mutating func retime(to time: UTCTime) {
        if let old = self.time, let date {
            let halfDay: Int64 = 43_200_000_000_000
            let step = time.nanosecondsSinceMidnight - old.nanosecondsSinceMidnight
            if step < -halfDay {
                self.date = UTCDate(daysSinceEpoch: date.daysSinceEpoch + 1)
            } else if step > halfDay {
                self.date = UTCDate(daysSinceEpoch: date.daysSinceEpoch - 1)
            }
        }
        self.time = time
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
