import Foundation
import LatchHTTP

/// Encodes response bodies.
enum JSONBody {
    /// `value` as compact JSON with sorted keys.
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }

    /// A JSON object of plain values.
    static func object(_ object: [String: any Sendable]) -> [UInt8] {
        (try? Array(JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])))
            ?? Array("{}".utf8)
    }

    /// A `200 OK` JSON response.
    static func ok(_ object: [String: any Sendable]) -> HTTPResponse {
        .json(200, Self.object(object))
    }
}
