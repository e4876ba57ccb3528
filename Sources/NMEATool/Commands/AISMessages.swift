import AIS
import NMEA

/// A command that takes the AIS messages of its input in input order (`nmea ais`, `convert --ais`): the handler
/// of its reading, whose sentence methods and pieces come from this protocol; other sentences are skipped.
///
/// Each message is read into what the command wants of it (``read(_:receivedMilliseconds:)``) where it was
/// assembled, and taken (``take(_:)``) in input order. On every core (`--jobs`), a worker assembles and reads the
/// messages of its piece of the file; the sentences whose messages depend on those before them (a part of a
/// multi-part message, a type 24 part: see ``AISDecoder/addUnlessOrdered(_:_:)``) it leaves in their place instead,
/// and the one decoder of the whole file adds them there when the pieces are put out in order (``put(_:)``), as
/// `parse` does. The command takes the same values in the same order as with one thread. Memory: what a piece's
/// messages were read into (about 5,000 in a piece of 256 KiB) for each of the pieces in flight.
protocol AISMessageTaker: PieceHandler where PieceOutput == AISReading<Taken>.Piece {
    /// What the command wants of one message.
    associatedtype Taken
    /// The decoder and, on a worker, its piece so far.
    var reading: AISReading<Taken> { get set }
    /// What the command wants of `message`, whose last sentence gave `receivedMilliseconds` (a TAG block's `c:`, a
    /// leading Unix timestamp); on a worker's thread with `--jobs`.
    static func read(_ message: borrowing AISMessage, receivedMilliseconds: Int64?) -> Taken
    /// One message's values, in input order.
    mutating func take(_ taken: consuming Taken)
}

/// A command's reading of AIS messages (``AISMessageTaker``): its decoder, and on a worker what its piece gave.
struct AISReading<Taken> {
    var ais = AISPrinting()
    /// On a worker, its piece's values and the sentences left for their turn, in order; `nil` on the thread that
    /// takes them.
    var piece: [Item]?

    /// A message's values, or a sentence left for the decoder of the whole file.
    enum Item {
        case taken(Taken)
        case ordered(AISDecoder.Fragment, receivedMilliseconds: Int64?)
    }

    /// What a worker made of a piece: its items in order, and its decoder's counts.
    struct Piece {
        var items: [Item] = []
        var ais: AISPrinting?
    }

    /// The reading of a worker (``PieceHandler/makePieceHandler()``), with room for a piece's messages (a sentence
    /// is at least 40 bytes), not grown and copied on the way.
    static var worker: Self {
        var reading = Self()
        reading.piece = []
        reading.piece!.reserveCapacity(PieceReader<DecodedWork>.pieceBytes / 40)
        return reading
    }
}

extension AISMessageTaker {
    mutating func sentence<S: DecodableSentence>(_ sentence: Sentence, decoded: S, _ context: FixReader.Context) {}
    mutating func undecodableSentence(_ sentence: Sentence, error: NMEAError, _ context: FixReader.Context) {}

    mutating func unknownSentence(_ sentence: Sentence, _ context: FixReader.Context) {
        let received = sentence.receivedMilliseconds
        guard reading.piece != nil else {
            var taken: Taken?
            _ = reading.ais.take(sentence, with: &taken) { taken, message in
                taken = Self.read(message, receivedMilliseconds: received)
            }
            if let taken = taken.take() { take(taken) }
            return
        }
        // The piece's items moved out while the decoder adds to them, and back.
        var items = reading.piece.take()!
        defer { reading.piece = items }
        var ordered: AISDecoder.Fragment?
        let outcome = reading.ais.take(sentence, leavingOrderedIn: &ordered, with: &items) { items, message in
            items.append(.taken(Self.read(message, receivedMilliseconds: received)))
        }
        if case .ordered = outcome { items.append(.ordered(ordered!, receivedMilliseconds: received)) }
    }

    mutating func takePieceOutput() -> AISReading<Taken>.Piece {
        guard let items = reading.piece else { return AISReading.Piece() }
        defer { reading = .worker }
        return AISReading.Piece(items: items, ais: reading.ais)
    }

    /// Puts out a worker's piece, in order: its messages' values, and in their places the sentences left for their
    /// turn, added here to the decoder of the whole file.
    mutating func put(_ output: AISReading<Taken>.Piece) {
        if let counts = output.ais { reading.ais.addCounts(of: counts) }
        for item in output.items {
            switch item {
            case .taken(let taken):
                take(taken)
            case .ordered(let fragment, let received):
                var taken: Taken?
                _ = reading.ais.take(fragment, with: &taken) { taken, message in
                    taken = Self.read(message, receivedMilliseconds: received)
                }
                if let taken = taken.take() { take(taken) }
            }
        }
    }
}
