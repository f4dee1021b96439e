/// Percent-decoding of URL components (RFC 3986 §2.1) and of
/// `application/x-www-form-urlencoded` bytes (WHATWG URL Standard §5.1).
enum PercentEncoding {
    /// Decodes `%XX` escapes in `bytes`.
    ///
    /// - Parameters:
    ///   - plusAsSpace: turn `+` into a space first, as form encoding does.
    ///   - strict: when `true`, a `%` not followed by two hex digits makes the result `nil`;
    ///     when `false` it is kept literally, as the WHATWG parser does.
    static func decode(_ bytes: some Collection<UInt8>, plusAsSpace: Bool, strict: Bool) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                if first != bytes.endIndex {
                    let second = bytes.index(after: first)
                    if second != bytes.endIndex, let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) {
                        output.append(high << 4 | low)
                        index = bytes.index(after: second)
                        continue
                    }
                }
                if strict { return nil }
                output.append(byte)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                output.append(0x20)
            } else {
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        return output
    }

    /// Decodes a URL component to a string, keeping malformed escapes and replacing invalid UTF-8
    /// with U+FFFD. Never fails; used for paths and lenient query parsing.
    static func decodeLossy(_ component: Substring, plusAsSpace: Bool) -> String {
        let utf8 = component.utf8
        if !utf8.contains(UInt8(ascii: "%")) && !(plusAsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(component)
        }
        let bytes = decode(utf8, plusAsSpace: plusAsSpace, strict: false) ?? Array(utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
