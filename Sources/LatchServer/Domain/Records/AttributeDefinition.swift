import Foundation

/// A user attribute a tenant collects at sign-up (`required_attributes[]` on the wire).
public struct AttributeDefinition: Codable, Sendable, Equatable {
    /// The attribute name, e.g. `displayName`.
    public var name: String
    /// The value type; only `string` today.
    public var type: String
    /// Whether sign-up cannot finish without it.
    public var required: Bool
    /// A regular expression the whole value must match.
    public var regex: String?

    /// Creates a definition.
    public init(name: String, type: String = "string", required: Bool = true, regex: String? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.regex = regex
    }

    /// Whether `value` is acceptable: non-empty, at most 256 characters, no control characters,
    /// and matching `regex` in full.
    public func accepts(_ value: String) -> Bool {
        guard !value.isEmpty, value.count <= 256,
            !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return false }
        guard let regex else { return true }
        // \A and \z anchor the whole string; `$` would also match before a trailing line break.
        return value.range(of: "\\A(?:\(regex))\\z", options: .regularExpression) != nil
    }
}
