/// The Blowfish block cipher's key schedule and encryption (Schneier, FSE 1993), with the
/// salted key expansion of Provos and Mazières' EksBlowfish ("A Future-Adaptable Password Scheme",
/// USENIX 1999, § 4.1). Only ``Bcrypt`` uses it; nothing is encrypted with it otherwise.
///
/// The 18-word P-array and the four 256-word S-boxes live in one buffer, P first, so the key
/// expansion can walk them in the order the paper replaces them.
final class Blowfish {
    /// P-array (18 words), then S-boxes 0 to 3 (256 words each).
    private let words: UnsafeMutablePointer<UInt32>

    /// A state holding the initial subkeys (the digits of π, ``initialWords``).
    init() {
        words = .allocate(capacity: Self.wordCount)
        Self.initialWords.withUnsafeBufferPointer { initial in
            words.initialize(from: initial.baseAddress!, count: Self.wordCount)
        }
    }

    deinit {
        ConstantTime.cleanse(UnsafeMutableRawPointer(words), count: Self.wordCount * MemoryLayout<UInt32>.size)
        words.deallocate()
    }

    /// The round function F: the four bytes of `x`, most significant first, index the four S-boxes;
    /// ((S₀ + S₁) ⊕ S₂) + S₃ modulo 2³².
    @inline(__always)
    private func feistel(_ x: UInt32) -> UInt32 {
        let s = words + 18
        let a = s[Int(x >> 24)]
        let b = s[256 + Int((x >> 16) & 0xff)]
        let c = s[512 + Int((x >> 8) & 0xff)]
        let d = s[768 + Int(x & 0xff)]
        return ((a &+ b) ^ c) &+ d
    }

    /// Encrypts the 64-bit block (`left`, `right`) in place: 16 Feistel rounds, then the output
    /// whitening with P₁₇ and P₁₈.
    func encrypt(_ left: inout UInt32, _ right: inout UInt32) {
        var l = left
        var r = right
        for round in stride(from: 0, to: 16, by: 2) {
            l ^= words[round]
            r ^= feistel(l)
            r ^= words[round + 1]
            l ^= feistel(r)
        }
        left = r ^ words[17]
        right = l ^ words[16]
    }

    /// EksBlowfish's `ExpandKey(state, salt, key)`: XORs the P-array with `key` taken cyclically
    /// as big-endian words, then replaces every P and S entry, two at a time, with the encryption
    /// of the previous output XORed with the next two words of `salt` (taken cyclically; no salt
    /// is Blowfish's own key schedule). Both streams restart at their first byte on every call.
    /// - Parameters:
    ///   - key: at least one byte.
    ///   - salt: `nil`, or 16 bytes.
    func expand(key: [UInt8], salt: [UInt8]?) {
        var keyIndex = 0
        for index in 0..<18 {
            words[index] ^= Self.nextWord(key, &keyIndex)
        }
        var saltIndex = 0
        var l: UInt32 = 0
        var r: UInt32 = 0
        for index in stride(from: 0, to: Self.wordCount, by: 2) {
            if let salt {
                l ^= Self.nextWord(salt, &saltIndex)
                r ^= Self.nextWord(salt, &saltIndex)
            }
            encrypt(&l, &r)
            words[index] = l
            words[index + 1] = r
        }
    }

    /// The next four bytes of `bytes`, wrapping around at its end, as a big-endian word.
    @inline(__always)
    static func nextWord(_ bytes: [UInt8], _ index: inout Int) -> UInt32 {
        var word: UInt32 = 0
        for _ in 0..<4 {
            word = word << 8 | UInt32(bytes[index])
            index = index + 1 == bytes.count ? 0 : index + 1
        }
        return word
    }
}
