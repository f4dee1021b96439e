import Foundation

/// Server-side state of a native-auth flow. The client holds only an opaque continuation token;
/// the server keeps its SHA-256 (`tokenHash`) and issues a fresh token at every step, so a token
/// works once and across server instances.
///
/// Identity (who, which tenant and client, which step, until when) lives in columns; everything a
/// step collects lives in one typed, versioned ``FlowState``.
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
        /// A sign-in whose first factor passed and that needs a second (`oauth2/v2.0/introspect`,
        /// `challenge` with `id`, the `mfa_oob` grant).
        case secondFactor = "second_factor"
        /// A sign-in whose first factor passed by a user with no strong method to prove yet, who
        /// registers one now (`register/v1.0/*`).
        case methodRegistration = "method_registration"
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
        /// Method registration: the contact is the user's verified sign-in e-mail, which needs no
        /// new code (`preverified`).
        case contactPreverified = "contact_preverified"
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
    /// What the steps so far collected.
    public var state: FlowState
    /// When the continuation token stops being accepted.
    public var expiresAt: Date
    /// When the flow started.
    public var createdAt: Date

    /// Creates a flow record.
    public init(
        id: String, tenantID: String, clientID: String, kind: Kind, step: Step, tokenHash: String,
        username: String, userID: String?, state: FlowState, expiresAt: Date, createdAt: Date
    ) {
        self.id = id
        self.tenantID = tenantID
        self.clientID = clientID
        self.kind = kind
        self.step = step
        self.tokenHash = tokenHash
        self.username = username
        self.userID = userID
        self.state = state
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }
}
