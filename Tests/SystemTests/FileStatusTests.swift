import Glibc
import System
import Testing

@Suite struct FileStatusTests {
    @Test func kindsAndSizes() throws {
        #expect(try FileStatus(path: "/").kind == .directory)
        #expect(try FileStatus(path: "/dev/null").kind == .characterDevice)
        #expect(try FileStatus(path: "/proc/self/exe").kind == .regular)
        #expect(try FileStatus(path: "/proc/self/exe", followingSymbolicLinks: false).kind == .symbolicLink)
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileStatus(path: "/no/such/file") }
    }
}
