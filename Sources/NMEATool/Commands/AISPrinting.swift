import AIS
import NMEA

/// What `parse` does with AIS sentences: assembles them into messages (one ``AISDecoder``), keeps those of the
/// stations asked for, and says at the end what it assembled, dropped and could not read.
struct AISPrinting {
    /// What became of one sentence.
    enum Outcome {
        /// It completed a message, handed out (``take(_:with:_:)``).
        case message
        /// Its message depends on the sentences before it: left for the printer of the whole input, as the
        /// fragment ``take(_:leavingOrderedIn:with:_:)`` gave back.
        case ordered
        /// A part of a message still in assembly (or a type 24 part waiting for its other half).
        case pending
        /// A message of a station not asked for.
        case filtered
        /// Not an AIS sentence: printed as any other sentence.
        case notAIS
        /// An AIS sentence that does not read (bad payload or fragment numbers): printed raw, and counted.
        case failed(AISError)
    }

    /// Only these stations' messages, when given.
    var stations: Set<Int>? = nil
    /// Print AIS messages and nothing else.
    var onlyAIS = false
    /// Values in units (`true`), or gpsd's raw numbers.
    var scaled = true
    private(set) var decoder = AISDecoder()
    private(set) var filtered = 0

    init(stations: Set<Int>? = nil, onlyAIS: Bool = false, scaled: Bool = true) {
        self.stations = stations
        self.onlyAIS = onlyAIS
        self.scaled = scaled
    }

    /// Adds one sentence. The message it completes, of a station asked for, goes to `body` with `context` where
    /// the decoder made it: not copied (a message is 150 bytes).
    mutating func take<Context>(
        _ sentence: Sentence, with context: inout Context, _ body: (inout Context, borrowing AISMessage) -> Void
    ) -> Outcome {
        guard sentence.isEncapsulated else { return .notAIS }
        return take(.sentence(sentence), with: &context, body)
    }

    /// As ``take(_:with:_:)``, except that a sentence whose message depends on those before it is not added but
    /// put in `ordered` (``Outcome/ordered``), for the printer of the whole input (on a worker that prints a piece
    /// of it).
    mutating func take<Context>(
        _ sentence: Sentence, leavingOrderedIn ordered: inout AISDecoder.Fragment?, with context: inout Context,
        _ body: (inout Context, borrowing AISMessage) -> Void
    ) -> Outcome {
        guard sentence.isEncapsulated else { return .notAIS }
        return withUnsafeMutablePointer(to: &ordered) { take(.leavingOrdered(sentence, $0), with: &context, body) }
    }

    /// Adds a sentence kept for its turn (``AISDecoder/addUnlessOrdered(_:_:)``), as ``take(_:with:_:)`` adds it.
    mutating func take<Context>(
        _ fragment: AISDecoder.Fragment, with context: inout Context,
        _ body: (inout Context, borrowing AISMessage) -> Void
    ) -> Outcome {
        take(.fragment(fragment), with: &context, body)
    }

    /// What is added: a sentence, or one kept for its turn.
    private enum Input {
        case sentence(Sentence)
        case leavingOrdered(Sentence, UnsafeMutablePointer<AISDecoder.Fragment?>)
        case fragment(AISDecoder.Fragment)
    }

    private mutating func take<Context>(
        _ input: Input, with context: inout Context, _ body: (inout Context, borrowing AISMessage) -> Void
    ) -> Outcome {
        var outcome = Outcome.pending
        let stations = self.stations
        do {
            // (One closure per case: a local function capturing `outcome` and `context` would box them.)
            switch input {
            case .sentence(let sentence):
                try decoder.add(sentence) { outcome = Self.handOut($0, stations, &context, body) }
            case .leavingOrdered(let sentence, let ordered):
                ordered.pointee = try decoder.addUnlessOrdered(sentence) {
                    outcome = Self.handOut($0, stations, &context, body)
                }
                if ordered.pointee != nil { return .ordered }
            case .fragment(let fragment):
                try decoder.add(fragment) { outcome = Self.handOut($0, stations, &context, body) }
            }
        } catch .notAIS {
            return .notAIS
        } catch {
            return .failed(error)
        }
        if case .filtered = outcome { filtered += 1 }
        return outcome
    }

    /// A message of a station asked for goes to `body`; one of another is filtered out.
    @inline(__always)
    private static func handOut<Context>(
        _ message: borrowing AISMessage, _ stations: Set<Int>?, _ context: inout Context,
        _ body: (inout Context, borrowing AISMessage) -> Void
    ) -> Outcome {
        if let stations, !stations.contains(message.mmsi) { return .filtered }
        body(&context, message)
        return .message
    }

    /// Adds the counts of `other`, which printed another part of the same stream, to these.
    mutating func addCounts(of other: AISPrinting) {
        decoder.addCounts(of: other.decoder)
        filtered += other.filtered
    }

    /// Adds one sentence; returns a copy of the message it completes, of a station asked for.
    mutating func take(_ sentence: Sentence) -> AISMessage? {
        var completed: AISMessage?
        _ = take(sentence, with: &completed) { completed, message in completed = copy message }
        return completed
    }

    /// One line on standard error when AIS sentences were read: messages, and what did not make one.
    func report(command: String) {
        let counts = decoder.counts
        guard counts.sentences > 0 else { return }
        var parts: [String] = []
        func add(_ count: Int, _ what: String) { if count > 0 { parts.append("\(count) \(what)") } }
        add(counts.incomplete, "incomplete (a part missing)")
        add(counts.duplicates, "repeated parts ignored")
        add(counts.errors, "unreadable (printed as sentences)")
        add(counts.unpairedStaticParts, "type 24 part B without its part A")
        add(filtered, "of other stations")
        let messages = counts.messages - filtered
        var line = "\(command): \(counts.sentences) AIS sentences: \(messages) message\(messages == 1 ? "" : "s")"
        if !parts.isEmpty { line += "; \(parts.joined(separator: ", "))" }
        Console.error(line + "\n")
    }
}
