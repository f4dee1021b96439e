/// bcrypt's radix-64 text encoding (OpenBSD bcrypt(3)): the bit order of base64 (RFC 4648 § 4)
/// with the alphabet `./A–Za–z0–9` and no padding, so 16 salt bytes take 22 characters and the
/// 23 hash bytes 31.
enum BcryptBase64 {
    /// The 64 characters, each standing for its index.
    static let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// The value of each ASCII byte, or `nil` outside the alphabet.
    private static let values: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// `bytes` as radix-64 text: ⌈8·n / 6⌉ characters.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 8 + 5) / 6)
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            let second = index + 1 < bytes.count ? bytes[index + 1] : 0
            let third = index + 2 < bytes.count ? bytes[index + 2] : 0
            output.append(alphabet[Int(first >> 2)])
            output.append(alphabet[Int((first & 0x03) << 4 | second >> 4)])
            if index + 1 < bytes.count { output.append(alphabet[Int((second & 0x0f) << 2 | third >> 6)]) }
            if index + 2 < bytes.count { output.append(alphabet[Int(third & 0x3f)]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The first `count` bytes `text` encodes (bits past them are ignored, as bcrypt does), or
    /// `nil` if `text` is too short or holds a character outside the alphabet.
    static func decode(_ text: some Collection<UInt8>, count: Int) -> [UInt8]? {
        guard text.count * 6 >= count * 8 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(count)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            guard let value = values[Int(character)] else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                if output.count < count { output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))) }
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return output.count == count ? output : nil
    }
}
