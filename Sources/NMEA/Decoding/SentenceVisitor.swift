/// Receives each sentence decoded into its type, in place: the zero-copy alternative to ``ParsedSentence``.
///
/// ``Sentence/decode(into:)`` picks the decoder by the sentence's type and calls the `visit` method for that type
/// with the decoded value, which the visitor borrows. Nothing is copied into an enum, so a visitor that reads a few
/// fields costs only the decoding. Implement the methods for the types you want; the others do nothing.
///
///     struct Positions: SentenceVisitor {
///         var count = 0
///         mutating func visit(_ rmc: RMC) { if rmc.latitude != nil { count += 1 } }
///         mutating func visit(_ gga: GGA) { if gga.latitude != nil { count += 1 } }
///     }
///
///     var positions = Positions()
///     try framer.feed(bytes) { event in
///         guard case .sentence(let sentence) = event else { return }
///         _ = try? sentence.decode(into: &positions)
///     }
///
/// ``ParsedSentence/init(_:)`` is itself such a visitor, so both shapes share one dispatch.
public protocol SentenceVisitor {
    mutating func visit(_ sentence: RMC)
    mutating func visit(_ sentence: GGA)
    mutating func visit(_ sentence: GSA)
    mutating func visit(_ sentence: GSV)
    mutating func visit(_ sentence: GLL)
    mutating func visit(_ sentence: VTG)
    mutating func visit(_ sentence: ZDA)
    mutating func visit(_ sentence: GST)
    mutating func visit(_ sentence: GNS)
    mutating func visit(_ sentence: GBS)
    mutating func visit(_ sentence: GRS)
    mutating func visit(_ sentence: TXT)
    mutating func visit(_ sentence: DTM)
    mutating func visit(_ sentence: HDT)
    mutating func visit(_ sentence: THS)
    mutating func visit(_ sentence: PUBXPosition)
    /// A view, valid only during the call, like the ``Sentence`` it reads.
    mutating func visit(_ sentence: PUBXSatellites)
    mutating func visit(_ sentence: PUBXTime)
    mutating func visit(_ sentence: PGRME)
    mutating func visit(_ sentence: PGRMZ)
    mutating func visit(_ sentence: PGRMM)
    /// A sentence of a type not decoded here.
    mutating func visitUnknown(_ sentence: Sentence)
}

extension SentenceVisitor {
    @inlinable public mutating func visit(_ sentence: RMC) {}
    @inlinable public mutating func visit(_ sentence: GGA) {}
    @inlinable public mutating func visit(_ sentence: GSA) {}
    @inlinable public mutating func visit(_ sentence: GSV) {}
    @inlinable public mutating func visit(_ sentence: GLL) {}
    @inlinable public mutating func visit(_ sentence: VTG) {}
    @inlinable public mutating func visit(_ sentence: ZDA) {}
    @inlinable public mutating func visit(_ sentence: GST) {}
    @inlinable public mutating func visit(_ sentence: GNS) {}
    @inlinable public mutating func visit(_ sentence: GBS) {}
    @inlinable public mutating func visit(_ sentence: GRS) {}
    @inlinable public mutating func visit(_ sentence: TXT) {}
    @inlinable public mutating func visit(_ sentence: DTM) {}
    @inlinable public mutating func visit(_ sentence: HDT) {}
    @inlinable public mutating func visit(_ sentence: THS) {}
    @inlinable public mutating func visit(_ sentence: PUBXPosition) {}
    @inlinable public mutating func visit(_ sentence: PUBXSatellites) {}
    @inlinable public mutating func visit(_ sentence: PUBXTime) {}
    @inlinable public mutating func visit(_ sentence: PGRME) {}
    @inlinable public mutating func visit(_ sentence: PGRMZ) {}
    @inlinable public mutating func visit(_ sentence: PGRMM) {}
    @inlinable public mutating func visitUnknown(_ sentence: Sentence) {}
}

extension Sentence {
    /// Decodes this sentence by its type and hands the result to `visitor`.
    ///
    /// - Returns: which decoder read it, or `nil` for a type not decoded here (handed to
    ///   ``SentenceVisitor/visitUnknown(_:)``).
    /// - Throws: the decoder's ``NMEAError`` when a field is malformed or missing; `visitor` is then not called.
    ///
    /// Inlinable, so that it is specialized for the caller's visitor: its `visit` methods are then called directly.
    @inlinable @inline(__always) @discardableResult
    public func decode<Visitor: SentenceVisitor>(into visitor: inout Visitor) throws(NMEAError) -> SentenceKind? {
        guard let kind = SentenceKind(self) else {
            visitor.visitUnknown(self)
            return nil
        }
        switch kind {
        case .rmc: visitor.visit(try RMC(self))
        case .gga: visitor.visit(try GGA(self))
        case .gsa: visitor.visit(try GSA(self))
        case .gsv: visitor.visit(try GSV(self))
        case .gll: visitor.visit(try GLL(self))
        case .vtg: visitor.visit(try VTG(self))
        case .zda: visitor.visit(try ZDA(self))
        case .gst: visitor.visit(try GST(self))
        case .gns: visitor.visit(try GNS(self))
        case .gbs: visitor.visit(try GBS(self))
        case .grs: visitor.visit(try GRS(self))
        case .txt: visitor.visit(try TXT(self))
        case .dtm: visitor.visit(try DTM(self))
        case .hdt: visitor.visit(try HDT(self))
        case .ths: visitor.visit(try THS(self))
        case .pubxPosition: visitor.visit(try PUBXPosition(self))
        case .pubxSatellites: visitor.visit(try PUBXSatellites(self))
        case .pubxTime: visitor.visit(try PUBXTime(self))
        case .pgrme: visitor.visit(try PGRME(self))
        case .pgrmz: visitor.visit(try PGRMZ(self))
        case .pgrmm: visitor.visit(try PGRMM(self))
        }
        return kind
    }
}
