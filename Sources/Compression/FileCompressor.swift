import CZstd
import Glibc
import System

/// Compresses a finished file with Zstandard (libzstd's `ZSTD_compressStream2`), beside it, without ever losing it:
/// `day.nmea` is written to a temporary file beside `day.nmea.zst` (a ``ReplacingFile``), renamed to that name once
/// complete, and only then is `day.nmea` removed. Killed at any moment, the plain file is still there (and at most
/// a temporary file beside it, removed by the stop handlers or by the next run's ``ReplacingFile``).
public enum FileCompressor {
    /// The level: the `zstd` tool's default, fast and about five times smaller for NMEA.
    public static let level: Int32 = 3

    /// Compresses `path` to `path.zst` and removes `path`.
    /// - Returns: the compressed file's path.
    /// - Throws: a message naming the file and the reason; `path` is then untouched.
    @discardableResult
    public static func compress(_ path: String) throws(CompressionFailure) -> String {
        let destination = path + ".zst"
        let input: FileDescriptor
        do {
            input = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
        } catch {
            throw CompressionFailure("cannot open '\(path)': \(error)")
        }
        defer { try? input.close() }
        let output: ReplacingFile
        do {
            output = try ReplacingFile(path: destination)
        } catch {
            throw CompressionFailure("cannot create '\(destination)': \(error)")
        }
        defer { output.close() }
        try stream(input, named: path, to: output.descriptor, named: destination)
        do {
            try output.descriptor.synchronize()
            try output.commit()
        } catch {
            output.discard()
            throw CompressionFailure("cannot write '\(destination)': \(error)")
        }
        unlink(path)
        return destination
    }

    /// Reads `input` to its end, writing its Zstandard compression to `output`.
    private static func stream(
        _ input: FileDescriptor, named inputName: String, to output: FileDescriptor, named outputName: String
    ) throws(CompressionFailure) {
        guard let context = ZSTD_createCCtx() else { throw CompressionFailure("libzstd did not start") }
        defer { ZSTD_freeCCtx(context) }
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        let inputSize = ZSTD_CStreamInSize()
        let outputSize = ZSTD_CStreamOutSize()
        let inputBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: inputSize, alignment: 16)
        let outputBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: outputSize, alignment: 16)
        defer {
            inputBuffer.deallocate()
            outputBuffer.deallocate()
        }
        while true {
            let count: Int
            do {
                count = try input.read(into: inputBuffer)
            } catch {
                throw CompressionFailure("cannot read '\(inputName)': \(error)")
            }
            let directive = count == 0 ? ZSTD_e_end : ZSTD_e_continue
            var inBuffer = ZSTD_inBuffer(src: inputBuffer.baseAddress, size: count, pos: 0)
            var finished = false
            while !finished {
                var outBuffer = ZSTD_outBuffer(dst: outputBuffer.baseAddress, size: outputSize, pos: 0)
                let remaining = ZSTD_compressStream2(context, &outBuffer, &inBuffer, directive)
                if ZSTD_isError(remaining) != 0 {
                    throw CompressionFailure(String(cString: ZSTD_getErrorName(remaining)))
                }
                do {
                    try output.writeAll(UnsafeRawBufferPointer(rebasing: outputBuffer[..<outBuffer.pos]))
                } catch {
                    throw CompressionFailure("cannot write '\(outputName)': \(error)")
                }
                finished = directive == ZSTD_e_end ? remaining == 0 : inBuffer.pos == inBuffer.size
            }
            if count == 0 { return }
        }
    }
}

/// Why a file could not be compressed, in words.
public struct CompressionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
