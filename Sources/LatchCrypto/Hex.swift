/// Lowercase hexadecimal encoding (RFC 4648 § 8, lowercase alphabet).
///
/// ```swift
/// Hex.encode([0xde, 0xad])   // "dead"
/// Hex.decode("DEAD")         // [0xde, 0xad]
/// ```
public enum Hex {
    private static let alphabet = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex, two characters per byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(alphabet[Int(byte >> 4)])
            output.append(alphabet[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` spells in hex (either case), or `nil` when it has an odd length or a
    /// character that is not a hex digit.
    public static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(of: digits[index]), let low = value(of: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// The value of one hex digit.
    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
