import Glibc
import System

/// A document file that is complete after every commit: the content so far followed by a closing tail
/// (`</trkseg></trk></gpx>`, `]}`), where each commit adds content and moves the tail.
///
/// The file is a ``ReplacingFile``: written under a temporary name beside its path and renamed over it, with
/// ``Publication/atFinish`` by ``finish()`` (batch: a failure leaves the old file untouched), with
/// ``Publication/atFirstPoint`` by the first commit after the first document (live: at the path, valid after every
/// commit, from the first point on). Either way the temporary file gets the same crash-safe commits, so the guarantee
/// below holds for whichever name the document has.
///
/// Three ways to commit, chosen by the writer and by what the file descriptor is:
///
/// - **XML, inert-region protocol** (``Kind/xml``, GPX on a regular file). A SIGKILL that arrives while the kernel
///   copies a write spanning several pages can cut that write at a page boundary (Linux checks for fatal signals
///   between pages), so "new points + new tail in one `pwrite`" can still leave a truncated document. Instead:
///   1. The file always ends in *inert* space: a processing instruction (`<?pad …?>`) opened right after the tail,
///      followed by whole 4 KiB pages that are each `<?pad …?>` on their own; the length stays a multiple of 4 KiB.
///      Growing the file appends such pages; a cut append leaves fewer whole pages, still valid.
///   2. The new content and the new tail (and a new `<?pad `) are written into the inert space after the current
///      tail. Cut anywhere at a page boundary, the bytes written are inside the open instruction, which the next
///      intact page's `?>` closes: the document is still the previous one.
///   3. The switch: the first bytes of the new content are written over the old tail and its `<?pad ` (about
///      32 bytes, placed so they never cross a 4 KiB boundary, or a 512-byte sector with `sync`). One write within
///      a page is never cut, so the file holds either the old document or the new one.
///   On a clean ``finish()`` the file is truncated right after the tail, so a finished file has no padding.
/// - **JSON, overwrite** (``Kind/json``, GeoJSON on a regular file). JSON has no comments or instructions, so
///   nothing can be written after the root value without breaking it, and no inert space exists. The file is first
///   grown with spaces (trailing whitespace is valid; a failure such as `ENOSPC` here is undone with `ftruncate`),
///   then the new content and tail are written over the old tail in one `pwrite`. Small writes are never cut; a
///   write spanning pages can be cut by SIGKILL at a page boundary, which leaves a damaged file. Live logging writes
///   a few kilobytes per flush, so the window is microseconds per flush; batch conversion writes more.
/// - **Lines, append** (``Kind/lines``, CSV on a regular file): no tail; each commit is one `pwrite` at the end of
///   the file. A SIGKILL inside a write of several pages can leave the last row cut short; every row before it is
///   whole.
/// - **Stream** (``Kind/stream``, pipes, terminals, devices, standard output): content is written in order and the
///   tail at ``finish()``. The reader sees a complete document only at the end.
/// - **Sequential** (``Kind/sequential``, a batch GeoJSON on a regular file): written as a stream under its
///   temporary name, then put in place whole. Nobody reads it before then, so it need not be a document after each
///   flush; a failure or a signal removes it and the path keeps what it held.
///
/// With `sync`, `fdatasync` follows the bulk write and the switch, so after a power cut the file holds the last
/// document whose switch was synced, on file systems that write data before the metadata that points to it (ext4
/// in its default `data=ordered` mode, XFS); without `sync` a power cut can lose or tear anything the kernel had not
/// yet written back. Power-cut behaviour is designed for, not tested.
struct DocumentFile {
    enum Kind: Sendable {
        case xml
        case json
        case lines
        case stream
        case sequential
    }

    private(set) var fd: FileDescriptor
    /// Until ``closeDescriptor()``.
    private var isOpen = true
    let path: String
    let kind: Kind
    let sync: Bool
    private let ownsDescriptor: Bool
    /// The file that replaces `path`, until it is in place and closed; `nil` for a descriptor given to write to.
    private var replacing: ReplacingFile?
    /// When the file replaces `path`.
    let publication: Publication
    /// Where the current tail starts: the committed content is `[0, tailOffset)`.
    private(set) var tailOffset = 0
    private(set) var tail: [UInt8] = []
    /// The file's length, with the inert padding (xml) or trailing spaces (json).
    private(set) var fileLength = 0
    /// A stream's head, until the first content or ``finish()`` writes it (a descriptor given to write to: standard
    /// output).
    private var pendingHead: [UInt8]?
    private var defersHead = false
    /// The next commit of an xml or json file (the content, its padding, the new tail, an xml file's opener after
    /// it) and the inert pages that grow an xml file, built in buffers kept from one commit to the next: a buffer of a
    /// batch's size (a megabyte when converting) made afresh at each commit cost a page fault every 4 KiB, in the
    /// kernel's time.
    private var commitBytes: [UInt8] = []
    private var inertSpace: [UInt8] = []
    /// Set after a failed commit that may have damaged the file; nothing is written after it.
    private(set) var failure: TrackError?

    static let pageSize = 4096
    /// Opens the inert instruction after the tail.
    static let opener: [UInt8] = Array("<?pad ".utf8)
    /// One page of inert space: a complete processing instruction.
    static let inertPage: [UInt8] = {
        var page = Array("<?pad".utf8)
        page += [UInt8](repeating: UInt8(ascii: " "), count: pageSize - page.count - 3)
        page += Array("?>\n".utf8)
        return page
    }()

    /// Creates the file that will replace `path` (a ``ReplacingFile``): the document is written to a temporary file
    /// beside it, renamed into place at the first commit after ``start(head:tail:)`` with ``Publication/atFirstPoint``
    /// or at ``finish()`` with ``Publication/atFinish``, so `path` is never seen empty or half-written and keeps what
    /// it held until then. A regular file gets `kind`; a device or FIFO is opened in place, as a stream.
    init(path: String, kind: Kind, sync: Bool, publication: Publication = .atFinish) throws(TrackError) {
        do throws(Errno) {
            replacing = try ReplacingFile(path: path)
        } catch {
            throw TrackError(path: path, operation: .create, code: error.rawValue, fileIsIntact: true)
        }
        fd = replacing!.descriptor
        self.path = path
        self.kind = (try? fd.status().kind) == .regular ? kind : .stream
        self.sync = sync
        self.publication = publication
        ownsDescriptor = true
    }

    /// Writes to an open descriptor (standard output) as a stream; the descriptor is not closed.
    init(streamingTo fd: FileDescriptor, name: String) {
        self.fd = fd
        path = name
        kind = .stream
        sync = false
        ownsDescriptor = false
        replacing = nil
        publication = .atFinish
        defersHead = true
    }

    /// Continues, in place, a document whose state ``continuing(path:kind:sync:tails:)`` read back: `fd` is open for
    /// reading and writing, the committed content is `[0, tailOffset)`, `tail` follows it, and the file is
    /// `fileLength` bytes long (with the inert space or trailing spaces).
    init(
        continuing fd: FileDescriptor, path: String, kind: Kind, sync: Bool, tailOffset: Int, tail: [UInt8],
        fileLength: Int
    ) {
        self.fd = fd
        self.path = path
        self.kind = kind
        self.sync = sync
        ownsDescriptor = true
        replacing = nil
        publication = .atFirstPoint
        self.tailOffset = tailOffset
        self.tail = tail
        self.fileLength = fileLength
    }

    /// The alignment the switch must not cross.
    var switchBlock: Int { sync ? 512 : Self.pageSize }

    // MARK: Starting

    /// Writes the first document: `head` followed by `tail`.
    mutating func start(head: [UInt8], tail: [UInt8]) throws(TrackError) {
        switch kind {
        case .stream where defersHead:
            // Held until the first content or the end: a stream given up before then gets nothing at all (a failed
            // conversion to standard output prints no half document).
            pendingHead = head
            self.tail = tail
        case .stream, .sequential:
            try check(errorCode { try fd.writeAll(head) }, .write, intact: false)
            self.tail = tail
        case .lines:
            try check(errorCode { try fd.writeAll(head, toAbsoluteOffset: 0) }, .write, intact: false)
            tailOffset = head.count
            fileLength = head.count
            try syncIfAsked(intact: false)
        case .json:
            let bytes = head + tail
            try check(errorCode { try fd.writeAll(bytes, toAbsoluteOffset: 0) }, .write, intact: false)
            tailOffset = head.count
            self.tail = tail
            fileLength = bytes.count
            try syncIfAsked(intact: false)
        case .xml:
            var content = head
            padForSwitch(&content, offset: 0, switchLength: tail.count + Self.opener.count)
            tailOffset = content.count
            content += tail
            content += Self.opener
            // Fill to the page end: spaces, then the closer of the instruction opened above.
            let length = roundUpToPage(content.count + 3)
            content += [UInt8](repeating: UInt8(ascii: " "), count: length - content.count - 3)
            content += Array("?>\n".utf8)
            try check(errorCode { try fd.writeAll(content, toAbsoluteOffset: 0) }, .write, intact: false)
            self.tail = tail
            fileLength = length
            try syncIfAsked(intact: false)
        }
    }

    /// `true` once the file is at its path (always for a stream).
    var isPublished: Bool { replacing?.isCommitted ?? (pendingHead == nil) }

    /// Renames the temporary file to its path: it holds a complete document.
    mutating func publish() throws(TrackError) {
        guard let replacing, !replacing.isCommitted else { return }
        do throws(Errno) {
            try replacing.commit()
        } catch {
            replacing.discard()
            throw TrackError(path: path, operation: .create, code: error.rawValue, fileIsIntact: true)
        }
    }

    /// Publishes after a commit that follows the first document, for ``Publication/atFirstPoint``.
    private mutating func publishIfLive() throws(TrackError) {
        if publication == .atFirstPoint { try publish() }
    }

    // MARK: Committing

    /// Adds `body` after the committed content and makes `newTail` the tail (xml and stream files).
    mutating func append(_ body: [UInt8], newTail: [UInt8]) throws(TrackError) {
        if let failure { throw failure }
        switch kind {
        case .stream, .sequential:
            let bytes = (pendingHead ?? []) + body
            pendingHead = nil
            try check(errorCode { try fd.writeAll(bytes) }, .write, intact: false)
            tail = newTail
        case .lines:
            try check(errorCode { try fd.writeAll(body, toAbsoluteOffset: tailOffset) }, .write, intact: false)
            tailOffset += body.count
            fileLength = tailOffset
            try syncIfAsked(intact: true)
            try publishIfLive()
        case .json:
            try replace(from: tailOffset, with: body, newTail: newTail)
        case .xml:
            try appendXML(body, newTail: newTail)
            try publishIfLive()
        }
    }

    /// Replaces everything from `offset` (at or before the tail) with `content` and `newTail` (json files).
    mutating func replace(from offset: Int, with content: [UInt8], newTail: [UInt8]) throws(TrackError) {
        if let failure { throw failure }
        precondition(kind == .json && offset <= tailOffset)
        let newEnd = offset + content.count + newTail.count
        if newEnd > fileLength {
            // Grow with spaces first: after the root value they are valid, and once the blocks exist the overwrite
            // below needs no new space, so a full disk fails here, where it harms nothing.
            let spaces = [UInt8](repeating: UInt8(ascii: " "), count: newEnd - fileLength)
            if let code = errorCode({ try fd.writeAll(spaces, toAbsoluteOffset: fileLength) }) {
                try? fd.resize(to: fileLength)
                throw TrackError(path: path, operation: .write, code: code, fileIsIntact: true)
            }
        }
        var bytes: [UInt8] = []
        swap(&bytes, &commitBytes)
        defer { swap(&bytes, &commitBytes) }
        bytes.removeAll(keepingCapacity: true)
        bytes += content
        bytes += newTail
        if newEnd < fileLength {
            // Never leave stale bytes after the new tail.
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: fileLength - newEnd))
        }
        try check(errorCode { try fd.writeAll(bytes, toAbsoluteOffset: offset) }, .write, intact: false)
        fileLength = max(fileLength, newEnd)
        tailOffset = offset + content.count
        tail = newTail
        try syncIfAsked(intact: true)
        try publishIfLive()
    }

    private mutating func appendXML(_ body: [UInt8], newTail: [UInt8]) throws(TrackError) {
        let switchLength = tail.count + Self.opener.count
        var data: [UInt8] = []
        swap(&data, &commitBytes)
        defer { swap(&data, &commitBytes) }
        data.removeAll(keepingCapacity: true)
        data += body
        // The switch writes the first `switchLength` bytes of the new data; make sure there are that many (spaces
        // before the tail are whitespace in element content).
        let minimumBody = switchLength - newTail.count - Self.opener.count
        if data.count < minimumBody {
            data.append(contentsOf: repeatElement(UInt8(ascii: " "), count: minimumBody - data.count))
        }
        // The next switch (over newTail and its opener) must not cross a block boundary.
        padForSwitch(&data, offset: tailOffset, switchLength: newTail.count + Self.opener.count)
        let newTailOffset = tailOffset + data.count
        data += newTail
        data += Self.opener
        try finishAppendXML(data, newTailOffset: newTailOffset, newTail: newTail, switchLength: switchLength)
    }

    /// Appends `count` bytes of inert pages (a multiple of ``pageSize``) to the file, from ``inertSpace``.
    /// - Returns: the error's code, or `nil`.
    private mutating func writeInertPages(_ count: Int) -> Int32? {
        while inertSpace.count < count { inertSpace += Self.inertPage }
        return inertSpace.withUnsafeBytes { pages in
            errorCode {
                try fd.writeAll(UnsafeRawBufferPointer(rebasing: pages[..<count]), toAbsoluteOffset: fileLength)
            }
        }
    }

    private mutating func finishAppendXML(
        _ data: [UInt8], newTailOffset: Int, newTail: [UInt8],
        switchLength: Int
    ) throws(TrackError) {
        // 1. Enough inert space: the data must end before the final `?>\n`.
        let dataEnd = tailOffset + data.count
        if dataEnd > fileLength - 3 {
            let newLength = roundUpToPage(dataEnd + 3)
            if let code = writeInertPages(newLength - fileLength) {
                try? fd.resize(to: fileLength)
                throw TrackError(path: path, operation: .write, code: code, fileIsIntact: true)
            }
            fileLength = newLength
        }
        // 2. Everything but the switch, into the inert space after the current opener.
        let code = data.withUnsafeBytes { bytes in
            errorCode {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[switchLength...])
                try fd.writeAll(rest, toAbsoluteOffset: tailOffset + switchLength)
            }
        }
        if let code { throw TrackError(path: path, operation: .write, code: code, fileIsIntact: true) }
        try syncIfAsked(intact: true)
        // 3. The switch: one small write within a block.
        let switchCode = data.withUnsafeBytes { bytes in
            errorCode {
                try fd.writeAll(UnsafeRawBufferPointer(rebasing: bytes[..<switchLength]), toAbsoluteOffset: tailOffset)
            }
        }
        if let switchCode { throw TrackError(path: path, operation: .write, code: switchCode, fileIsIntact: true) }
        tailOffset = newTailOffset
        tail = newTail
        try syncIfAsked(intact: true)
    }

    /// Appends spaces to `content` (which will start at `offset`) so that a switch region of `switchLength` bytes
    /// placed right after it does not cross a ``switchBlock`` boundary.
    private func padForSwitch(_ content: inout [UInt8], offset: Int, switchLength: Int) {
        let start = offset + content.count
        let block = switchBlock
        if start / block != (start + switchLength - 1) / block {
            content += [UInt8](repeating: UInt8(ascii: " "), count: block - start % block)
        }
    }

    // MARK: Finishing

    /// Writes the tail of a stream, or trims the padding of a file and puts it in place (but with
    /// ``Publication/onRequest``, which waits for ``publish()``); closes the descriptor when it owns it.
    mutating func finish() throws(TrackError) {
        // A finished document (a day's file waiting to be published) holds no buffer.
        commitBytes = []
        inertSpace = []
        do throws(TrackError) {
            if let failure { throw failure }
            switch kind {
            case .stream:
                let bytes = (pendingHead ?? []) + tail
                pendingHead = nil
                try check(errorCode { try fd.writeAll(bytes) }, .write, intact: false)
            case .sequential:
                try check(errorCode { try fd.writeAll(tail) }, .write, intact: false)
                try syncIfAsked(intact: true)
                if publication != .onRequest { try publish() }
            case .json, .xml, .lines:
                let end = tailOffset + tail.count
                if fileLength != end {
                    try check(errorCode { try fd.resize(to: end) }, .truncate, intact: kind == .xml)
                    fileLength = end
                }
                try syncIfAsked(intact: true)
                if publication != .onRequest { try publish() }
            }
        } catch {
            closeDescriptor()
            throw error
        }
        // A complete document waiting for publish() keeps its temporary file; the descriptor is not needed.
        if let replacing, !replacing.isCommitted {
            replacing.close()
            isOpen = false
        } else {
            closeDescriptor()
        }
    }

    /// Closes the descriptor without finishing (after a failure or ``Publication``'s discard): a file not yet
    /// published is removed and `path` keeps what it held; a published one stays as its last commit left it.
    /// A finished document waiting for ``publish()`` is removed too.
    mutating func closeDescriptor() {
        if let replacing {
            replacing.discard()
            replacing.close()
        } else if ownsDescriptor && isOpen {
            try? fd.close()
        }
        replacing = nil
        isOpen = false
    }

    // MARK: Helpers

    private func roundUpToPage(_ length: Int) -> Int {
        (length + Self.pageSize - 1) / Self.pageSize * Self.pageSize
    }

    private mutating func syncIfAsked(intact: Bool) throws(TrackError) {
        guard sync else { return }
        try check(errorCode { try fd.synchronizeData() }, .sync, intact: intact)
    }

    /// The `errno` of a failed call, `nil` when `body` succeeded.
    private func errorCode(_ body: () throws -> Void) -> Int32? {
        do {
            try body()
            return nil
        } catch {
            return (error as? Errno ?? .ioError).rawValue  // only Errno is thrown
        }
    }

    /// Throws (and remembers, when the file may be damaged) the error for a failed call.
    private mutating func check(_ code: Int32?, _ operation: TrackError.Operation, intact: Bool) throws(TrackError) {
        guard let code else { return }
        let error = TrackError(path: path, operation: operation, code: code, fileIsIntact: intact)
        if !intact { failure = error }
        throw error
    }
}

extension DocumentFile {
    /// Puts `bytes` into the finished document, at `offset` (GPX's waypoints and routes, which the schema puts
    /// before the track): a copy with them is written beside it (a ``ReplacingFile`` of its own), then put in place
    /// of the document — renamed over the path when the document is there already, or kept for ``publish()`` in
    /// place of the document's own temporary file when it is not (``Publication/onRequest``). Either way the path
    /// holds the old complete document until it holds the new one. Streams the copy in 1 MiB pieces.
    /// - Throws: ``TrackError`` (the document is then as it was).
    mutating func insert(_ bytes: [UInt8], at offset: Int) throws(TrackError) {
        func failed(_ operation: TrackError.Operation, _ error: Errno) -> TrackError {
            TrackError(path: path, operation: operation, code: error.rawValue, fileIsIntact: true)
        }
        let waiting = replacing.flatMap { $0.isCommitted ? nil : $0 }
        let sourcePath = waiting?.temporaryPath ?? path
        let source: FileDescriptor
        do { source = try FileDescriptor.open(sourcePath, .readOnly, options: [.closeOnExec]) } catch {
            throw failed(.create, error)
        }
        defer { try? source.close() }
        let copy: ReplacingFile
        do { copy = try ReplacingFile(path: path, variant: "insert") } catch { throw failed(.create, error) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var position = 0
        do throws(Errno) {
            /// Copies the source from `position` up to `end` (`nil`: its end).
            func copyUntil(_ end: Int?) throws(Errno) {
                while end.map({ position < $0 }) ?? true {
                    let wanted = min(buffer.count, (end ?? Int.max) - position)
                    let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted])
                    let count = try source.readAll(into: piece, fromAbsoluteOffset: position)
                    if count == 0 { break }
                    try copy.descriptor.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                    position += count
                }
            }
            try copyUntil(offset)
            try copy.descriptor.writeAll(bytes)
            try copyUntil(nil)
            if sync { try copy.descriptor.synchronizeData() }
        } catch {
            copy.discard()
            throw failed(.write, error)
        }
        copy.close()
        if let waiting {
            waiting.discard()
            replacing = copy
        } else {
            do { try copy.commit() } catch {
                copy.discard()
                throw failed(.write, error)
            }
        }
    }
}
