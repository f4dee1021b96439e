import Foundation

/// One JSON value of a claim set, kept as decoded so that any claim, registered or custom, can be
/// read back in the type the app asks for.
enum ClaimValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([ClaimValue])
    case object([String: ClaimValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ClaimValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ClaimValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as text, when it is a string.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value as a NumericDate (RFC 7519 § 2: seconds since the epoch, possibly fractional).
    var date: Date? {
        switch self {
        case .int(let seconds): Date(timeIntervalSince1970: TimeInterval(seconds))
        case .double(let seconds): Date(timeIntervalSince1970: seconds)
        default: nil
        }
    }

    /// A string, or the strings of an array (`aud` may be either, RFC 7519 § 4.1.3).
    var strings: [String]? {
        switch self {
        case .string(let value): [value]
        case .array(let values): values.compactMap(\.string)
        default: nil
        }
    }
}
