import Foundation
import LatchWire

/// A signed-in (or formerly signed-in) account.
public struct LatchAccount: Sendable, Equatable, Identifiable {
    /// Whether tokens can still be obtained silently.
    public enum SessionState: Sendable, Equatable {
        /// A refresh token is held: ``LatchClient/acquireTokenSilent(scopes:account:forceRefresh:)`` works.
        case signedIn
        /// The session ended (expired, revoked, or refused); sign in again.
        case interactionRequired
    }

    /// The account id (`sub`).
    public let id: String
    /// The username (e-mail).
    public let username: String
    /// The tenant.
    public let tenant: String
    /// The claims of the latest ID token, decoded without verification (the token came straight
    /// from the server over TLS; verify it yourself before passing it to a third party).
    public let claims: JWTClaims?
    /// Whether tokens can be obtained without the user.
    public let sessionState: SessionState

    init(_ record: StoredAccount) {
        id = record.accountID
        username = record.username
        tenant = record.tenant
        claims = record.idToken.flatMap(JWTDecoding.claims)
        sessionState = record.refreshToken == nil ? .interactionRequired : .signedIn
    }
}

/// The outcome of a sign-in or silent acquisition: tokens and the account they belong to.
public struct LatchTokenResult: Sendable {
    /// The account.
    public let account: LatchAccount
    /// The access token (an RFC 9068 JWT).
    public let accessToken: String
    /// The ID token, when `openid` was requested.
    public let idToken: String?
    /// When the access token expires.
    public let expiresOn: Date
    /// The granted scopes.
    public let scopes: [String]

    init?(_ record: StoredAccount) {
        guard let accessToken = record.accessToken, let expiresOn = record.accessTokenExpiresAt else { return nil }
        account = LatchAccount(record)
        self.accessToken = accessToken
        idToken = record.idToken
        self.expiresOn = expiresOn
        scopes = record.scopes
    }
}

/// Reads JWT claims without verifying the signature (RFC 7519 § 7.2 steps 1–7 without JWS validation).
enum JWTDecoding {
    static func claims(_ token: String) -> JWTClaims? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Base64URL.decode(segments[1]) else { return nil }
        return try? JSONDecoder().decode(JWTClaims.self, from: Data(payload))
    }
}
