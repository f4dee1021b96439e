import Foundation

/// Server-side state of a native-auth flow. The client holds only an opaque continuation token;
/// the server keeps its SHA-256 (`tokenHash`) and issues a fresh token at every step, so a token
/// works once and across server instances.
public struct Flow: Sendable, Equatable {
    /// Which flow this is.
    public enum Kind: String, Sendable {
        /// Sign-up (`signup/v1.0/*`).
        case signUp = "sign_up"
        /// Sign-in (`oauth2/v2.0/initiate`, `challenge`, `token`).
        case signIn = "sign_in"
        /// Self-service password reset (`resetpassword/v1.0/*`).
        case passwordReset = "password_reset"
        /// A finished sign-up or reset whose token signs the user in (`continuation_token` grant).
        case signInContinuation = "sign_in_continuation"
    }

    /// Where the flow stands.
    public enum Step: String, Sendable {
        /// Started; no challenge issued yet.
        case started
        /// A one-time code was sent and awaits submission.
        case codeSent = "code_sent"
        /// A password challenge was issued (sign-in).
        case passwordRequested = "password_requested"
        /// The contact was verified with a code.
        case verified
        /// Password reset: the new password was stored.
        case passwordSubmitted = "password_submitted"
        /// Ready to be exchanged at the token endpoint.
        case ready
    }

    /// Stable id; also salts the code hash.
    public var id: String
    /// The tenant the token is bound to.
    public var tenantID: String
    /// The client the token is bound to.
    public var clientID: String
    /// Which flow.
    public var kind: Kind
    /// Current step.
    public var step: Step
    /// Hex SHA-256 of the current continuation token.
    public var tokenHash: String
    /// The normalized username (e-mail).
    public var username: String
    /// The account, once known. `nil` for sign-up before completion, and for a decoy flow about an
    /// unknown user under enumeration protection.
    public var userID: String?
    /// Sign-up: the Argon2id hash of the chosen password, if one was given.
    public var passwordHash: String?
    /// Sign-up: attributes collected so far.
    public var attributes: [String: String]
    /// The challenge types the client declared.
    public var challengeTypes: [String]
    /// The capabilities the client declared.
    public var capabilities: [String]
    /// Hex SHA-256 of flow id + current one-time code.
    public var codeHash: String?
    /// When the current code stops being accepted.
    public var codeExpiresAt: Date?
    /// Wrong submissions of the current code (and, at sign-in, wrong passwords in this flow).
    public var codeAttempts: Int
    /// One-time codes issued in this flow, real or decoy; capped at
    /// ``TenantSettings/codeSendsPerWindow``.
    public var codeSends: Int
    /// Whether the username was proven with a code in this flow.
    public var emailVerified: Bool
    /// Authentication methods proven (RFC 8176): `pwd`, `otp`.
    public var amr: [String]
    /// When the continuation token stops being accepted.
    public var expiresAt: Date
    /// When the flow started.
    public var createdAt: Date

    /// Creates a flow record.
    public init(
        id: String, tenantID: String, clientID: String, kind: Kind, step: Step, tokenHash: String,
        username: String, userID: String?, passwordHash: String? = nil, attributes: [String: String] = [:],
        challengeTypes: [String], capabilities: [String], codeHash: String? = nil, codeExpiresAt: Date? = nil,
        codeAttempts: Int = 0, codeSends: Int = 0, emailVerified: Bool = false, amr: [String] = [], expiresAt: Date,
        createdAt: Date
    ) {
        self.id = id
        self.tenantID = tenantID
        self.clientID = clientID
        self.kind = kind
        self.step = step
        self.tokenHash = tokenHash
        self.username = username
        self.userID = userID
        self.passwordHash = passwordHash
        self.attributes = attributes
        self.challengeTypes = challengeTypes
        self.capabilities = capabilities
        self.codeHash = codeHash
        self.codeExpiresAt = codeExpiresAt
        self.codeAttempts = codeAttempts
        self.codeSends = codeSends
        self.emailVerified = emailVerified
        self.amr = amr
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }
}
