import Glibc
import NMEA
import System

/// Continuing a document that a writer left — live (with its inert space or trailing spaces), killed with SIGKILL at
/// any moment, or finished — in place, so that a logger restarted on the same day appends to the day's file.
///
/// Finding where the committed content ends, from the file alone:
///
/// - **xml**: the committed content never holds `<?pad ` (the XML declaration is `<?xml`, and text is escaped), and the
///   inert space after the tail always begins with it; so the first `<?pad ` in the file opens the inert space and the
///   tail ends right before it. What a killed commit wrote into the inert space before its switch (new points, a new
///   tail, another `<?pad `) is inside that instruction, not part of the document, and the next commit writes over
///   it. A finished file has no `<?pad `: its tail ends the file, and inert space up to the end of the tail's page
///   is added after it (one write within a page, never cut). When the tail and the opener would cross a switch block, or no room is left in the
///   tail's page, the file is first written again beside itself (a ``ReplacingFile``) with spaces before the tail
///   (white space in element content) and renamed over itself: the old file stays whole until the rename.
/// - **json**: only spaces follow the tail. Nothing marks a commit that SIGKILL cut inside a write of several pages
///   (``DocumentFile``'s documented window), so the writer checks the content it continues (see
///   ``GeoJSONWriter/init(continuing:options:)``).
///
/// The file is opened where it is: it is the writer's own published document, so there is nothing to replace.
extension DocumentFile {
    /// Opens the document at `path` to continue it.
    /// - Parameter tails: the tails the writer may have left; the first that ends the content is taken.
    /// - Returns: the file, ready for ``append(_:newTail:)`` or ``replace(from:with:newTail:)``, and the index in
    ///   `tails` of the tail found.
    /// - Throws: ``TrackError`` with ``TrackError/Operation/reopen``: the system's `errno`, or `EINVAL` when the file
    ///   does not end as a document of this kind does.
    static func continuing(path: String, kind: Kind, sync: Bool, tails: [[UInt8]]) throws(TrackError) -> (
        file: DocumentFile, tail: Int
    ) {
        try continuing(path: path, kind: kind, sync: sync, tails: tails, mayRewrite: true)
    }

    private static func continuing(
        path: String, kind: Kind, sync: Bool, tails: [[UInt8]], mayRewrite: Bool
    ) throws(TrackError) -> (file: DocumentFile, tail: Int) {
        precondition(kind == .xml || kind == .json, "only XML and JSON documents are continued")
        let notOurs = reopenError(path, Errno.invalidArgument.rawValue)
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readWrite, options: [.closeOnExec]) } catch {
            throw reopenError(path, error.rawValue)
        }
        var keepOpen = false
        defer { if !keepOpen { try? fd.close() } }
        let status: FileStatus
        do { status = try fd.status() } catch { throw reopenError(path, error.rawValue) }
        guard status.kind == .regular else { throw notOurs }
        let size = status.size
        let (tailEnd, isPadded) = try Self.tailEnd(of: fd, kind: kind, size: size, path: path)
        let longest = tails.map(\.count).max() ?? 0
        let end = try read(fd, from: max(0, tailEnd - longest), count: min(longest, tailEnd), path: path)
        guard let index = tails.firstIndex(where: { end.count >= $0.count && end.suffix($0.count).elementsEqual($0) })
        else { throw notOurs }
        let tail = tails[index]
        let tailOffset = tailEnd - tail.count
        var fileLength = size
        if kind == .xml {
            let block = sync ? 512 : pageSize
            let switchFits = tailOffset / block == (tailEnd + Self.opener.count - 1) / block
            let room = pageSize - tailEnd % pageSize
            if isPadded && !switchFits || !isPadded && !(switchFits && room >= Self.opener.count + 3) {
                // The rare file whose next switch could be cut: written again with the tail moved to a block start.
                guard mayRewrite else { throw notOurs }
                try rewritePadded(fd, path: path, contentEnd: tailOffset, tail: tail, block: block, sync: sync)
                return try continuing(path: path, kind: kind, sync: sync, tails: tails, mayRewrite: false)
            }
            if !isPadded {
                try padToPageEnd(fd, from: tailEnd, room: room, sync: sync, path: path)
                fileLength = tailEnd + room
            }
        }
        keepOpen = true
        let file = DocumentFile(
            continuing: fd, path: path, kind: kind, sync: sync, tailOffset: tailOffset, tail: tail,
            fileLength: fileLength)
        return (file, index)
    }

    /// Where the document's tail ends: before the inert space (xml, then `isPadded`) or the trailing spaces (json).
    private static func tailEnd(of fd: FileDescriptor, kind: Kind, size: Int, path: String) throws(TrackError)
        -> (end: Int, isPadded: Bool)
    {
        guard kind == .xml else { return (try endWithoutSpaces(fd, size: size, path: path), false) }
        guard let opener = try firstOccurrence(of: opener, in: fd, size: size, path: path) else { return (size, false) }
        let end = try read(fd, from: size - 3, count: 3, path: path)
        guard size % pageSize == 0, end == Array("?>\n".utf8) else {
            throw reopenError(path, Errno.invalidArgument.rawValue)
        }
        return (opener, true)
    }

    /// Inert space after the finished document's tail, up to its page's end (`room` bytes): one write within a page.
    private static func padToPageEnd(_ fd: FileDescriptor, from tailEnd: Int, room: Int, sync: Bool, path: String)
        throws(TrackError)
    {
        var page = Self.opener
        page += [UInt8](repeating: UInt8(ascii: " "), count: room - Self.opener.count - 3)
        page += Array("?>\n".utf8)
        do {
            try fd.writeAll(page, toAbsoluteOffset: tailEnd)
            if sync { try fd.synchronizeData() }
        } catch {
            try? fd.resize(to: tailEnd)
            throw reopenError(path, error.rawValue)
        }
    }

    // MARK: Reading back

    /// Up to `count` bytes of the file from `offset` (fewer at its end).
    func read(from offset: Int, count: Int) throws(TrackError) -> [UInt8] {
        try Self.read(fd, from: offset, count: count, path: path)
    }

    /// The last `count` points of the committed content, oldest first, for a writer that continues it (its
    /// segmenter, what it already holds). A window at the end of the content is made a complete document by `wrap`
    /// (`nil`: no whole point in it yet) and read by the reader of `format`; the window begins at
    /// `max(minimumWindow, count × bytesPerPoint)` bytes and grows until it holds `count` points or is the whole
    /// content (from `contentStart`). Breaks between segments are not points.
    /// - Throws: ``TrackError`` (``TrackError/Operation/reopen``, `EINVAL`) when the window does not read as
    ///   complete, or has points that cannot be read.
    func lastPoints(
        _ count: Int, format: TrackFileReader.Format, contentStart: Int, bytesPerPoint: Int, minimumWindow: Int,
        wrap: (_ window: ArraySlice<UInt8>, _ isWhole: Bool) throws(TrackError) -> [UInt8]?
    ) throws(TrackError) -> [Fix] {
        let notOurs = Self.reopenError(path, Errno.invalidArgument.rawValue)
        let contentLength = max(0, tailOffset - contentStart)
        let guess = count.multipliedReportingOverflow(by: bytesPerPoint)
        var window = min(contentLength, max(minimumWindow, guess.overflow ? Int.max : guess.partialValue))
        while true {
            let isWhole = window >= contentLength
            let bytes = try read(from: tailOffset - window, count: window)
            if let document = try wrap(bytes[...], isWhole) {
                var points: [Fix] = []
                var reader = TrackFileReader(format: format)
                let keep: (Fix) -> Void = { fix in
                    guard fix.latitude != nil && fix.longitude != nil else { return }
                    points.append(fix)
                    if count < Int.max / 4 && points.count >= 2 * count + 1024 {
                        points.removeFirst(points.count - count)
                    }
                }
                do {
                    try document.withUnsafeBytes { try reader.read($0, keep) }
                    try reader.finish(keep)
                } catch {
                    throw notOurs
                }
                guard reader.statistics.rejectedPoints == 0 else { throw notOurs }
                if points.count >= count || isWhole { return Array(points.suffix(count)) }
            } else if isWhole {
                throw notOurs
            }
            window = min(contentLength, window > contentLength / 4 ? contentLength : window * 4)
        }
    }

    /// Hands every committed point to `body`, in order, reading the document from its start in pieces of 1 MiB
    /// (memory: one piece, whatever the file's length), `closing` being what ends it after the content.
    func forEachPoint(
        format: TrackFileReader.Format, closing: [UInt8], _ body: (Fix) -> Void
    ) throws(TrackError) {
        var reader = TrackFileReader(format: format)
        let piece = 1 << 20
        var offset = 0
        do {
            func each(_ fix: Fix) { if fix.latitude != nil && fix.longitude != nil { body(fix) } }
            while offset < tailOffset {
                let bytes = try read(from: offset, count: min(piece, tailOffset - offset))
                guard !bytes.isEmpty else { break }
                try bytes.withUnsafeBytes { try reader.read($0, each) }
                offset += bytes.count
            }
            try closing.withUnsafeBytes { try reader.read($0, each) }
            try reader.finish(each)
        } catch let error as TrackError {
            throw error
        } catch {
            throw Self.reopenError(path, Errno.invalidArgument.rawValue)
        }
    }

    // MARK: Helpers

    private static func reopenError(_ path: String, _ code: Int32) -> TrackError {
        TrackError(path: path, operation: .reopen, code: code, fileIsIntact: true)
    }

    private static func read(_ fd: FileDescriptor, from offset: Int, count: Int, path: String) throws(TrackError)
        -> [UInt8]
    {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        do {
            let done = try bytes.withUnsafeMutableBytes { try fd.readAll(into: $0, fromAbsoluteOffset: offset) }
            bytes.removeLast(count - done)
        } catch {
            throw reopenError(path, (error as? Errno ?? .ioError).rawValue)
        }
        return bytes
    }

    /// Where `needle` first occurs in the file, read in pieces of 1 MiB; `nil` when it does not.
    private static func firstOccurrence(of needle: [UInt8], in fd: FileDescriptor, size: Int, path: String)
        throws(TrackError) -> Int?
    {
        let piece = 1 << 20
        var offset = 0
        while offset < size {
            // Each piece overlaps the next by the needle's length less one, so a match across them is seen.
            let bytes = try read(fd, from: offset, count: min(piece + needle.count - 1, size - offset), path: path)
            if let index = firstIndex(of: needle, in: bytes[...]) { return offset + index }
            offset += piece
        }
        return nil
    }

    /// The file's length without its trailing spaces (a JSON document's growth space).
    private static func endWithoutSpaces(_ fd: FileDescriptor, size: Int, path: String) throws(TrackError) -> Int {
        var end = size
        while end > 0 {
            let start = max(0, end - 65_536)
            let bytes = try read(fd, from: start, count: end - start, path: path)
            if let last = bytes.lastIndex(where: { $0 != UInt8(ascii: " ") }) { return start + last + 1 }
            end = start
        }
        return 0
    }

    /// Writes the content `[0, contentEnd)` of `source` again beside it, then spaces so that `tail` and the opener
    /// after it start a `block`, then `tail` and one inert page's worth of padding, and renames the copy over the
    /// file (``ReplacingFile``): until the rename the file is as it was.
    private static func rewritePadded(
        _ source: FileDescriptor, path: String, contentEnd: Int, tail: [UInt8], block: Int, sync: Bool
    ) throws(TrackError) {
        let copy: ReplacingFile
        do { copy = try ReplacingFile(path: path) } catch { throw reopenError(path, error.rawValue) }
        defer {
            copy.discard()
            copy.close()
        }
        do {
            var offset = 0
            while offset < contentEnd {
                let bytes = try read(source, from: offset, count: min(1 << 20, contentEnd - offset), path: path)
                guard !bytes.isEmpty else { throw reopenError(path, Errno.invalidArgument.rawValue) }
                try copy.descriptor.writeAll(bytes)
                offset += bytes.count
            }
            var end = [UInt8](repeating: UInt8(ascii: " "), count: block - contentEnd % block)
            end += tail
            end += opener
            let length = contentEnd + end.count + 3
            let padded = (length + pageSize - 1) / pageSize * pageSize
            end += [UInt8](repeating: UInt8(ascii: " "), count: padded - length)
            end += Array("?>\n".utf8)
            try copy.descriptor.writeAll(end)
            if sync { try copy.descriptor.synchronizeData() }
            try copy.commit()
        } catch let error as TrackError {
            throw error
        } catch {
            throw reopenError(path, (error as? Errno ?? .ioError).rawValue)
        }
    }
}

/// Where `needle` first occurs in `bytes`, as an offset from its start; `nil` when it does not.
func firstIndex(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard let first = needle.first, bytes.count >= needle.count else { return nil }
    return bytes.withUnsafeBufferPointer { buffer -> Int? in
        var index = 0
        let last = buffer.count - needle.count
        while index <= last {
            guard let found = memchr(buffer.baseAddress! + index, Int32(first), last - index + 1) else {
                return nil
            }
            index = UnsafeRawPointer(buffer.baseAddress!).distance(to: UnsafeRawPointer(found))
            if needle.indices.allSatisfy({ buffer[index + $0] == needle[$0] }) { return index }
            index += 1
        }
        return nil
    }
}
