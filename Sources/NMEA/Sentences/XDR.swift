/// XDR, transducer measurements: any number of quadruplets of type, value, unit and transducer name.
///
///     $YXXDR,C,21.4,C,AIRTEMP,P,1.013,B,BARO,H,65.2,P,HUMIDITY*3F
///
///            1 2   3 4    5 6   7 8    n
///     $--XDR,a,x.x,a,c--c,a,x.x,a,c--c,…*hh
///
/// 1. Transducer type (``TransducerType``)
/// 2. Measurement; its sign as the type defines it (anticlockwise, compression, vacuum…)
/// 3. Unit of the measurement (a letter, as the type defines it: `C` degrees Celsius, `D` degrees, `B` bars…)
/// 4. Transducer name
/// 5. … More quadruplets, as many as the sentence holds (up to ``capacity`` kept)
///
/// Generic (`G`) and switch (`S`) transducers have no unit; a quadruplet whose fields are all empty is skipped.
public struct XDR: DecodableSentence, Hashable, Sendable {
    /// How sentences of this type are addressed.
    public static var address: SentenceAddress { .standard(.xdr) }
    /// One sentence of this type as a receiver sent it.
    public static var sample: String {
        "$YXXDR,C,21.4,C,AIRTEMP,P,1.013,B,BARO,H,65.2,P,HUMIDITY*3F"
    }

    /// The most measurements kept from one sentence (an 82-character sentence holds at most nine quadruplets of
    /// one-character fields; of a longer one, the first ten are kept, and their names in 80 bytes).
    public static let capacity = 10

    /// What a transducer measures, by the letter NMEA 0183 gives it, and the unit letters it is sent with.
    ///
    /// Decoders read only these letters (``letters``); any other is a field error, never passed on.
    public struct TransducerType: RawRepresentable, Hashable, Sendable {
        /// The ASCII letter.
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The letters NMEA 0183 4.11 defines: `A B C D F G H I L N P R S T U V`.
        public static let letters: StaticString = "ABCDFGHILNPRSTUV"

        /// `A`: angular displacement, `D` degrees (negative: anticlockwise): pitch, roll, heel, rudder.
        public static let angularDisplacement = TransducerType(rawValue: UInt8(ascii: "A"))
        /// `B`: absolute humidity, `K` kg/m³.
        public static let absoluteHumidity = TransducerType(rawValue: UInt8(ascii: "B"))
        /// `C`: temperature, `C` degrees Celsius.
        public static let temperature = TransducerType(rawValue: UInt8(ascii: "C"))
        /// `D`: linear displacement, `M` metres (negative: compression); depth.
        public static let linearDisplacement = TransducerType(rawValue: UInt8(ascii: "D"))
        /// `F`: frequency, `H` hertz.
        public static let frequency = TransducerType(rawValue: UInt8(ascii: "F"))
        /// `G`: generic, no unit.
        public static let generic = TransducerType(rawValue: UInt8(ascii: "G"))
        /// `H`: relative humidity, `P` percent.
        public static let humidity = TransducerType(rawValue: UInt8(ascii: "H"))
        /// `I`: current, `A` amperes.
        public static let current = TransducerType(rawValue: UInt8(ascii: "I"))
        /// `L`: salinity, `S` parts per thousand.
        public static let salinity = TransducerType(rawValue: UInt8(ascii: "L"))
        /// `N`: force, `N` newtons (negative: compression).
        public static let force = TransducerType(rawValue: UInt8(ascii: "N"))
        /// `P`: pressure, `B` bars or `P` pascals (negative: vacuum).
        public static let pressure = TransducerType(rawValue: UInt8(ascii: "P"))
        /// `R`: flow rate, `l` litres per second.
        public static let flowRate = TransducerType(rawValue: UInt8(ascii: "R"))
        /// `S`: switch or valve, no unit (0 off or closed, 1 on or open).
        public static let switchOrValve = TransducerType(rawValue: UInt8(ascii: "S"))
        /// `T`: tachometer, `R` revolutions per minute.
        public static let tachometer = TransducerType(rawValue: UInt8(ascii: "T"))
        /// `U`: voltage, `V` volts.
        public static let voltage = TransducerType(rawValue: UInt8(ascii: "U"))
        /// `V`: volume, `M` cubic metres.
        public static let volume = TransducerType(rawValue: UInt8(ascii: "V"))
    }

    /// One quadruplet.
    public struct Measurement: Hashable, Sendable, FixedListElement {
        public var type: TransducerType?
        public var value: FixedPoint?
        /// The unit letter as sent.
        public var unit: UInt8?
        public var name: WaypointID

        public init(type: TransducerType?, value: FixedPoint?, unit: UInt8?, name: WaypointID) {
            self.type = type
            self.value = value
            self.unit = unit
            self.name = name
        }

        public static var placeholder: Measurement { Measurement(type: nil, value: nil, unit: nil, name: .placeholder) }
    }

    /// A measurement without its name, as kept.
    @usableFromInline
    struct Reading: Hashable, Sendable, FixedListElement {
        // The value first: laid out in this order, a reading takes 16 bytes rather than 24.
        @usableFromInline var value: FixedPoint?
        @usableFromInline var type: TransducerType?
        @usableFromInline var unit: UInt8?

        @usableFromInline static var placeholder: Reading { Reading(type: nil, value: nil, unit: nil) }

        @usableFromInline
        init(type: TransducerType?, value: FixedPoint?, unit: UInt8?) {
            self.type = type
            self.value = value
            self.unit = unit
        }
    }

    /// The measurements, in order: each read whole from the compact form kept (the readings, and the names packed
    /// apart: a list of ``Measurement`` values would take 20 bytes a name whatever its length).
    public struct Measurements: RandomAccessCollection, Hashable, Sendable {
        @usableFromInline var readings = FixedList<10, Reading>()
        @usableFromInline var names = WaypointIDList<80, 10>()

        public var startIndex: Int { 0 }
        public var endIndex: Int { readings.count }

        public struct Iterator: IteratorProtocol {
            let measurements: Measurements
            var position = 0

            public mutating func next() -> Measurement? {
                guard position < measurements.count else { return nil }
                defer { position += 1 }
                return measurements[position]
            }
        }

        public func makeIterator() -> Iterator { Iterator(measurements: self) }

        public subscript(position: Int) -> Measurement {
            let reading = readings[position]
            return Measurement(type: reading.type, value: reading.value, unit: reading.unit, name: names[position])
        }

        /// Adds `measurement`; `false` when it does not fit.
        @discardableResult
        mutating func append(_ measurement: Measurement) -> Bool {
            guard !readings.isFull, !names.isFull(forLength: Int(measurement.name.count)) else { return false }
            names.append(measurement.name)
            _ = readings.append(Reading(type: measurement.type, value: measurement.value, unit: measurement.unit))
            return true
        }

        /// Equal when every value is.
        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

        /// Hashes the values ``==`` compares.
        public func hash(into hasher: inout Hasher) {
            for measurement in self { hasher.combine(measurement) }
        }
    }

    /// Who sent the sentence.
    public var talker: Talker
    public var measurements: Measurements

    /// A value with the given fields, for tests and for writing sentences.
    public init(talker: Talker = .integratedInstrumentation, measurements: [Measurement]) {
        self.talker = talker
        self.measurements = Measurements()
        for measurement in measurements where !self.measurements.append(measurement) { break }
    }

    /// Decodes `sentence`, a sentence of this type, reading its fields from `fields`.
    @inline(__always)
    public init(_ sentence: Sentence, reading fields: inout FieldReader) throws(NMEAError) {
        talker = sentence.talker
        measurements = Measurements()
        repeat {
            let type = fields.letter(in: TransducerType.letters).map(TransducerType.init(rawValue:))
            let value = fields.fixedPoint()
            let unit = fields.letter(in: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
            let name = fields.waypointID()
            if type != nil || value != nil || unit != nil || !name.isEmpty {
                guard measurements.append(Measurement(type: type, value: value, unit: unit, name: name)) else { break }
            }
        } while fields.hasMore
        try fields.requireRead(1)
    }

    /// Hands each named value to `sink`, in the order of the field diagram.
    public func describe(to sink: inout some SentenceFieldSink) {
        sink.beginList("measurements")
        for measurement in measurements {
            sink.beginGroup()
            sink.field("type", letter: measurement.type?.rawValue)
            sink.field("value", measurement.value)
            sink.field("unit", letter: measurement.unit)
            if !measurement.name.isEmpty { sink.field("name", letters: measurement.name.bytes) }
            sink.endGroup()
        }
        sink.endList()
    }
}
