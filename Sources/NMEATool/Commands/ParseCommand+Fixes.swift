import JSON
import NMEA

extension ParseCommand {
    /// `nmea parse --fixes`: sentences merged into fixes, one JSON object per fix.
    static func runFixes(_ arguments: ParsedArguments) throws -> Int32 {
        var input = try SentenceInput(arguments)
        input.jobs = try SentenceInput.jobs(arguments)
        // A file read in pieces: the fixes are written on a thread of their own beside the assembling (standard
        // output claimed by whichever thread takes the fixes, and by this one again after).
        input.handsOffFixes = true
        var json = JSONWriter(capacity: 1024)
        let output = Console.standardOutput
        defer { output.claim() }
        try input.read(isCancelled: outputFailed) { fix in
            output.claim()
            json.write(fix)
            json.bytes.withUnsafeBytes { output.write($0) }
            output.write(UInt8(ascii: "\n"))
            json.reset()
        }
        return finish(input, arguments)
    }
}
