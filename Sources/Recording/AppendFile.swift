import NMEA
import System

/// A file a recording appends to (the raw capture, the trips), one per day when rotated: opened with
/// `O_APPEND | O_CREAT`, so a restart on the same day continues it. Used on one consumer's thread.
///
/// The first failure (open or write) is kept in ``failure``, reported once, and ends the output: nothing more is
/// written, the track writers carry on.
final class AppendFile {
    let name: OutputName
    /// What the output is, for messages: `raw capture`, `trips`.
    let label: String
    /// Where messages go (the command's standard error).
    let report: @Sendable (String) -> Void
    private var descriptor: FileDescriptor?
    private(set) var day: UTCDate?
    private(set) var path: String?
    private(set) var failure: String?
    /// Every path opened, in order.
    private(set) var opened: [String] = []

    init(_ name: OutputName, label: String, report: @escaping @Sendable (String) -> Void) {
        self.name = name
        self.label = label
        self.report = report
    }

    /// `true` while a file is open (or about to be) and nothing has failed.
    var isOpen: Bool { descriptor != nil }

    /// Opens the file for `day` (`nil`, or any day, without rotation: the pattern as given), closing the one
    /// before. A failure is thrown (and kept), so the first open, at the start, can end the command.
    func open(for day: UTCDate?) throws(RecordingError) {
        guard failure == nil else { return }
        if descriptor != nil && (name.rotation == .none || day == self.day) { return }
        close()
        let path = day.map(name.path(for:)) ?? name.pattern
        do {
            descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .append, .closeOnExec])
        } catch {
            throw fail("cannot open '\(path)': \(error)")
        }
        self.day = day
        self.path = path
        opened.append(path)
    }

    /// Appends `bytes`; `false` (after reporting it, once) when the output has failed.
    @discardableResult
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil, let descriptor else { return false }
        do {
            try descriptor.writeAll(bytes)
            return true
        } catch {
            report(fail("cannot write '\(path ?? name.pattern)': \(error); \(label) stopped").message)
            return false
        }
    }

    func close() {
        try? descriptor?.close()
        descriptor = nil
    }

    private func fail(_ message: String) -> RecordingError {
        failure = message
        close()
        return RecordingError(message)
    }
}

/// An output of a recording that could not be opened or written.
public struct RecordingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
