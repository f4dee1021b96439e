/// Base64url without padding, the encoding JOSE uses for every JWT segment and JWK member
/// (RFC 7515 § 2, RFC 4648 § 5). Table-driven: it sits on the token-issuing hot path.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// Encodes bytes as unpadded base64url.
    /// - Parameter bytes: the bytes to encode.
    /// - Returns: the RFC 4648 § 5 alphabet, with the trailing `=` removed (RFC 7515 § 2).
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        let outputLength = (input.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: outputLength) { output in
            var out = 0
            var index = 0
            while index + 3 <= input.count {
                let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                output[out] = alphabet[Int(value >> 18 & 63)]
                output[out + 1] = alphabet[Int(value >> 12 & 63)]
                output[out + 2] = alphabet[Int(value >> 6 & 63)]
                output[out + 3] = alphabet[Int(value & 63)]
                out += 4
                index += 3
            }
            let remaining = input.count - index
            if remaining > 0 {
                var value = UInt32(input[index]) << 16
                if remaining == 2 { value |= UInt32(input[index + 1]) << 8 }
                output[out] = alphabet[Int(value >> 18 & 63)]
                output[out + 1] = alphabet[Int(value >> 12 & 63)]
                out += 2
                if remaining == 2 {
                    output[out] = alphabet[Int(value >> 6 & 63)]
                    out += 1
                }
            }
            return out
        }
    }

    /// Decodes unpadded (or padded) base64url; the standard alphabet's `+` and `/` are accepted too.
    /// - Parameter text: base64url text (RFC 4648 § 5).
    /// - Returns: the bytes, or `nil` when the text is not base64.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var input = Array(text.utf8)
        while input.last == UInt8(ascii: "=") { input.removeLast() }
        if input.count % 4 == 1 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in input {
            let value = reverse[Int(byte)]
            if value == 0xFF { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero (canonical encoding).
        if bits > 0, buffer & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return output
    }
}
