import CAllocationCounter
import Testing

@testable import NMEA

/// Framing and decoding allocate nothing: the promise the hot path is built on.
///
/// The counter (Tests/CAllocationCounter) replaces malloc and friends for the whole test process and counts the calls
/// made by the current thread between `start` and `stop`. The test functions are synchronous, so nothing else runs on
/// their thread in between. The suite is serialized because suspending the runtime's throw hooks is process-wide.
@Suite("Allocations", .serialized)
struct AllocationTests {
    /// The counter sees allocations at all: without this, "zero allocations" would prove nothing.
    @Test("positive control: an Array allocated in the counted window is counted")
    func counterSeesAnArrayAllocation() {
        let count = opaque(16)
        nmea_allocation_counter_start()
        let array = [Int](repeating: 7, count: count)
        let allocations = nmea_allocation_counter_stop()
        #expect(array.count == 16)
        #expect(nmea_allocation_counter_is_active() != 0)
        #expect(allocations == 1)
        #expect(nmea_allocation_counter_bytes() >= 16 * MemoryLayout<Int>.stride)
    }

    /// Counting is off outside the window, and the counters start from zero.
    @Test("the counter counts only between start and stop")
    func counterCountsOnlyInsideTheWindow() {
        nmea_allocation_counter_start()
        let allocations = nmea_allocation_counter_stop()
        let outside = [Int](repeating: 1, count: opaque(8))
        #expect(outside.count == 8)
        #expect(allocations == 0)
        #expect(nmea_allocation_counter_allocations() == 0)
    }

    @Test("framing in 4096-byte chunks and decoding every sentence allocates nothing")
    func framingAndDecodingAllocateNothing() throws {
        let workload = AllocationWorkload(minimumSentences: 100_000)
        #expect(workload.sentencesPerBlock == 98)
        #expect(workload.repetitions == 1021)

        // Warm-up: the first pass fills the runtime's caches (type metadata and the like), which allocate once.
        var warmUpFramer = Framer(maximumLength: 1024, checksumPolicy: .required)
        var warmUpDecoder = DecoderStatistics()
        var warmUpSink = 0
        workload.run(&warmUpFramer, &warmUpDecoder, &warmUpSink)

        // Everything the counted pass uses is made before counting starts.
        var framer = Framer(maximumLength: 1024, checksumPolicy: .required)
        var decoder = DecoderStatistics()
        var sink = 0

        // Swift Testing's will-throw hook captures a backtrace (and allocates) at every `throw`; the library's own
        // throws (a decode failure, an empty address) allocate nothing without it, as in any program that sets none.
        nmea_allocation_window_open()
        workload.run(&framer, &decoder, &sink)
        let allocations = nmea_allocation_window_close()
        let bytes = nmea_allocation_counter_bytes()

        #expect(allocations == 0, "framing and decoding allocated \(allocations) times (\(bytes) bytes)")

        // The pass did the work it was meant to do.
        let blocks = workload.repetitions
        #expect(framer.statistics == AllocationWorkload.framerStatisticsPerBlock.times(blocks))
        #expect(framer.statistics.sentences == 98 * blocks)
        #expect(framer.statistics.sentences >= 100_000)
        #expect(decoder.failed == blocks)
        #expect(decoder.unknown == 3 * blocks)
        for kind in SentenceKind.allCases {
            let expected = (kind == .rmc || kind == .gsa || kind == .gsv || kind == .hdt || kind == .ptnlDG) ? 2 : 1
            #expect(decoder[kind] == expected * blocks, "\(kind.name)")
        }
        #expect(decoder.totalDecoded + decoder.unknown + decoder.failed == framer.statistics.sentences)
        #expect(sink == warmUpSink)
        #expect(warmUpFramer.statistics == framer.statistics)
        #expect(warmUpDecoder == decoder)
    }

    @Test("reading through a FixReader into fixes, with every sentence handed out, allocates nothing")
    func fixReaderAllocatesNothing() throws {
        let workload = AllocationWorkload(minimumSentences: 100_000)
        // The counted pass reads a second input with the same reader: the warm-up grew the queue that hands out
        // fixes (storage the reader keeps) and filled the runtime's caches.
        var reader = FixReader()
        var handler = AllocationWorkload.Touching()
        var fixes = 0
        workload.read(&reader, &handler, &fixes)
        let warmUp = reader.statistics
        let warmUpFixes = fixes
        let warmUpSink = handler.sink
        #expect(warmUpFixes > 1000)

        nmea_allocation_window_open()
        workload.read(&reader, &handler, &fixes)
        let allocations = nmea_allocation_window_close()
        let bytes = nmea_allocation_counter_bytes()

        #expect(allocations == 0, "reading allocated \(allocations) times (\(bytes) bytes)")
        // The counted pass did the same work again.
        let statistics = reader.statistics
        #expect(statistics.framer == warmUp.framer.times(2))
        #expect(statistics.decoder == warmUp.decoder + warmUp.decoder)
        #expect(statistics.assembler.fixes == 2 * warmUp.assembler.fixes)
        #expect(fixes == 2 * warmUpFixes)
        #expect(handler.sink == 2 &* warmUpSink)
        // The workload's one undecodable sentence per block (a bad field) is read without that field: the path that
        // records field errors allocates nothing either.
        #expect(statistics.decoder.withFieldErrors == workload.repetitions * 2)
        #expect(statistics.decoder.failed == 0)
    }

    /// Issue 27: with its framer in the caller's storage, a reader allocates nothing for its first input either:
    /// no buffer, and no queue for its fixes (each is handed out from where it was built). (It is made before the
    /// window: a debug build boxes some initializers' temporaries; the firmware, `HEAP 0` in `EmbeddedFirmwareTests`,
    /// shows an optimized one allocates nothing from its creation on.)
    @Test("a FixReader with its framer in the caller's storage allocates nothing, from its first byte on")
    func fixReaderInCallerStorageAllocatesNothing() throws {
        let workload = AllocationWorkload(minimumSentences: 20_000)
        // Warm-up, with another reader: the runtime's caches (type metadata and the like) allocate once.
        var warmUp = FixReader()
        var handler = AllocationWorkload.Touching()
        var warmUpFixes = 0
        workload.read(&warmUp, &handler, &warmUpFixes)

        let storage = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Framer.storageSize(maximumLength: 1024), alignment: 8)
        defer { storage.deallocate() }
        var reader = FixReader(framerStorage: storage)
        var fixes = 0
        nmea_allocation_window_open()
        workload.read(&reader, &handler, &fixes)
        let allocations = nmea_allocation_window_close()

        let bytes = nmea_allocation_counter_bytes()
        #expect(allocations == 0, "the reader allocated \(allocations) times (\(bytes) bytes)")
        #expect(fixes == warmUpFixes)
        #expect(fixes > 100)
        #expect(reader.statistics.framer == warmUp.statistics.framer)
        #expect(reader.statistics.assembler.fixes == warmUp.statistics.assembler.fixes)
    }

    /// Issue 12, item 14: a UTF-16 input (transcoded through the reader's one buffer, allocated for the first such
    /// input) and Android GnssLogger lines (their receive time in each sentence's context) allocate nothing either;
    /// nor do TAG blocks and leading timestamps (issue 13).
    @Test("reading UTF-16, Android GnssLogger lines and TAG blocks through a FixReader allocates nothing")
    func utf16AndAndroidLinesAllocateNothing() throws {
        let workload = AllocationWorkload(minimumSentences: 20_000)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for byte in workload.input { utf16 += [byte, 0] }
        var android: [UInt8] = []
        for second in 0..<2000 {
            let time = String(100_000 + second)
            let gga = withChecksum("$GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            let rmc = withChecksum("$GPRMC,\(time),A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
            android += Array("NMEA,\(gga),\(1_699_400_577_561 + second * 1000)\n".utf8)
            android += Array("NMEA,\(rmc),\(1_699_400_577_566 + second * 1000)\r\n".utf8)
        }
        // Issue 13: TAG blocks (one with a bad checksum in ten) and leading timestamps on a GGA-only log, dated by
        // its receive times.
        var tagged: [UInt8] = []
        for second in 0..<2000 {
            let time = String(100_000 + second)
            let gga = withChecksum("$GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
            let stamp = 1_699_400_577_561 + second * 1000
            let block = "c:\(stamp),s:GP0001,n:\(second)"
            tagged += Array((tagBlock(block, checksum: second % 10 == 0 ? 0 : nil) + gga + "\r\n").utf8)
            tagged += Array("\(stamp / 1000).\(stamp % 1000) \(gga)\n".utf8)
        }
        var reader = FixReader()
        var handler = AllocationWorkload.Touching()
        var fixes = 0
        let inputs = [utf16, android, tagged]
        AllocationWorkload.read(inputs, &reader, &handler, &fixes)
        let warmUp = reader.statistics
        let warmUpFixes = fixes

        nmea_allocation_window_open()
        AllocationWorkload.read(inputs, &reader, &handler, &fixes)
        let allocations = nmea_allocation_window_close()
        let bytes = nmea_allocation_counter_bytes()

        #expect(allocations == 0, "reading allocated \(allocations) times (\(bytes) bytes)")
        #expect(reader.statistics.framer == warmUp.framer.times(2))
        #expect(warmUp.framer.sentencesWithReceiveTime == 4000 + 1800 + 2000)
        #expect(warmUp.framer.tagBlocks == 1800 && warmUp.framer.tagBlockChecksumMismatches == 200)
        #expect(warmUp.framer.leadingTimestamps == 2000)
        #expect(warmUp.framer.sentences == 98 * workload.repetitions + 4000 + 4000)
        #expect(fixes == 2 * warmUpFixes && warmUpFixes > 2000)
    }
}

extension AllocationWorkload {
    /// Reads the input in 4096-byte chunks through `reader`, then finishes it; counts the fixes.
    func read(_ reader: inout FixReader, _ handler: inout Touching, _ fixes: inout Int) {
        input.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let chunk = UnsafeRawBufferPointer(rebasing: all[offset..<min(offset + 4096, all.count)])
                reader.read(chunk, handler: &handler) { _ in fixes &+= 1 }
                offset += chunk.count
            }
        }
        reader.finish(handler: &handler) { _ in fixes &+= 1 }
    }

    /// Reads each of `inputs` in 4095-byte chunks through `reader`, finishing each; counts the fixes.
    static func read(_ inputs: [[UInt8]], _ reader: inout FixReader, _ handler: inout Touching, _ fixes: inout Int) {
        // (By index: a `for input in inputs` loop's iterator allocates in a debug build.)
        for index in inputs.indices {
            inputs[index].withUnsafeBytes { all in
                var offset = 0
                while offset < all.count {
                    let chunk = UnsafeRawBufferPointer(rebasing: all[offset..<min(offset + 4095, all.count)])
                    reader.read(chunk, handler: &handler) { _ in fixes &+= 1 }
                    offset += chunk.count
                }
            }
            reader.finish(handler: &handler) { _ in fixes &+= 1 }
        }
    }

    /// Reads every value handed out, as `fingerprint` does, so that the decoding cannot be skipped.
    struct Touching: FixReader.Handler {
        var sink = 0

        mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {
            sink &+= AllocationWorkload.fingerprint(ParsedSentence(decoded)) &+ context.line
        }

        mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) {
            sink &+= sentence.fieldCount
        }

        mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {
            sink &+= 7
        }

        mutating func rejected(_ rejection: Rejection, _ context: FixReader.Context) {
            sink &+= rejection.bytes.count
        }
    }
}

/// Keeps the optimizer from folding a value into a constant.
@inline(never)
func opaque<T>(_ value: T) -> T { value }

/// An in-memory input with every supported sentence type, unknown types and rejected lines, repeated.
struct AllocationWorkload {
    /// One block of input: sentences with their checksums, CRLF and LF endings, and things the framer rejects.
    static let block: [UInt8] = {
        var lines: [String] = []
        // One of each decoded type (two RMC, GSA, GSV: the NMEA 4.10 forms with system and signal IDs too, one SNR with
        // a decimal).
        lines.append(checksummed("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"))
        lines.append(checksummed("$GNRMC,083559.00,A,4717.11437,N,00833.91522,E,0.004,77.52,091202,,,A,V"))
        lines.append(checksummed("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        lines.append(checksummed("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"))
        lines.append(checksummed("$GNGSA,A,3,80,71,73,79,69,,,,,,,,1.83,1.09,1.47,2"))
        lines.append(checksummed("$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00"))
        lines.append(checksummed("$GAGSV,1,1,03,02,22,096,24.5,08,17,037,,30,38,311,,7"))
        lines.append(checksummed("$GPGLL,4916.45,N,12311.12,W,225444,A,A"))
        lines.append(checksummed("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A"))
        lines.append(checksummed("$GPZDA,201530.00,04,07,2002,00,00"))
        lines.append(checksummed("$GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031"))
        lines.append(checksummed("$GNGNS,122310.2,3722.425671,N,12258.856215,W,DAAA,14,0.9,1005.543,6.5,,,V"))
        lines.append(checksummed("$GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8,1,0"))
        lines.append(checksummed("$GPGRS,220320.0,0,-0.8,-0.2,-0.1,-0.2,0.8,0.6,,,,,,,1,0"))
        lines.append(checksummed("$GPTXT,01,01,02,ANTSTATUS=OK"))
        lines.append(checksummed("$GPDTM,W84,,0.0,N,0.0,E,0.0,W84"))
        lines.append(checksummed("$GPHDT,274.07,T"))
        lines.append(checksummed("$GPTHS,77.52,E"))
        lines.append(
            checksummed(
                "$PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0"
            ))
        lines.append(
            checksummed(
                "$PUBX,03,11,23,-,,,45,010,29,-,,,46,013,07,-,,,42,015,08,U,067,31,42,025,10,U,195,33,46,026,18,U,326,08,"
                    + "39,026,17,-,,,32,015,26,U,306,66,48,025,27,U,073,10,36,026,28,U,089,61,46,024,15,-,,,39,014"
            ))
        lines.append(checksummed("$PUBX,04,073731.00,091202,113851.00,1196,15D,1930035,-2660.664,43,"))
        lines.append(checksummed("$PGRME,15.0,M,45.0,M,25.0,M"))
        lines.append(checksummed("$PGRMZ,246,f,3"))
        lines.append(checksummed("$PGRMM,WGS 84"))
        // Issue 16: heading, rate of turn and depth.
        lines.append(checksummed("$HCHDG,98.3,0.0,E,12.6,W"))
        lines.append(checksummed("$HCHDM,238.5,M"))
        lines.append(checksummed("$TIROT,-35.6,A"))
        lines.append(checksummed("$SDDPT,2.4,-1.0,100"))
        lines.append(checksummed("$SDDBT,7.8,f,2.4,M,1.3,F"))
        lines.append(checksummed("$SDDBS,11.1,f,3.4,M,1.8,F"))
        lines.append(checksummed("$SDDBK,4.5,f,1.4,M,0.7,F"))
        // Issue 16: waypoints, routes and steering (the RMB below, unknown before, is one of them now).
        lines.append(checksummed("$GPWPL,4917.16,N,12310.64,W,003"))
        lines.append(checksummed("$GPRTE,2,1,c,0,PBRCPK,PBRTO,PTELGR,PPLAND,PYAMBU,PPFAIR,PWARRN,PMORTL,PLISMR"))
        lines.append(checksummed("$GPBWC,220516,5130.02,N,00046.34,W,213.8,T,218.0,M,0004.6,N,EGLM"))
        lines.append(checksummed("$GPBWR,220516,5130.02,N,00046.34,W,213.8,T,218.0,M,0004.6,N,EGLM"))
        lines.append(checksummed("$GPBWW,097.0,T,103.2,M,POINTB,POINTA"))
        lines.append(checksummed("$GPBOD,097.0,T,103.2,M,POINTB,POINTA"))
        lines.append(checksummed("$GPAPB,A,A,0.10,R,N,V,V,011,M,DEST,011,M,011,M"))
        lines.append(checksummed("$GPXTE,A,A,0.67,L,N"))
        lines.append(checksummed("$GPAAM,A,A,0.10,N,WPTNME"))
        lines.append(checksummed("$GPRMB,A,0.66,L,003,004,4917.24,N,12309.57,W,001.3,052.5,000.5,V"))
        // Issue 16: marine instruments, alarms and targets.
        lines.append(checksummed("$WIMWV,320.0,R,15.2,N,A"))
        lines.append(checksummed("$WIMWD,270.5,T,268.1,M,14.2,N,7.3,M"))
        lines.append(checksummed("$IIVWR,045.0,L,12.6,N,6.5,M,23.3,K"))
        lines.append(checksummed("$IIVWT,030.5,R,10.2,N,5.2,M,18.9,K"))
        lines.append(checksummed("$IIVHW,245.1,T,243.0,M,6.4,N,11.9,K"))
        lines.append(checksummed("$IIVBW,6.4,-0.2,A,6.8,0.1,A,0.3,A,0.4,A"))
        lines.append(checksummed("$IIVLW,1234.5,N,12.3,N,1220.8,N,11.9,N"))
        lines.append(checksummed("$IIVPW,4.5,N,2.3,M"))
        lines.append(checksummed("$IIMTW,18.6,C"))
        lines.append(checksummed("$WIMTA,21.4,C"))
        lines.append(checksummed("$WIMDA,29.92,I,1.013,B,21.4,C,18.6,C,65.2,,14.6,C,270.5,T,268.1,M,14.2,N,7.3,M"))
        lines.append(checksummed("$HCXDR,A,171,D,PITCH,A,-37,D,ROLL,G,367,,MAGX,G,2420,,MAGY,G,-8984,,MAGZ"))
        lines.append(checksummed("$ERRPM,E,1,2418.2,10.5,A"))
        lines.append(checksummed("$AGRSA,-5.2,A,-4.9,A"))
        lines.append(checksummed("$RAALR,092751.00,011,A,V,TARGET LOST"))
        lines.append(checksummed("$HEALF,1,1,3,081950.10,B,W,V,,3008,1,2,0,HEADING LOST"))
        lines.append(checksummed("$GPHBT,60.0,A,7"))
        lines.append(checksummed("$RATTM,11,11.4,13.6,T,7.0,20.0,T,0.5,0.9,N,TGT11,T,,100021.00,A"))
        lines.append(checksummed("$RATLL,11,4807.038,N,01131.000,E,TGT11,100021.00,T,"))
        // Issue 16: receiver-proprietary sentences, and a dual-antenna receiver's secondary-antenna ones (which the
        // fixes leave out here: the block has the standard sentences).
        lines.append(checksummed("$PTNL,GGK,172814.00,071296,3723.46587704,N,12202.26957864,W,3,06,1.7,EHT-6.777,M"))
        lines.append(checksummed("$PTNL,AVR,181059.6,+149.4688,Yaw,+0.0134,Tilt,,,60.191,3,2.5,6"))
        lines.append(checksummed("$PTNL,PJK,010717.00,081796,+732646.511,N,+1731051.091,E,1,05,2.7,GHT-28.345,M"))
        lines.append(checksummed("$PTNL,VGK,160159.00,010997,-0000.161,00009.985,-0000.002,3,07,1.4,M"))
        lines.append(checksummed("$PTNL,VHD,030556.00,093098,187.718,-22.138,-76.929,-5.015,0.033,0.006,3,07,2.4,M"))
        lines.append(checksummed("$PASHR,163029.000,158.09,T,-0.30,+0.31,+0.01,0.029,0.029,0.059,1,1"))
        // Issue 25: more Trimble and Ashtech messages (the DGPS status under both its addresses).
        lines.append(checksummed("$PTNL,BPQ,224445.06,021207,3723.09383914,N,12200.32620132,W,EHT-5.923,M,5"))
        lines.append(checksummed("$PTNL,PJT,NAD83(Conus),California Zone 4 0404,"))
        lines.append(checksummed("$PTNLDG,44.0,33.0,287.0,100,0,4,1,0,,,"))
        lines.append(checksummed("$PTNL,DG,124.0,10.5,1557855.0,1200,2,4,0,3,,,"))
        lines.append(checksummed("$PASHR,LTN,29"))
        lines.append(checksummed("$PFEC,GPatt,262.5,+1.2,-0.6"))
        lines.append(checksummed("$PFEC,GPhve,-0.125,A"))
        lines.append(checksummed("$PRDID,-1.35,+0.82,187.45"))
        lines.append(checksummed("$PGRMT,GPS 16-HVS VER 3.20,P,P,R,R,P,,31,R"))
        lines.append(checksummed("$PGRMO,GPGSV,0"))
        lines.append(checksummed("$PGRMW,N1CTF-3,45.7,0016,Home QTH"))
        lines.append(
            checksummed("$PKLDS,001235,A,3544.6650,N,13940.1900,E,015.0,038.8,110498,10.80,W00,100,2000,15,00,"))
        lines.append(checksummed("$PKLSH,4000.0000,N,13500.0000,E,021720,A,100,2000,"))
        lines.append(
            checksummed("$PKNDS,124640,A,4954.1458,N,11923.5992,W,000.0,000.0,120223,19.20,W00,U00002,207,00,"))
        lines.append(checksummed("$PKNSH,4000.0000,N,13500.0000,E,021720,A,U00001,"))
        lines.append(checksummed("$PKWDWPL,150803,A,4237.14,N,07120.83,W,173.8,231.8,190316,1120,test,/'"))
        lines.append(checksummed("$PMTK001,604,3"))
        lines.append(checksummed("$PMTK010,001"))
        lines.append(checksummed("$GNGGAH,073346.00,4004.73874301,N,11614.19077585,E,1,28,0.6,64.2831,M,8.4925,M,,"))
        lines.append(checksummed("$GNGLLH,4004.73814597,N,11614.19908275,E,054501.00,A,D"))
        lines.append(checksummed("$GNGNSH,074444.00,4004.73864213,N,11614.19082153,E,ANAAA,28,0.7,64.6536,8.4925,,,S"))
        lines.append(checksummed("$GNGSTH,055543.00,0.45,0.01,0.01,127.6430,0.010,0.010,0.019"))
        lines.append(checksummed("$GNGSAH,M,3,01,04,09,19,21,31,,,,,,,1.1,0.6,0.9,3"))
        lines.append(checksummed("$GPGSVH,2,1,08,16,28,217,38,32,39,140,45,03,29,290,32,31,66,033,50,1"))
        lines.append(checksummed("$GNRMCH,055808.00,A,4004.73817916,N,11614.19891207,E,0.004,99.7,311221,6.9,W,D,V"))
        lines.append(checksummed("$GNVTGH,113.125,T,120.041,M,0.01474,N,0.02730,K,D"))
        lines.append(checksummed("$GNGRSH,055209.00,0,0.0,0.8,0.1,,0.1,2.2,0.2,,,,,,1,1"))
        // Types no decoder reads: handed out as `.unknown`.
        lines.append(checksummed("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0"))
        lines.append(checksummed("$PSRF150,1"))
        lines.append(checksummed("$PUBX,41,1,0007,0003,19200,0"))
        // Framed, but its status `X` is neither `A` nor `V`: strictly decoded, it fails; through a FixReader, it is
        // decoded without its status (a field error).
        lines.append(checksummed("$GPRMC,123519,X,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"))
        // Rejected: wrong checksum, no checksum, malformed checksum, empty address, overlong.
        lines.append("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*00")
        lines.append("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W")
        lines.append("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*G8")
        lines.append(checksummed("$,EMPTY,ADDRESS"))
        lines.append(checksummed("$GPTXT,01,01,02," + String(repeating: "A", count: 1100)))
        // A sentence cut off by the next one (truncated), which then frames (the second HDT).
        lines.append("$GPGLL,4916.45,N" + checksummed("$GPHDT,180.0,T"))
        // A comment line, garbage, and a u-blox binary frame, all skipped.
        lines.append("# a comment line")
        lines.append("garbage")
        var bytes: [UInt8] = []
        for (index, line) in lines.enumerated() {
            bytes += Array(line.utf8)
            bytes += index % 2 == 0 ? [0x0D, 0x0A] : [0x0A]
        }
        // UBX NAV-PVT-like frame with a 4-byte payload: B5 62 class id len(2) payload ck(2), skipped whole.
        bytes += [0xB5, 0x62, 0x01, 0x07, 0x04, 0x00, 0x01, 0x02, 0x03, 0x04, 0x16, 0x65]
        // A damaged frame: its length (16) runs into the next block's first sentence, its checksum fails, and the
        // bytes after `B5 62` are framed again (held across a chunk now and then, and at the end of the input).
        bytes += [0xB5, 0x62, 0x01, 0x07, 0x10, 0x00]
        return bytes
    }()

    /// What the framer counts for one block.
    static let framerStatisticsPerBlock: FramerStatistics = {
        var statistics = FramerStatistics()
        statistics.sentences = 98
        statistics.checksumMismatches = 1
        statistics.missingChecksums = 1
        statistics.malformedChecksums = 1
        statistics.badAddresses = 1
        statistics.overlong = 1
        statistics.truncated = 1
        statistics.garbageBytes = 7 + 2 + 4  // "garbage", the damaged frame's B5 62 and its four header bytes
        statistics.binaryFrameBytes = 12
        statistics.ubxFrames = 1
        statistics.damagedBinaryFrames = 1
        statistics.commentLines = 1
        statistics.bytes = block.count
        return statistics
    }()

    let sentencesPerBlock = 98
    let repetitions: Int
    let input: [UInt8]

    init(minimumSentences: Int) {
        repetitions = (minimumSentences + sentencesPerBlock - 1) / sentencesPerBlock
        var input: [UInt8] = []
        input.reserveCapacity(AllocationWorkload.block.count * repetitions)
        for _ in 0..<repetitions { input += AllocationWorkload.block }
        self.input = input
    }

    /// Frames the input in 4096-byte chunks and decodes every sentence; `sink` gathers a few decoded values so the
    /// work cannot be skipped.
    func run(_ framer: inout Framer, _ decoder: inout DecoderStatistics, _ sink: inout Int) {
        input.withUnsafeBytes { all in
            var offset = 0
            while offset < all.count {
                let chunk = UnsafeRawBufferPointer(rebasing: all[offset..<min(offset + 4096, all.count)])
                framer.feed(chunk) { event in
                    AllocationWorkload.handle(event, &decoder, &sink)
                }
                offset += chunk.count
            }
        }
        framer.finish { event in AllocationWorkload.handle(event, &decoder, &sink) }
    }

    static func handle(_ event: FramerEvent, _ decoder: inout DecoderStatistics, _ sink: inout Int) {
        switch event {
        case .sentence(let sentence):
            do {
                let parsed = try ParsedSentence(sentence)
                decoder.record(parsed)
                sink &+= fingerprint(parsed)
            } catch {
                decoder.recordFailure()
            }
        case .rejected(let rejection):
            sink &+= rejection.bytes.count
        case .binaryFrame(let frame):
            sink &+= frame.bytes.count
        }
    }

    /// A number that depends on the decoded values (and, for `$PUBX,03`, on iterating its lazy satellite list).
    static func fingerprint(_ parsed: ParsedSentence) -> Int {
        switch parsed {
        case .rmc(let rmc): Int(truncatingIfNeeded: rmc.latitude?.significand ?? 0)
        case .gga(let gga): gga.satellitesUsed ?? 0
        case .gsa(let gsa): gsa.satellites.count
        case .gsv(let gsv): gsv.satellites.reduce(0) { $0 + Int($1.prn) }
        case .pubxSatellites(let pubx): pubx.satellites.reduce(0) { $0 + Int($1.carrierToNoise?.hundredths ?? 0) }
        case .txt(let txt): txt.text.count
        case .xdr(let xdr): xdr.measurements.reduce(0) { $0 + Int($1.value?.integerPart ?? 0) }
        case .unknown(let sentence): sentence.fieldCount
        default: 1
        }
    }
}

/// `line` followed by `*` and its checksum: the XOR of the bytes between the start character and `*`.
func checksummed(_ line: String) -> String {
    let checksum = line.utf8.dropFirst().reduce(UInt8(0), ^)
    let digits = Array("0123456789ABCDEF")
    return line + "*" + String(digits[Int(checksum >> 4)]) + String(digits[Int(checksum & 0xF)])
}

extension FramerStatistics {
    /// These counters `count` times over.
    func times(_ count: Int) -> FramerStatistics {
        var total = FramerStatistics()
        for _ in 0..<count { total = total + self }
        return total
    }
}
