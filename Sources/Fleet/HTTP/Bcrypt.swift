/// Blowfish (Schneier, 1993) with the expensive key schedule bcrypt adds to it (Provos and Mazières, 1999): only
/// what checking a bcrypt hash needs, on 64-bit blocks held as two `UInt32` halves.
struct Blowfish {
    private var p: [UInt32]
    private var s: [UInt32]

    /// The initial state: π's digits (``blowfishPiWords``).
    init() {
        p = Array(blowfishPiWords[0..<18])
        s = Array(blowfishPiWords[18...])
    }

    /// Blowfish's F: the four S-boxes indexed by the four bytes of `x`.
    @inline(__always)
    private func f(_ x: UInt32) -> UInt32 {
        let a = s[Int(x >> 24)]
        let b = s[256 + Int((x >> 16) & 0xFF)]
        let c = s[512 + Int((x >> 8) & 0xFF)]
        let d = s[768 + Int(x & 0xFF)]
        return ((a &+ b) ^ c) &+ d
    }

    /// Encrypts one block: 16 Feistel rounds.
    func encrypt(_ left: inout UInt32, _ right: inout UInt32) {
        var l = left
        var r = right
        for round in stride(from: 0, to: 16, by: 2) {
            l ^= p[round]
            r ^= f(l)
            r ^= p[round + 1]
            l ^= f(r)
        }
        l ^= p[16]
        r ^= p[17]
        left = r
        right = l
    }

    /// The next 32 bits of `bytes` taken cyclically from `index` (big-endian), as bcrypt's `stream2word`.
    private static func word(_ bytes: [UInt8], _ index: inout Int) -> UInt32 {
        var word: UInt32 = 0
        for _ in 0..<4 {
            word = word << 8 | UInt32(bytes[index])
            index = (index + 1) % bytes.count
        }
        return word
    }

    /// bcrypt's `ExpandKey(state, salt, key)`: the key mixed into the P-array, then every P and S word replaced by
    /// successive encryptions of a block that is XORed with the salt's words in turn (an empty salt: no XOR).
    mutating func expand(key: [UInt8], salt: [UInt8]) {
        var keyIndex = 0
        for i in 0..<18 { p[i] ^= Self.word(key, &keyIndex) }
        var left: UInt32 = 0
        var right: UInt32 = 0
        var saltIndex = 0
        func next() {
            if !salt.isEmpty {
                left ^= Self.word(salt, &saltIndex)
                right ^= Self.word(salt, &saltIndex)
            }
            encrypt(&left, &right)
        }
        for i in stride(from: 0, to: 18, by: 2) {
            next()
            p[i] = left
            p[i + 1] = right
        }
        for i in stride(from: 0, to: 1024, by: 2) {
            next()
            s[i] = left
            s[i + 1] = right
        }
    }
}

/// A bcrypt hash as `htpasswd -B` writes it: `$2y$05$` + 22 characters of salt + 31 of hash, in bcrypt's own
/// base 64 (`./A–Za–z0–9`). `$2a$` and `$2b$` (OpenBSD's) read the same: they differ only in how old
/// implementations treated passwords longer than 255 bytes, and every password here is cut at 72 bytes as
/// bcrypt does.
public struct BcryptHash: Sendable, Hashable {
    /// log₂ of the rounds, 4…31.
    public let cost: Int
    /// 16 bytes.
    public let salt: [UInt8]
    /// 23 bytes: the first 23 of the 24 bcrypt encrypts.
    public let digest: [UInt8]

    /// Reads `text`; `nil` when it is not a bcrypt hash.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(bytes[2]),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
            let tens = Self.digit(bytes[4]), let units = Self.digit(bytes[5])
        else { return nil }
        let cost = tens * 10 + units
        guard (4...31).contains(cost), let salt = Self.decode(bytes[7..<29], count: 16),
            let digest = Self.decode(bytes[29..<60], count: 23)
        else { return nil }
        self.cost = cost
        self.salt = salt
        self.digest = digest
    }

    /// `true` when `password` hashes to this (compared in constant time).
    /// - Complexity: 2^``cost`` rounds of Blowfish's key schedule: about a millisecond at cost 5 (htpasswd's
    ///   default), 30 at cost 10.
    public func verifies(_ password: some Collection<UInt8>) -> Bool {
        let computed = Self.digest(password: Array(password), salt: salt, cost: cost)
        var difference: UInt8 = 0
        for (a, b) in zip(computed, digest) { difference |= a ^ b }
        return difference == 0
    }

    /// The 23 bytes bcrypt makes of `password` (cut at 72 bytes, NUL-terminated), `salt` and `cost`.
    static func digest(password: [UInt8], salt: [UInt8], cost: Int) -> [UInt8] {
        var key = Array(password.prefix(72))
        if key.count < 72 { key.append(0) }
        var state = Blowfish()
        state.expand(key: key, salt: salt)
        for _ in 0..<(1 << cost) {
            state.expand(key: key, salt: [])
            state.expand(key: salt, salt: [])
        }
        // "OrpheanBeholderScryDoubt", encrypted 64 times.
        var words: [UInt32] = [0x4F72_7068, 0x6561_6E42, 0x6568_6F6C, 0x6465_7253, 0x6372_7944, 0x6F75_6274]
        for _ in 0..<64 {
            for i in stride(from: 0, to: 6, by: 2) {
                var (left, right) = (words[i], words[i + 1])
                state.encrypt(&left, &right)
                (words[i], words[i + 1]) = (left, right)
            }
        }
        var bytes: [UInt8] = []
        for word in words {
            bytes += [
                UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
                UInt8(truncatingIfNeeded: word),
            ]
        }
        return Array(bytes.prefix(23))
    }

    /// The whole hash text for `password` with `salt` (16 bytes) and `cost`, as `$2y$`: for tests and tools.
    static func hash(password: [UInt8], salt: [UInt8], cost: Int) -> String {
        let digest = digest(password: password, salt: salt, cost: cost)
        let costText = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$2y$" + costText + "$" + encode(salt) + encode(digest)
    }

    private static let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func value(_ byte: UInt8) -> UInt32? {
        alphabet.firstIndex(of: byte).map(UInt32.init)
    }

    /// bcrypt's base 64 (no padding) to `count` bytes; `nil` for a character outside its alphabet.
    private static func decode(_ text: ArraySlice<UInt8>, count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var bits: UInt32 = 0
        var held = 0
        for character in text {
            guard let value = value(character) else { return nil }
            bits = bits << 6 | value
            held += 6
            if held >= 8 {
                held -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(held)))
            }
        }
        return bytes.count >= count ? Array(bytes.prefix(count)) : nil
    }

    private static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var bits: UInt32 = 0
        var held = 0
        for byte in bytes {
            bits = bits << 8 | UInt32(byte)
            held += 8
            while held >= 6 {
                held -= 6
                out.append(alphabet[Int((bits >> UInt32(held)) & 63)])
            }
        }
        if held > 0 { out.append(alphabet[Int((bits << UInt32(6 - held)) & 63)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
