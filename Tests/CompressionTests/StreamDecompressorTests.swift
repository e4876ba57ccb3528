import Compression
import TestSupport
import Testing

/// `bytes` through `tool` (`gzip -c`, `zstd -c`): the real tools make the data the decompressor reads.
func compressed(_ bytes: [UInt8], _ tool: String) throws -> [UInt8] {
    let path = try #require(Tools.which(tool))
    let outcome = try ChildProcess.run([path, "-c", "-q"], input: .bytes(bytes))
    #expect(outcome.status == 0)
    return outcome.outputBytes
}

/// Decompresses `data` supplied `inputSize` bytes at a time into an output buffer of `outputSize` bytes.
func decompress(_ data: [UInt8], inputSize: Int, outputSize: Int) throws(DecompressionError) -> [UInt8] {
    let format = data.withUnsafeBytes { CompressionFormat(prefix: $0) }
    let decompressor = StreamDecompressor(format)
    let output = UnsafeMutableRawBufferPointer.allocate(byteCount: outputSize, alignment: 1)
    defer { output.deallocate() }
    var result: [UInt8] = []
    var offset = 0
    while true {
        let produced = try decompressor.decompress(into: output)
        if produced > 0 {
            result += output[..<produced]
            continue
        }
        guard offset < data.count else { break }
        let end = min(offset + inputSize, data.count)
        data[offset..<end].withUnsafeBytes { decompressor.supply($0) }
        offset = end
    }
    try decompressor.finish()
    return result
}

@Suite struct StreamDecompressorTests {
    /// Text that compresses, a little over 300 KiB of it (more than one input and output buffer).
    static let text: [UInt8] = (0..<20_000).flatMap {
        Array("$GPGGA,\($0 % 86_400),line \($0 * 7919 % 10_007)\r\n".utf8)
    }

    @Test(
        .enabled(if: Tools.available("gzip", "zstd"), "gzip or zstd is not installed"),
        arguments: ["gzip", "zstd"])
    func anyChunkingGivesTheBytes(tool: String) throws {
        let data = try compressed(Self.text, tool)
        #expect(data.withUnsafeBytes { CompressionFormat(prefix: $0) } == (tool == "gzip" ? .gzip : .zstd))
        for (inputSize, outputSize) in [(1, 7), (13, 1), (4096, 65_536), (StreamDecompressor.inputCapacity, 1 << 20)] {
            #expect(try decompress(data, inputSize: inputSize, outputSize: outputSize) == Self.text)
        }
    }

    /// `cat a.gz b.gz` (and two zstd frames) read as one stream.
    @Test(
        .enabled(if: Tools.available("gzip", "zstd"), "gzip or zstd is not installed"),
        arguments: ["gzip", "zstd"])
    func concatenatedMembersAndFrames(tool: String) throws {
        let first = Array(Self.text.prefix(1000))
        let second = Array(Self.text.suffix(500))
        let data = try compressed(first, tool) + compressed(second, tool)
        #expect(try decompress(data, inputSize: 100, outputSize: 333) == first + second)
    }

    @Test(
        .enabled(if: Tools.available("gzip", "zstd"), "gzip or zstd is not installed"),
        arguments: [("gzip", "member"), ("zstd", "frame")])
    func truncated(tool: String, part: String) throws {
        let data = try compressed(Self.text, tool)
        for length in [4, 10, data.count / 2, data.count - 1] {
            #expect(
                throws: DecompressionError(
                    format: tool == "gzip" ? .gzip : .zstd,
                    reason: "truncated (the input ends inside a compressed \(part))")
            ) {
                _ = try decompress(Array(data.prefix(length)), inputSize: 4096, outputSize: 4096)
            }
        }
    }

    /// Damaged data: the library's own message, and the same error on every later call.
    @Test(.enabled(if: Tools.available("gzip", "zstd"), "gzip or zstd is not installed"))
    func damaged() throws {
        var gzip = try compressed(Self.text, "gzip")
        gzip[3] = 0xFF  // reserved flag bits
        #expect(throws: DecompressionError(format: .gzip, reason: "unknown header flags set")) {
            _ = try decompress(gzip, inputSize: 4096, outputSize: 4096)
        }
        var zstd = try compressed(Self.text, "zstd")
        for index in 20..<60 { zstd[index] ^= 0x5A }
        #expect(throws: DecompressionError.self) { _ = try decompress(zstd, inputSize: 4096, outputSize: 4096) }
    }

    @Test func formatsByMagic() {
        func format(_ bytes: [UInt8]) -> CompressionFormat { bytes.withUnsafeBytes { CompressionFormat(prefix: $0) } }
        #expect(format([0x1F, 0x8B]) == .gzip)
        #expect(format([0x28, 0xB5, 0x2F, 0xFD, 0]) == .zstd)
        #expect(format([0x28, 0xB5, 0x2F]) == .none)
        #expect(format([0x1F]) == .none)
        #expect(format(Array("$GPRMC".utf8)) == .none)
        #expect(format([]) == .none)
    }
}
