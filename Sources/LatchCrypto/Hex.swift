/// Lowercase hexadecimal encoding (RFC 4648 § 8, lowercase alphabet).
enum Hex {
    private static let alphabet = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex, two characters per byte.
    static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            output.append(alphabet[Int(byte >> 4)])
            output.append(alphabet[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
