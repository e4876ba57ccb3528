import Glibc
import TestSupport
import Testing

@Suite struct ToolsTests {
    @Test func whichFindsTheShellOnPATHAndNotWhatIsMissing() throws {
        #expect(Tools.which("sh") == "/usr/bin/sh" || Tools.which("sh") == "/bin/sh")
        #expect(Tools.which("no-such-tool-\(getpid())") == nil)
        #expect(Tools.available("sh"))
        #expect(!Tools.available("sh", "no-such-tool-\(getpid())"))
    }
}
