/// Standard base 64 (RFC 4648): HTTP basic authentication's `user:password`, both ways. The one base 64 of the
/// project.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base 64, padded with `=`.
    public static func encoded(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let value = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(value >> 18 & 63)])
            output.append(alphabet[Int(value >> 12 & 63)])
            output.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(value >> 6 & 63)])
            output.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(value & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base 64 `text` (with or without padding); `nil` for any other character.
    public static func decoded(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var bits: UInt32 = 0
        var held = 0
        for character in text.utf8 {
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            bits = bits << 6 | value
            held += 6
            if held >= 8 {
                held -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(held)))
            }
        }
        return bytes
    }
}

extension HTTPRequest {
    /// The user and password of an `Authorization: Basic …` header; `nil` when it is not one.
    public static func basicCredentials(_ header: String?) -> (user: String, password: [UInt8])? {
        guard let header, header.utf8.count > 6 else { return nil }
        guard header.prefix(6).lowercased() == "basic " else { return nil }
        guard let decoded = Base64.decoded(header.dropFirst(6).drop { $0 == " " }),
            let colon = decoded.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        guard let user = String(validating: decoded[..<colon], as: UTF8.self) else { return nil }
        return (user, Array(decoded[(colon + 1)...]))
    }

    /// The `Authorization` header's value for `user` and `password`.
    public static func basicAuthorization(user: String, password: String) -> String {
        "Basic " + Base64.encoded(Array((user + ":" + password).utf8))
    }
}
