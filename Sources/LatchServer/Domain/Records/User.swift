import Foundation

/// An account in a tenant.
public struct User: Sendable, Equatable {
    /// Stable id, the `sub` claim.
    public var id: String
    /// The owning tenant.
    public var tenantID: String
    /// The normalized (lower-cased, trimmed) e-mail address, which is also the username.
    public var email: String
    /// Whether the address was proven with a one-time code.
    public var emailVerified: Bool
    /// Argon2id PHC string, or `nil` for a code-only account.
    public var passwordHash: String?
    /// Display name (`name` claim), from the `displayName` attribute.
    public var displayName: String?
    /// Other attributes collected at sign-up.
    public var attributes: [String: String]
    /// A disabled account cannot sign in or refresh.
    public var disabled: Bool
    /// When the account was created.
    public var createdAt: Date
    /// Tokens issued before this instant are no longer honoured (set on password reset).
    public var validSince: Date
    /// Consecutive wrong passwords and sign-in codes since the last successful sign-in.
    public var failedSignIns: Int
    /// Until this instant password and code sign-in are refused without checking the credential
    /// (a growing delay after repeated failures, NIST SP 800-63B § 5.2.2); `nil` when not delayed.
    public var signInBlockedUntil: Date?
    /// The developer claims set by an administrator, as a JSON object text (``CustomClaims``):
    /// they go to the top level of every ID token (`reference/firebase-auth-protocol.md` § 6).
    public var customClaims: String?
    /// The last successful sign-in on the account API, if any.
    public var lastLoginAt: Date?
    /// The last time an ID token was issued for the account (sign-in or refresh), if any.
    public var lastRefreshAt: Date?

    /// Creates a user record.
    public init(
        id: String, tenantID: String, email: String, emailVerified: Bool, passwordHash: String?,
        displayName: String?, attributes: [String: String], disabled: Bool = false, createdAt: Date,
        validSince: Date, failedSignIns: Int = 0, signInBlockedUntil: Date? = nil, customClaims: String? = nil,
        lastLoginAt: Date? = nil, lastRefreshAt: Date? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.email = email
        self.emailVerified = emailVerified
        self.passwordHash = passwordHash
        self.displayName = displayName
        self.attributes = attributes
        self.disabled = disabled
        self.createdAt = createdAt
        self.validSince = validSince
        self.failedSignIns = failedSignIns
        self.signInBlockedUntil = signInBlockedUntil
        self.customClaims = customClaims
        self.lastLoginAt = lastLoginAt
        self.lastRefreshAt = lastRefreshAt
    }

    /// Lower-cases and trims an address for storage and lookup.
    public static func normalizeEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// A pragmatic e-mail syntax check: one `@`, a non-empty local part, a dotted domain, no spaces,
    /// at most 254 characters (RFC 5321 § 4.5.3.1.3).
    ///
    /// Control characters (NUL, DEL, C0/C1), format characters (bidirectional overrides and
    /// isolates, zero-width joiners) and separators are refused: they would let an address render
    /// as another one in logs, admin output or messages (Unicode TR #36 § 2).
    public static func isPlausibleEmail(_ email: String) -> Bool {
        guard email.utf8.count <= 254, !email.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            return false
        }
        let deceptive = email.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
            default: false
            }
        }
        guard !deceptive else { return false }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64 else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }
    }
}
