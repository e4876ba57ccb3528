/// A streaming XML tokenizer for track files: start tags with their attributes, end tags and text, fed in chunks of
/// any size, in memory bounded by the longest tag or text it is asked to keep (``maximumTokenBytes``).
///
/// Enough XML 1.0 for GPX and KML as tools write them: elements, attributes in single or double quotes, the five
/// predefined entities and character references, comments, processing instructions, CDATA sections and a
/// DOCTYPE (with an internal subset) passed over. Namespaces are reduced to local names (`gpxtpx:speed` is
/// `speed`). Malformed input — a tag that never closes, an end tag that does not match, text after the root —
/// throws ``TrackReadError`` with its line.
struct XMLTokenizer {
    enum Token {
        case start(name: String, attributes: [String: String], selfClosing: Bool)
        case end(name: String)
        case text(String)
    }

    private enum State {
        case text
        /// After `<`, inside a tag until its `>` (quotes respected).
        case tag(quote: UInt8?)
        /// `<!--` … `-->`.
        case comment
        /// `<?` … `?>`.
        case instruction
        /// `<![CDATA[` … `]]>`.
        case cdata
        /// `<!DOCTYPE` … `>`, with `[` … `]` nesting.
        case declaration(depth: Int)
    }

    let maximumTokenBytes: Int
    let maximumDepth: Int
    /// Elements whose text may be any length (KML's `<coordinates>`): handed out in pieces of about
    /// ``pieceBytes``, each cut after white space, so memory stays bounded however long the text.
    let piecewise: Set<String>
    static let pieceBytes = 64 * 1024
    private var state = State.text
    private var buffer: [UInt8] = []
    private var text: [UInt8] = []
    private var textTooLong = false
    /// Whether the current element's text is kept; `nil` until asked (again after each start and end tag).
    private var keepsCurrentText: Bool?
    /// Open elements' names.
    private(set) var stack: [String] = []
    private(set) var line = 1
    private var sawRoot = false
    private var tagLine = 1

    /// The elements whose text is handed out (others' is skipped without being stored).
    let keeping: Set<String>
    /// Until the first bytes: a UTF-8 byte-order mark there is passed over.
    private var atStart = true

    init(
        keeping: Set<String> = [], maximumTokenBytes: Int = 1 << 20, maximumDepth: Int = 256,
        piecewise: Set<String> = []
    ) {
        self.keeping = keeping
        self.maximumTokenBytes = maximumTokenBytes
        self.maximumDepth = maximumDepth
        self.piecewise = piecewise
    }

    /// Tokenizes `bytes`, keeping the text of the elements ``keeping`` names (a byte-order mark at the very start
    /// is passed over).
    mutating func feed(
        _ bytes: UnsafeRawBufferPointer, _ token: (Token, _ line: Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        let bytes = atStart ? withoutByteOrderMark(bytes) : bytes
        atStart = false
        let keeping = self.keeping
        try feed(bytes, keepText: { keeping.contains($0 ?? "") }, token)
    }

    /// Tokenizes `bytes`; `keepText` says whether text inside the current element is wanted (others are skipped
    /// without being stored). It is asked once per element, not per byte.
    mutating func feed(
        _ bytes: UnsafeRawBufferPointer, keepText: (_ element: String?) -> Bool,
        _ token: (Token, _ line: Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        var index = 0
        while index < count {
            if case .text = state {
                guard try feedText(base, count, at: &index, keepText, token) else { return }
                continue
            }
            if case .tag(let quote) = state, Self.isElementTag(first: buffer.first ?? base[index]) {
                guard try feedTag(base, count, at: &index, quote: quote, token) else { return }
                continue
            }
            let byte = base[index]
            index += 1
            if byte == UInt8(ascii: "\n") { line += 1 }
            try step(byte, keepText, token)
        }
    }

    /// Text runs to the next '<': taken in one piece from `index`. Returns `false` when the bytes end first.
    @inline(__always)
    private mutating func feedText(
        _ base: UnsafePointer<UInt8>, _ count: Int, at index: inout Int, _ keepText: (String?) -> Bool,
        _ token: (Token, _ line: Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) -> Bool {
        let start = index
        while index < count && base[index] != UInt8(ascii: "<") {
            if base[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
        if index > start {
            try takeText(UnsafeBufferPointer(start: base + start, count: index - start), keepText)
            if text.count >= Self.pieceBytes, let element = stack.last, piecewise.contains(element) {
                try flushPiece(token)
            }
        }
        guard index < count else { return false }
        index += 1
        try flushText(token)
        state = .tag(quote: nil)
        buffer.removeAll(keepingCapacity: true)
        tagLine = line
        return true
    }

    /// An element's tag (not a comment, section or instruction) runs to its '>' outside quotes: taken in one
    /// piece from `index`. Returns `false` when the bytes end first.
    @inline(__always)
    private mutating func feedTag(
        _ base: UnsafePointer<UInt8>, _ count: Int, at index: inout Int, quote: UInt8?,
        _ token: (Token, _ line: Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) -> Bool {
        var quote = quote
        let start = index
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                break
            }
            index += 1
        }
        buffer.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
        if buffer.count > maximumTokenBytes {
            throw TrackReadError(line: tagLine, "a tag longer than \(maximumTokenBytes) bytes (is it XML?)")
        }
        state = .tag(quote: quote)
        guard index < count else { return false }
        index += 1
        try finishTag(token)
        return true
    }

    /// Text outside tags: kept (up to the limit) when the element wants it; outside the root, only spaces.
    private mutating func takeText(
        _ bytes: UnsafeBufferPointer<UInt8>, _ keepText: (String?) -> Bool
    ) throws(TrackReadError) {
        if stack.isEmpty {
            if let offending = bytes.firstIndex(where: { !Self.isSpace($0) }) {
                let before = bytes[offending...].count(where: { $0 == UInt8(ascii: "\n") })
                throw TrackReadError(
                    line: line - before,
                    sawRoot ? "text after the root element" : "not XML: text before the root element")
            }
            return
        }
        guard !textTooLong, keepsText(keepText) else { return }
        if text.count + bytes.count > maximumTokenBytes {
            textTooLong = true
            return
        }
        text.append(contentsOf: bytes)
    }

    /// Whether the current element's text is wanted: asked once per element.
    private mutating func keepsText(_ keepText: (String?) -> Bool) -> Bool {
        if let keepsCurrentText { return keepsCurrentText }
        let keeps = keepText(stack.last)
        keepsCurrentText = keeps
        return keeps
    }

    /// One byte in a tag, comment, processing instruction, CDATA section or declaration.
    private mutating func step(
        _ byte: UInt8, _ keepText: (String?) -> Bool, _ token: (Token, Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        switch state {
        case .text:
            break  // handled in bulk by feed
        case .tag(let quote):
            try stepTag(byte, quote: quote, token)
        case .comment:
            buffer.append(byte)
            if buffer.count > 3 { buffer.removeFirst() }
            if buffer.elementsEqual("-->".utf8) {
                state = .text
                buffer.removeAll(keepingCapacity: true)
            }
        case .instruction:
            if buffer.last == UInt8(ascii: "?") && byte == UInt8(ascii: ">") {
                state = .text
                buffer.removeAll(keepingCapacity: true)
            } else {
                buffer.removeAll(keepingCapacity: true)
                buffer.append(byte)
            }
        case .cdata:
            stepCDATA(byte, keepText)
        case .declaration(let depth):
            if byte == UInt8(ascii: "[") {
                state = .declaration(depth: depth + 1)
            } else if byte == UInt8(ascii: "]") {
                state = .declaration(depth: max(depth - 1, 0))
            } else if byte == UInt8(ascii: ">") && depth == 0 {
                state = .text
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// One byte of a tag that is not an element's: a processing instruction, comment, CDATA section or declaration
    /// is told by its first bytes.
    private mutating func stepTag(
        _ byte: UInt8, quote: UInt8?, _ token: (Token, Int) throws(TrackReadError) -> Void
    ) throws(TrackReadError) {
        if let quote {
            if byte == quote { state = .tag(quote: nil) }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            state = .tag(quote: byte)
        } else if byte == UInt8(ascii: ">") {
            try finishTag(token)
            return
        }
        buffer.append(byte)
        if buffer.count > maximumTokenBytes {
            throw TrackReadError(line: tagLine, "a tag longer than \(maximumTokenBytes) bytes (is it XML?)")
        }
        switch (buffer.count, buffer[0]) {
        case (1, UInt8(ascii: "?")):
            state = .instruction
            buffer.removeAll(keepingCapacity: true)
        case (3, UInt8(ascii: "!")) where buffer.elementsEqual("!--".utf8):
            state = .comment
            buffer.removeAll(keepingCapacity: true)
        case (8, UInt8(ascii: "!")) where buffer.elementsEqual("![CDATA[".utf8):
            state = .cdata
            buffer.removeAll(keepingCapacity: true)
        case (8, UInt8(ascii: "!")) where buffer.elementsEqual("!DOCTYPE".utf8):
            state = .declaration(depth: 0)
        default:
            break
        }
    }

    /// One byte of a CDATA section: its text kept (when wanted) three bytes behind, until `]]>`.
    private mutating func stepCDATA(_ byte: UInt8, _ keepText: (String?) -> Bool) {
        buffer.append(byte)
        if buffer.count > 3 {
            let first = buffer.removeFirst()
            if !textTooLong && keepsText(keepText) {
                if text.count >= maximumTokenBytes { textTooLong = true } else { text.append(first) }
            }
        }
        if buffer.elementsEqual("]]>".utf8) {
            state = .text
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Checks the document ended complete.
    func finish() throws(TrackReadError) {
        switch state {
        case .text: break
        default: throw TrackReadError(line: line, "the file ends inside a tag, comment or section")
        }
        if let open = stack.last { throw TrackReadError(line: line, "the file ends before </\(open)>") }
        if !sawRoot { throw TrackReadError(line: line, "no XML element in the file") }
    }

    private mutating func flushText(_ token: (Token, Int) throws(TrackReadError) -> Void) throws(TrackReadError) {
        defer {
            text.removeAll(keepingCapacity: true)
            textTooLong = false
        }
        if textTooLong {
            throw TrackReadError(
                line: line,
                "the text of <\(stack.last ?? "?")> is longer than \(maximumTokenBytes) bytes: too long to read")
        }
        guard !text.isEmpty else { return }
        try token(.text(try Self.decodeEntities(text, line: line)), line)
    }

    /// Hands out the kept text up to its last white space (a piecewise element's), keeping the rest for the next.
    private mutating func flushPiece(_ token: (Token, Int) throws(TrackReadError) -> Void) throws(TrackReadError) {
        guard let space = text.lastIndex(where: Self.isSpace) else { return }
        let piece = try Self.decodeEntities(text[...space], line: line)
        text.removeSubrange(...space)
        try token(.text(piece), line)
    }

    private mutating func finishTag(_ token: (Token, Int) throws(TrackReadError) -> Void) throws(TrackReadError) {
        state = .text
        guard let first = buffer.first else { throw TrackReadError(line: tagLine, "an empty tag '<>'") }
        if first == UInt8(ascii: "/") {
            let name = Self.localName(Self.trimmingSpaces(buffer.dropFirst()))
            guard let open = stack.last else { throw TrackReadError(line: tagLine, "</\(name)> closes nothing") }
            guard open == name else { throw TrackReadError(line: tagLine, "</\(name)> where </\(open)> was expected") }
            stack.removeLast()
            keepsCurrentText = nil
            try token(.end(name: name), tagLine)
            return
        }
        if first == UInt8(ascii: "!") { return }  // another declaration (<!ENTITY …>): passed over
        var bytes = buffer[...]
        let selfClosing = bytes.last == UInt8(ascii: "/")
        if selfClosing { bytes = bytes.dropLast() }
        let (name, attributes) = try Self.parseTag(bytes, line: tagLine)
        if stack.isEmpty && sawRoot { throw TrackReadError(line: tagLine, "a second root element <\(name)>") }
        sawRoot = true
        if !selfClosing {
            guard stack.count < maximumDepth else {
                throw TrackReadError(line: tagLine, "elements nested deeper than \(maximumDepth)")
            }
            stack.append(name)
            keepsCurrentText = nil
        }
        try token(.start(name: name, attributes: attributes, selfClosing: selfClosing), tagLine)
        if selfClosing { try token(.end(name: name), tagLine) }
    }

    /// The name and attributes of a start tag's text (between `<` and `>`, without a closing `/`).
    static func parseTag(_ bytes: ArraySlice<UInt8>, line: Int) throws(TrackReadError) -> (String, [String: String]) {
        var index = bytes.startIndex
        func skipSpaces() { while index < bytes.endIndex && isSpace(bytes[index]) { index += 1 } }
        func word() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.endIndex && !isSpace(bytes[index]) && bytes[index] != UInt8(ascii: "=") { index += 1 }
            return bytes[start..<index]
        }
        let name = localName(word())
        guard !name.isEmpty else { throw TrackReadError(line: line, "a tag without a name") }
        var attributes: [String: String] = [:]
        while true {
            skipSpaces()
            guard index < bytes.endIndex else { break }
            let attribute = localName(word())
            skipSpaces()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") else {
                throw TrackReadError(line: line, "attribute '\(attribute)' of <\(name)> has no value")
            }
            index += 1
            skipSpaces()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
            else { throw TrackReadError(line: line, "attribute '\(attribute)' of <\(name)> is not quoted") }
            let quote = bytes[index]
            index += 1
            let start = index
            while index < bytes.endIndex && bytes[index] != quote { index += 1 }
            guard index < bytes.endIndex else {
                throw TrackReadError(line: line, "attribute '\(attribute)' of <\(name)> is not closed")
            }
            attributes[attribute] = try decodeEntities(bytes[start..<index], line: line)
            index += 1
        }
        return (name, attributes)
    }

    /// `gpxtpx:speed` → `speed`.
    static func localName(_ name: ArraySlice<UInt8>) -> String {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return String(decoding: name, as: UTF8.self) }
        return String(decoding: name[(colon + 1)...], as: UTF8.self)
    }

    /// `bytes` without the XML spaces around them.
    static func trimmingSpaces(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, isSpace(first) { bytes.removeFirst() }
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        return bytes
    }

    /// `true` for a tag whose first byte is this: an element's, not a comment, section, declaration or
    /// instruction (`<!`, `<?`), which are read a byte at a time.
    static func isElementTag(first: UInt8) -> Bool {
        first != UInt8(ascii: "!") && first != UInt8(ascii: "?")
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Text with `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` and `&#xH;` replaced.
    static func decodeEntities(_ bytes: some Collection<UInt8>, line: Int) throws(TrackReadError) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        var iterator = Array(bytes)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                continue
            }
            guard let end = iterator.firstIndex(of: UInt8(ascii: ";")), end - iterator.startIndex <= 10 else {
                throw TrackReadError(line: line, "an '&' that starts no entity")
            }
            let name = String(decoding: iterator[..<end], as: UTF8.self)
            iterator = iterator[(end + 1)...]
            switch name {
            case "amp": out.append(UInt8(ascii: "&"))
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                let scalar: UInt32? =
                    name.hasPrefix("#x")
                    ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
                guard let scalar, let character = Unicode.Scalar(scalar) else {
                    throw TrackReadError(line: line, "an unknown entity '&\(name);'")
                }
                out += Array(String(Character(character)).utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    /// Without the ASCII spaces, tabs and line ends around it (XML's spaces).
    func trimmingSpaces() -> String {
        var utf8 = Substring(self).utf8[...]
        while let first = utf8.first, XMLTokenizer.isSpace(first) { utf8.removeFirst() }
        while let last = utf8.last, XMLTokenizer.isSpace(last) { utf8.removeLast() }
        return utf8.count == self.utf8.count ? self : String(Substring(utf8))
    }
}
