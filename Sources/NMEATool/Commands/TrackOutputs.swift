import NMEA
import Tracks

/// The track files of one conversion, written together and put in place together, by the one publication rule
/// (``InputAdmission/publication``): made from files, every output is completed beside its path and all are renamed
/// into place only once the whole conversion has succeeded; an input that fails, or any output that fails, gives
/// every one up and leaves each path as it was. Made from a live input, each is in place from its first point.
///
/// Used by one thread at a time: a `{name}` batch's worker hands its completed outputs to the thread that puts every
/// input's outputs in place, and touches them no more.
final class TrackOutputs: @unchecked Sendable {
    private(set) var writers: [any TrackWriter]
    /// Outputs given up after an error.
    private(set) var failures = 0
    /// Outputs asked for.
    let count: Int
    /// Set once an output failed while converting files: the others are then given up too.
    private var givenUp = false

    init(_ writers: [any TrackWriter]) {
        self.writers = writers
        count = writers.count
    }

    /// Hands `fix` to every output still working; one that fails is reported and dropped.
    func write(_ fix: Fix) {
        var index = 0
        while index < writers.count {
            do {
                try writers[index].write(fix)
                index += 1
            } catch {
                fail(writers.remove(at: index), error)
            }
        }
    }

    /// Finishes every output and puts them in place, or, when `inputFailed` or an output failed, gives every one up
    /// (each saying what its path now holds).
    /// - Returns: `true` when every output asked for was written.
    /// Starts `label`'s track in every output (``TrackWriter/beginTrack(_:)``).
    func beginTrack(_ label: TrackLabel) {
        var index = 0
        while index < writers.count {
            do {
                _ = try writers[index].beginTrack(label)
                index += 1
            } catch {
                fail(writers.remove(at: index), error)
            }
        }
    }

    func finish(inputFailed: Bool) -> Bool {
        complete(inputFailed: inputFailed) && publish()
    }

    /// Finishes every output beside its path (``Publication/onRequest``; a live one is in place already), or, when
    /// `inputFailed` or an output failed, gives every one up.
    /// - Returns: `true` when every output asked for is complete, ready for ``publish()``.
    func complete(inputFailed: Bool) -> Bool {
        if inputFailed {
            giveUp(because: "an input could not be read")
            return false
        }
        var finished: [any TrackWriter] = []
        for writer in writers {
            do {
                try writer.finish()
                finished.append(writer)
            } catch {
                fail(writer, error)
            }
        }
        writers = finished
        if failures > 0 {
            giveUp(because: "another output failed")
            return false
        }
        return true
    }

    /// Puts every completed output in place.
    /// - Returns: `true` when every one is in place.
    func publish() -> Bool {
        for writer in writers {
            do {
                try writer.publish()
            } catch {
                fail(writer, error)
            }
        }
        return failures == 0
    }

    /// Reports `error` for `writer` and gives it up.
    private func fail(_ writer: any TrackWriter, _ error: TrackError) {
        let inPlace = writer.isPublished
        writer.discard()
        Console.error("Error: \(error.description(fileIsInPlace: inPlace))\n")
        failures += 1
    }

    /// Gives up every output still held, saying for each what its path holds.
    func giveUp(because reason: String) {
        for writer in writers {
            let inPlace = writer.isPublished
            writer.discard()
            let what =
                inPlace
                ? "kept as written so far (\(reason))" : "not written; it holds what it held before (\(reason))"
            Console.error("nmea convert: \(writer.path): \(what)\n")
        }
        writers = []
    }
}
