/// A strict RFC 8259 JSON parser producing `Sendable` Swift values, for request bodies.
///
/// Numbers without fraction or exponent that fit `Int` become `Int`, other numbers `Double`;
/// `null` becomes ``JSONNull``. Repeated member names, lone surrogates, invalid UTF-8 and nesting
/// deeper than ``maximumDepth`` are rejected so that handlers never see ambiguous input.
struct JSONParser {
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses `bytes` as one JSON object (optionally surrounded by whitespace).
    static func parseObject(_ bytes: [UInt8]) throws(HTTPError) -> [String: any Sendable] {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else {
            throw .badRequest(
                bytes.isEmpty ? "request body is empty; expected a JSON object" : "request body is not a JSON object")
        }
        let object = try parser.parseObject()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.syntaxError("unexpected data after the JSON object") }
        return object
    }

    /// Parses `bytes` as any one JSON value.
    static func parseValue(_ bytes: [UInt8]) throws(HTTPError) -> any Sendable {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.syntaxError("unexpected data after the JSON value") }
        return value
    }

    private func syntaxError(_ message: String) -> HTTPError {
        .badRequest("request body is not valid JSON: \(message) at byte \(index)")
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(HTTPError) {
        guard peek() == byte else { throw syntaxError("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    private mutating func parseValue() throws(HTTPError) -> any Sendable {
        switch peek() {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return try parseString()
        case UInt8(ascii: "t"): try parseLiteral("true"); return true
        case UInt8(ascii: "f"): try parseLiteral("false"); return false
        case UInt8(ascii: "n"): try parseLiteral("null"); return JSONNull()
        case nil: throw syntaxError("unexpected end of input")
        case let byte?:
            guard byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw syntaxError("unexpected character")
            }
            return try parseNumber()
        }
    }

    private mutating func enter() throws(HTTPError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw .badRequest("request body nests JSON deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(HTTPError) -> [String: any Sendable] {
        try enter()
        defer { depth -= 1 }
        try expect(UInt8(ascii: "{"))
        var object: [String: any Sendable] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return object
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a member name") }
            let name = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let value = try parseValue()
            guard object.updateValue(value, forKey: name) == nil else {
                throw .badRequest("JSON member '\(name.prefix(64))' is repeated")
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return object
            default: throw syntaxError("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(HTTPError) -> [any Sendable] {
        try enter()
        defer { depth -= 1 }
        try expect(UInt8(ascii: "["))
        var array: [any Sendable] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return array
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return array
            default: throw syntaxError("expected ',' or ']'")
            }
        }
    }

    private mutating func parseLiteral(_ literal: StaticString) throws(HTTPError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw syntaxError("unexpected end of input") }
        let matches = literal.withUTF8Buffer { expected in
            bytes[index..<index + count].elementsEqual(expected)
        }
        guard matches else { throw syntaxError("invalid literal") }
        index += count
    }

    private mutating func parseNumber() throws(HTTPError) -> any Sendable {
        let start = index
        var isInteger = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw syntaxError("invalid number")
        }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipDigits() > 0 else { throw syntaxError("invalid number") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw syntaxError("invalid number") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int(text) {
            return integer
        }
        guard let double = Double(text), double.isFinite else { throw syntaxError("number out of range") }
        return double
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func parseString() throws(HTTPError) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard let string = UTF8Validation.string(from: bytes[start..<index]) else {
                    throw syntaxError("string is not valid UTF-8")
                }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw syntaxError("control character in string") }
            index += 1
        }
        var decoded = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw syntaxError("unterminated string") }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = UTF8Validation.string(from: decoded) else {
                    throw syntaxError("string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw syntaxError("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    UTF8.encode(scalar) { decoded.append($0) }
                default: throw syntaxError("invalid escape")
                }
            case 0x00..<0x20:
                throw syntaxError("control character in string")
            default:
                decoded.append(byte)
            }
        }
    }

    /// Parses the `XXXX` after `\u` (and a following `\uXXXX` low surrogate when needed).
    private mutating func parseUnicodeEscape() throws(HTTPError) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xD800...0xDBFF).contains(high) {
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw syntaxError("lone surrogate in string")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw syntaxError("lone surrogate in string") }
            let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw syntaxError("invalid escape") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw syntaxError("lone surrogate in string") }
        return scalar
    }

    private mutating func parseHex4() throws(HTTPError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw syntaxError("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = PercentEncoding.hexValue(bytes[index]) else { throw syntaxError("invalid \\u escape") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
