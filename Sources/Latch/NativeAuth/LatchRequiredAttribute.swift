/// An attribute a sign-up still needs (`required_attributes[]` of the native-auth protocol).
/// Mirrors MSAL's `MSALNativeAuthRequiredAttribute`.
public struct LatchRequiredAttribute: Sendable, Hashable {
    /// The attribute name, e.g. `displayName`.
    public let name: String
    /// The value type, e.g. `string`.
    public let type: String
    /// Whether the sign-up cannot finish without it.
    public let isRequired: Bool
    /// A regular expression the value must match, when the tenant sets one.
    public let regex: String?

    /// Describes an attribute (for tests and previews; the SDK builds these from the server's answer).
    public init(name: String, type: String = "string", isRequired: Bool = true, regex: String? = nil) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.regex = regex
    }
}
