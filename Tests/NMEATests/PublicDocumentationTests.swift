import Foundation
import TestSupport
import Testing

/// Every declaration of `NMEA` written `public` (or `open`) has a `///` comment, on the line before it or before
/// its attributes. The sentence fields still without one are listed in `Tests/undocumented-nmea.txt`
/// (`path: declaration`), which may only shrink: a listed declaration that now has its comment fails the test until
/// its line is removed, and so does any public declaration without one that is not listed.
@Suite struct PublicDocumentationTests {
    /// `path: declaration` for each public declaration under `directory` without a doc comment, `path` relative to
    /// `directory` and prefixed with `prefix`.
    static func undocumented(in directory: String, prefix: String) throws -> [String] {
        guard let files = FileManager.default.enumerator(atPath: directory) else { return [] }
        var missing: [String] = []
        let attribute = try Regex(#"^\s*(@\w+(\([^)]*\))?\s*)+$"#)
        let declaration = try Regex(#"^\s*(@\w+(\([^)]*\))?\s+)*(public|open)\s"#)
        let notADeclaration = try Regex(#"^\s*(@\w+(\([^)]*\))?\s+)*public\s+(extension|import)\b"#)
        for case let file as String in files where file.hasSuffix(".swift") {
            let lines = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                guard line.firstMatch(of: declaration) != nil, line.firstMatch(of: notADeclaration) == nil else {
                    continue
                }
                var previous = index - 1
                while previous >= 0 && lines[previous].wholeMatch(of: attribute) != nil { previous -= 1 }
                let comment = previous >= 0 ? lines[previous].trimmingCharacters(in: .whitespaces) : ""
                if !comment.hasPrefix("///") {
                    missing.append("\(prefix)\(file): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return missing.sorted()
    }

    @Test func everyPublicDeclarationHasADocComment() throws {
        let listed = Set(
            readTextFile(Locations.packageRoot + "/Tests/undocumented-nmea.txt")
                .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") })
        let missing = try Self.undocumented(in: Locations.packageRoot + "/Sources/NMEA", prefix: "Sources/NMEA/")
        for declaration in missing where !listed.contains(declaration) {
            Issue.record("no doc comment: \(declaration)")
        }
        for declaration in listed.subtracting(missing) {
            Issue.record("documented now (remove its line from Tests/undocumented-nmea.txt): \(declaration)")
        }
    }

    /// The scan itself: a public declaration without a comment is found; one with a comment, before its attributes
    /// too, is not, nor is a public extension.
    @Test func scanFindsExactlyTheDeclarationWithoutAComment() throws {
        let directory = TemporaryDirectory("docscan")
        defer { directory.remove() }
        let source = """
            /// Documented.
            public struct A {
                /// Documented, before its attributes.
                @inlinable @inline(__always)
                public var a: Int { 0 }

                public var b: Int { 0 }
            }

            public extension A {}

            """
        try source.write(toFile: directory.file("A.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.undocumented(in: directory.path, prefix: "") == ["A.swift: public var b: Int { 0 }"])
    }
}
