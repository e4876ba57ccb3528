import CShims
import Glibc
import Testing

/// `nmea_library`: a shared library loaded when first used (the fleet's libpq and libmosquitto), here with zlib,
/// which every machine that builds this has, and with names that do not exist.
@Suite struct LoadedLibraryTests {
    /// A library description for `file` and `names`, not yet loaded, for `body`.
    private func withLibrary<R>(_ file: String, _ names: [String], _ body: (inout nmea_library) -> R) -> R {
        let strings = ([file, "the test library", "install it"] + names).map { strdup($0)! }
        defer { for string in strings { free(string) } }
        var namePointers = strings[3...].map { UnsafePointer($0) as UnsafePointer<CChar>? }
        var functions = [UnsafeMutableRawPointer?](repeating: nil, count: names.count)
        return namePointers.withUnsafeMutableBufferPointer { namesBuffer in
            functions.withUnsafeMutableBufferPointer { functionsBuffer in
                var library = nmea_library()
                library.file = UnsafePointer(strings[0])
                library.what = UnsafePointer(strings[1])
                library.remedy = UnsafePointer(strings[2])
                library.names = UnsafePointer(namesBuffer.baseAddress)
                library.functions = functionsBuffer.baseAddress
                library.count = Int32(names.count)
                return body(&library)
            }
        }
    }

    private func error(of library: inout nmea_library) -> String {
        withUnsafeBytes(of: &library.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    @Test func loadsAndFindsTheFunctions() {
        withLibrary("libz.so.1", ["zlibVersion", "crc32"]) { library in
            #expect(nmea_library_load(&library) == 0)
            #expect(library.state == 1)
            #expect(error(of: &library) == "")
            typealias Version = @convention(c) () -> UnsafePointer<CChar>
            let version = unsafeBitCast(nmea_library_function(&library, 0), to: Version.self)
            #expect(String(cString: version()).hasPrefix("1."))
            typealias CRC = @convention(c) (UInt, UnsafePointer<UInt8>?, UInt32) -> UInt
            let crc32 = unsafeBitCast(nmea_library_function(&library, 1), to: CRC.self)
            let check = Array("123456789".utf8).withUnsafeBufferPointer { crc32(0, $0.baseAddress, 9) }
            #expect(check == 0xCBF4_3926)
            // Once: a second call gives the first call's answer without loading again.
            #expect(nmea_library_load(&library) == 0)
        }
    }

    @Test func aMissingLibraryIsNamedWithItsRemedy() {
        withLibrary("libnmea-no-such-library.so.7", ["anything"]) { library in
            #expect(nmea_library_load(&library) == -1)
            #expect(library.state == -1)
            let message = error(of: &library)
            #expect(message.hasPrefix("cannot load the test library (libnmea-no-such-library.so.7: cannot open"))
            #expect(message.hasSuffix("); install it"))
            #expect(nmea_library_load(&library) == -1)
        }
    }

    @Test func aMissingFunctionIsNamed() {
        withLibrary("libz.so.1", ["zlibVersion", "nmea_no_such_function"]) { library in
            #expect(nmea_library_load(&library) == -1)
            #expect(
                error(of: &library)
                    == "cannot load the test library: libz.so.1 has no function nmea_no_such_function; install it")
        }
    }
}
