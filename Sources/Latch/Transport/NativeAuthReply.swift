/// A successful native-auth answer: every member any endpoint may send, all optional
/// (Entra native-auth v1 shapes, see the protocol reference).
struct NativeAuthReply: Decodable, Sendable {
    var continuationToken: String?
    var challengeType: String?
    var bindingMethod: String?
    var challengeChannel: String?
    var challengeTargetLabel: String?
    /// The contact a registration code went to (`register/v1.0/challenge`, unmasked: the app gave it).
    var challengeTarget: String?
    var codeLength: Int?
    var interval: Int?
    var expiresIn: Int?
    var pollInterval: Int?
    var status: String?
    var redirectReason: String?
    // Token responses (RFC 6749 § 5.1).
    var tokenType: String?
    var scope: String?
    var accessToken: String?
    var refreshToken: String?
    var idToken: String?
    /// Latch's device token, after a sign-in (kept per username, sent with the next ones).
    var deviceToken: String?
    /// The strong authentication methods of an introspection (`oauth2/v2.0/introspect`,
    /// `register/v1.0/introspect`).
    var methods: [AuthMethod]?
    // Device authorization responses (RFC 8628 § 3.2).
    var deviceCode: String?
    var userCode: String?
    var verificationURI: String?
    var verificationURIComplete: String?
    var message: String?

    /// One `methods[]` entry; a missing required member makes the whole answer undecodable, as in MSAL.
    struct AuthMethod: Decodable, Sendable {
        var id: String
        var challengeType: String
        var challengeChannel: String
        var loginHint: String?

        enum CodingKeys: String, CodingKey {
            case id
            case challengeType = "challenge_type"
            case challengeChannel = "challenge_channel"
            case loginHint = "login_hint"
        }
    }

    enum CodingKeys: String, CodingKey {
        case interval, status, scope, methods, message
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case continuationToken = "continuation_token"
        case challengeType = "challenge_type"
        case bindingMethod = "binding_method"
        case challengeChannel = "challenge_channel"
        case challengeTargetLabel = "challenge_target_label"
        case challengeTarget = "challenge_target"
        case codeLength = "code_length"
        case expiresIn = "expires_in"
        case pollInterval = "poll_interval"
        case redirectReason = "redirect_reason"
        case tokenType = "token_type"
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case deviceToken = "device_token"
    }
}
