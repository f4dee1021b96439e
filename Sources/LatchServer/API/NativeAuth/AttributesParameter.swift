import Foundation

/// The native-auth `attributes` form parameter: a JSON object of user attributes (RFC 8259).
enum AttributesParameter {
    /// Decodes the parameter; absent or empty means none. A member whose value is not a string
    /// maps to `nil`, so the domain can name it as invalid.
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` when the text is not a JSON object (or over 8 KiB).
    static func parse(_ text: String?) throws -> [String: String?] {
        guard let text, !text.isEmpty else { return [:] }
        guard text.utf8.count <= 8192, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
            let dictionary = object as? [String: Any]
        else { throw AuthFailure.invalidParameter(.attributes) }
        return dictionary.mapValues { $0 as? String }
    }
}
