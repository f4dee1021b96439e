import Foundation

/// The native-auth error envelope returned with HTTP 400 (and 401/403/429/5xx) by every
/// native-auth and token endpoint. Field names follow the Entra native-auth v1 wire shape, which
/// extends the RFC 6749 § 5.2 error response.
public struct NativeAuthErrorResponse: Codable, Sendable, Equatable {
    /// RFC 6749 § 5.2 `error`.
    public var error: NativeAuthErrorCode
    /// Human-readable description for developers; never contains secrets.
    public var errorDescription: String?
    /// Numeric codes that refine `error` (see ``ServerErrorCode``).
    public var errorCodes: [Int]?
    /// A link to documentation of the error.
    public var errorURI: String?
    /// A finer reason, e.g. `password_too_weak`.
    public var suberror: NativeAuthSuberror?
    /// When the server produced the error, `yyyy-MM-dd HH:mm:ssZ`.
    public var timestamp: String?
    /// The server's request id.
    public var traceID: String?
    /// The `client-request-id` the client sent, or the server's request id.
    public var correlationID: String?
    /// A token to continue the flow (credential_required, attributes_required, …).
    public var continuationToken: String?
    /// Attributes the sign-up still needs.
    public var requiredAttributes: [RequiredAttribute]?
    /// Attributes that are not verified yet.
    public var unverifiedAttributes: [AttributeName]?
    /// Attributes that failed validation.
    public var invalidAttributes: [AttributeName]?
    /// With `interaction_required`: the OIDC claims request (Core § 5.5) a new authentication must
    /// satisfy, as JSON text, to be passed back as the `claims` parameter.
    public var claims: String?
    /// With `protection_policy_required`: the client protection policy the request did not meet.
    public var protectionPolicy: String?

    /// Creates an envelope.
    public init(
        error: NativeAuthErrorCode, errorDescription: String? = nil, errorCodes: [Int]? = nil,
        suberror: NativeAuthSuberror? = nil, continuationToken: String? = nil
    ) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorCodes = errorCodes
        self.suberror = suberror
        self.continuationToken = continuationToken
    }

    enum CodingKeys: String, CodingKey {
        case error, suberror, timestamp, claims
        case protectionPolicy = "protection_policy"
        case errorDescription = "error_description"
        case errorCodes = "error_codes"
        case errorURI = "error_uri"
        case traceID = "trace_id"
        case correlationID = "correlation_id"
        case continuationToken = "continuation_token"
        case requiredAttributes = "required_attributes"
        case unverifiedAttributes = "unverified_attributes"
        case invalidAttributes = "invalid_attributes"
    }
}

/// An attribute a sign-up still needs (`required_attributes[]`).
public struct RequiredAttribute: Codable, Sendable, Equatable {
    /// The attribute name, e.g. `displayName`.
    public var name: String
    /// The value type, e.g. `string`.
    public var type: String
    /// Whether sign-up cannot finish without it.
    public var required: Bool
    /// Validation options such as a regular expression.
    public var options: Options?

    /// Validation options of a required attribute.
    public struct Options: Codable, Sendable, Equatable {
        /// A regular expression the value must match.
        public var regex: String?
        /// Creates options.
        public init(regex: String?) { self.regex = regex }
    }

    /// Creates a required attribute description.
    public init(name: String, type: String, required: Bool, options: Options? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.options = options
    }
}

/// An attribute reference in `invalid_attributes[]` / `unverified_attributes[]`.
public struct AttributeName: Codable, Sendable, Equatable {
    /// The attribute name.
    public var name: String
    /// Creates a reference.
    public init(name: String) { self.name = name }
}
