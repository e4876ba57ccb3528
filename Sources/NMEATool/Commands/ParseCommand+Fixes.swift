import JSON
import NMEA

extension ParseCommand {
    /// `nmea parse --fixes`: sentences merged into fixes, one JSON object per fix.
    static func runFixes(_ arguments: ParsedArguments) throws -> Int32 {
        var input = try SentenceInput(arguments)
        input.jobs = try SentenceInput.jobs(arguments)
        var json = JSONWriter(capacity: 1024)
        let output = Console.standardOutput
        try input.read(isCancelled: outputFailed) { fix in
            json.write(fix)
            json.bytes.withUnsafeBytes { output.write($0) }
            output.write(UInt8(ascii: "\n"))
            json.reset()
        }
        return finish(input, arguments)
    }
}
