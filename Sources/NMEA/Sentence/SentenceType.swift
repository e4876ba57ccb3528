/// What a sentence is: the letters after the talker (`RMC` in `$GPRMC`), or the whole address of a proprietary
/// sentence (`PGRME`, `PUBX`).
///
/// Up to eight letters are kept, packed into an integer so that comparing types costs one instruction; a longer type
/// (an unknown proprietary `$PINVMSLOPE`) is whole in ``Sentence/typeName``, a view of the sentence.
public struct SentenceType: RawRepresentable, Hashable, Sendable {
    /// The ASCII letters packed little-endian, first letter in the low byte, unused bytes zero.
    public var rawValue: UInt64

    /// The type whose packed letters are `rawValue`.
    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// A type from its letters, for example `SentenceType("RMC")`. Letters past the eighth are ignored.
    public init(_ letters: String) {
        var value: UInt64 = 0
        for (offset, byte) in letters.utf8.prefix(8).enumerated() { value |= UInt64(byte) << (8 * UInt64(offset)) }
        self.init(rawValue: value)
    }

    @inlinable
    init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8 = 0, _ e: UInt8 = 0) {
        rawValue = UInt64(a) | UInt64(b) << 8 | UInt64(c) << 16 | UInt64(d) << 24 | UInt64(e) << 32
    }

    /// Packs `count` (at most 8) bytes starting at `start`.
    @inlinable
    init(bytes start: UnsafePointer<UInt8>, count: Int) {
        var value: UInt64 = 0
        for offset in 0..<min(count, 8) { value |= UInt64(start[offset]) << (8 * UInt64(offset)) }
        rawValue = value
    }

    /// A type from three to seven letters, folded to a constant (the `static var`s below are one instruction).
    @inlinable
    init(
        letters a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar, _ d: Unicode.Scalar = "\0",
        _ e: Unicode.Scalar = "\0", _ f: Unicode.Scalar = "\0", _ g: Unicode.Scalar = "\0"
    ) {
        rawValue =
            UInt64(a.value) | UInt64(b.value) << 8 | UInt64(c.value) << 16 | UInt64(d.value) << 24
            | UInt64(e.value) << 32 | UInt64(f.value) << 40 | UInt64(g.value) << 48
    }

    /// `RMC`.
    @inlinable public static var rmc: SentenceType { SentenceType(letters: "R", "M", "C") }
    /// `GGA`.
    @inlinable public static var gga: SentenceType { SentenceType(letters: "G", "G", "A") }
    /// `GSA`.
    @inlinable public static var gsa: SentenceType { SentenceType(letters: "G", "S", "A") }
    /// `GSV`.
    @inlinable public static var gsv: SentenceType { SentenceType(letters: "G", "S", "V") }
    /// `GLL`.
    @inlinable public static var gll: SentenceType { SentenceType(letters: "G", "L", "L") }
    /// `VTG`.
    @inlinable public static var vtg: SentenceType { SentenceType(letters: "V", "T", "G") }
    /// `ZDA`.
    @inlinable public static var zda: SentenceType { SentenceType(letters: "Z", "D", "A") }
    /// `GST`.
    @inlinable public static var gst: SentenceType { SentenceType(letters: "G", "S", "T") }
    /// `GNS`.
    @inlinable public static var gns: SentenceType { SentenceType(letters: "G", "N", "S") }
    /// `GBS`.
    @inlinable public static var gbs: SentenceType { SentenceType(letters: "G", "B", "S") }
    /// `GRS`.
    @inlinable public static var grs: SentenceType { SentenceType(letters: "G", "R", "S") }
    /// `TXT`.
    @inlinable public static var txt: SentenceType { SentenceType(letters: "T", "X", "T") }
    /// `DTM`.
    @inlinable public static var dtm: SentenceType { SentenceType(letters: "D", "T", "M") }
    /// `HDT`.
    @inlinable public static var hdt: SentenceType { SentenceType(letters: "H", "D", "T") }
    /// `THS`.
    @inlinable public static var ths: SentenceType { SentenceType(letters: "T", "H", "S") }
    /// `HDG`.
    @inlinable public static var hdg: SentenceType { SentenceType(letters: "H", "D", "G") }
    /// `HDM`.
    @inlinable public static var hdm: SentenceType { SentenceType(letters: "H", "D", "M") }
    /// `ROT`.
    @inlinable public static var rot: SentenceType { SentenceType(letters: "R", "O", "T") }
    /// `DPT`.
    @inlinable public static var dpt: SentenceType { SentenceType(letters: "D", "P", "T") }
    /// `DBT`.
    @inlinable public static var dbt: SentenceType { SentenceType(letters: "D", "B", "T") }
    /// `DBS`.
    @inlinable public static var dbs: SentenceType { SentenceType(letters: "D", "B", "S") }
    /// `DBK`.
    @inlinable public static var dbk: SentenceType { SentenceType(letters: "D", "B", "K") }
    /// `WPL`.
    @inlinable public static var wpl: SentenceType { SentenceType(letters: "W", "P", "L") }
    /// `RTE`.
    @inlinable public static var rte: SentenceType { SentenceType(letters: "R", "T", "E") }
    /// `RMB`.
    @inlinable public static var rmb: SentenceType { SentenceType(letters: "R", "M", "B") }
    /// `BWC`.
    @inlinable public static var bwc: SentenceType { SentenceType(letters: "B", "W", "C") }
    /// `BWR`.
    @inlinable public static var bwr: SentenceType { SentenceType(letters: "B", "W", "R") }
    /// `BWW`.
    @inlinable public static var bww: SentenceType { SentenceType(letters: "B", "W", "W") }
    /// `BOD`.
    @inlinable public static var bod: SentenceType { SentenceType(letters: "B", "O", "D") }
    /// `APB`.
    @inlinable public static var apb: SentenceType { SentenceType(letters: "A", "P", "B") }
    /// `XTE`.
    @inlinable public static var xte: SentenceType { SentenceType(letters: "X", "T", "E") }
    /// `AAM`.
    @inlinable public static var aam: SentenceType { SentenceType(letters: "A", "A", "M") }
    /// `MWV`.
    @inlinable public static var mwv: SentenceType { SentenceType(letters: "M", "W", "V") }
    /// `MWD`.
    @inlinable public static var mwd: SentenceType { SentenceType(letters: "M", "W", "D") }
    /// `VWR`.
    @inlinable public static var vwr: SentenceType { SentenceType(letters: "V", "W", "R") }
    /// `VWT`.
    @inlinable public static var vwt: SentenceType { SentenceType(letters: "V", "W", "T") }
    /// `VHW`.
    @inlinable public static var vhw: SentenceType { SentenceType(letters: "V", "H", "W") }
    /// `VBW`.
    @inlinable public static var vbw: SentenceType { SentenceType(letters: "V", "B", "W") }
    /// `VLW`.
    @inlinable public static var vlw: SentenceType { SentenceType(letters: "V", "L", "W") }
    /// `VPW`.
    @inlinable public static var vpw: SentenceType { SentenceType(letters: "V", "P", "W") }
    /// `MTW`.
    @inlinable public static var mtw: SentenceType { SentenceType(letters: "M", "T", "W") }
    /// `MTA`.
    @inlinable public static var mta: SentenceType { SentenceType(letters: "M", "T", "A") }
    /// `MDA`.
    @inlinable public static var mda: SentenceType { SentenceType(letters: "M", "D", "A") }
    /// `XDR`.
    @inlinable public static var xdr: SentenceType { SentenceType(letters: "X", "D", "R") }
    /// `RPM`.
    @inlinable public static var rpm: SentenceType { SentenceType(letters: "R", "P", "M") }
    /// `RSA`.
    @inlinable public static var rsa: SentenceType { SentenceType(letters: "R", "S", "A") }
    /// `ALR`.
    @inlinable public static var alr: SentenceType { SentenceType(letters: "A", "L", "R") }
    /// `ALF`.
    @inlinable public static var alf: SentenceType { SentenceType(letters: "A", "L", "F") }
    /// `HBT`.
    @inlinable public static var hbt: SentenceType { SentenceType(letters: "H", "B", "T") }
    /// `TTM`.
    @inlinable public static var ttm: SentenceType { SentenceType(letters: "T", "T", "M") }
    /// `TLL`.
    @inlinable public static var tll: SentenceType { SentenceType(letters: "T", "L", "L") }
    /// u-blox `$PUBX`; the message (00, 03, 04) is its first field.
    @inlinable public static var pubx: SentenceType { SentenceType(letters: "P", "U", "B", "X") }
    /// Garmin estimated error.
    @inlinable public static var pgrme: SentenceType { SentenceType(letters: "P", "G", "R", "M", "E") }
    /// Garmin altitude.
    @inlinable public static var pgrmz: SentenceType { SentenceType(letters: "P", "G", "R", "M", "Z") }
    /// Garmin map datum.
    @inlinable public static var pgrmm: SentenceType { SentenceType(letters: "P", "G", "R", "M", "M") }
    /// Garmin sensor status.
    @inlinable public static var pgrmt: SentenceType { SentenceType(letters: "P", "G", "R", "M", "T") }
    /// Garmin output sentence enable.
    @inlinable public static var pgrmo: SentenceType { SentenceType(letters: "P", "G", "R", "M", "O") }
    /// Garmin additional waypoint information.
    @inlinable public static var pgrmw: SentenceType { SentenceType(letters: "P", "G", "R", "M", "W") }
    /// Trimble `$PTNL`; the message (GGK, AVR, PJK, VGK, VHD…) is its first field.
    @inlinable public static var ptnl: SentenceType { SentenceType(letters: "P", "T", "N", "L") }
    /// Trimble DGPS receiver status, `$PTNLDG` (also sent as `$PTNL,DG`).
    @inlinable public static var ptnldg: SentenceType { SentenceType(letters: "P", "T", "N", "L", "D", "G") }
    /// Ashtech `$PASHR`: the attitude message begins with a time, Ashtech's others with a word (`POS`, `SAT`…).
    @inlinable public static var pashr: SentenceType { SentenceType(letters: "P", "A", "S", "H", "R") }
    /// Furuno `$PFEC`; the message (GPatt, GPhve…) is its first field.
    @inlinable public static var pfec: SentenceType { SentenceType(letters: "P", "F", "E", "C") }
    /// RD Instruments attitude.
    @inlinable public static var prdid: SentenceType { SentenceType(letters: "P", "R", "D", "I", "D") }
    /// Kenwood FleetSync position (RMC-like).
    @inlinable public static var pklds: SentenceType { SentenceType(letters: "P", "K", "L", "D", "S") }
    /// Kenwood FleetSync position (GLL-like).
    @inlinable public static var pklsh: SentenceType { SentenceType(letters: "P", "K", "L", "S", "H") }
    /// Kenwood NXDN/DMR position (RMC-like).
    @inlinable public static var pknds: SentenceType { SentenceType(letters: "P", "K", "N", "D", "S") }
    /// Kenwood NXDN/DMR position (GLL-like).
    @inlinable public static var pknsh: SentenceType { SentenceType(letters: "P", "K", "N", "S", "H") }
    /// Kenwood APRS waypoint.
    @inlinable public static var pkwdwpl: SentenceType {
        SentenceType(letters: "P", "K", "W", "D", "W", "P", "L")
    }
    /// MediaTek acknowledgement.
    @inlinable public static var pmtk001: SentenceType {
        SentenceType(letters: "P", "M", "T", "K", "0", "0", "1")
    }
    /// MediaTek system message.
    @inlinable public static var pmtk010: SentenceType {
        SentenceType(letters: "P", "M", "T", "K", "0", "1", "0")
    }
    // A dual-antenna Unicore receiver's secondary antenna: the standard types with `H` after them.
    /// `GGAH`.
    @inlinable public static var ggah: SentenceType { SentenceType(letters: "G", "G", "A", "H") }
    /// `GLLH`.
    @inlinable public static var gllh: SentenceType { SentenceType(letters: "G", "L", "L", "H") }
    /// `GNSH`.
    @inlinable public static var gnsh: SentenceType { SentenceType(letters: "G", "N", "S", "H") }
    /// `GSTH`.
    @inlinable public static var gsth: SentenceType { SentenceType(letters: "G", "S", "T", "H") }
    /// `GSAH`.
    @inlinable public static var gsah: SentenceType { SentenceType(letters: "G", "S", "A", "H") }
    /// `GSVH`.
    @inlinable public static var gsvh: SentenceType { SentenceType(letters: "G", "S", "V", "H") }
    /// `RMCH`.
    @inlinable public static var rmch: SentenceType { SentenceType(letters: "R", "M", "C", "H") }
    /// `VTGH`.
    @inlinable public static var vtgh: SentenceType { SentenceType(letters: "V", "T", "G", "H") }
    /// `GRSH`.
    @inlinable public static var grsh: SentenceType { SentenceType(letters: "G", "R", "S", "H") }

    /// Calls `output` with each letter.
    @inlinable
    public func write(to output: (UInt8) -> Void) {
        var value = rawValue
        while value != 0 {
            output(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }
}

extension SentenceType: CustomStringConvertible {
    /// A readable form, for messages and tests.
    public var description: String {
        String(writing: write)
    }
}
