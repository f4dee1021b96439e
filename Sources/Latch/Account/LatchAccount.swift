import Foundation

/// A signed-in (or formerly signed-in) account.
///
/// Two values are equal when they name the same account — the same user (``id``) of the same
/// server and tenant — whatever their claims or session state: a refreshed or signed-out copy
/// still equals the one the app holds, and works as a dictionary key.
public struct LatchAccount: Sendable, Hashable, Identifiable {
    /// Whether tokens can still be obtained silently.
    public enum SessionState: Sendable, Equatable {
        /// A refresh token is held: ``LatchClient/acquireTokenSilent(scopes:account:forceRefresh:correlationID:)`` works.
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
    public let claims: LatchClaims?
    /// Whether tokens can be obtained without the user.
    public let sessionState: SessionState
    /// The server origin the account belongs to (part of its identity).
    let server: String

    init(_ record: StoredAccount) {
        id = record.accountID
        username = record.username
        tenant = record.tenant
        server = record.server
        claims = record.idToken.flatMap { LatchClaims(token: $0) }
        sessionState = record.refreshToken == nil ? .interactionRequired : .signedIn
    }

    /// Whether both values name the same account: same ``id``, tenant and server.
    public static func == (lhs: LatchAccount, rhs: LatchAccount) -> Bool {
        lhs.id == rhs.id && lhs.tenant == rhs.tenant && lhs.server == rhs.server
    }

    /// Hashes the account's identity (``id``, tenant and server).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(tenant)
        hasher.combine(server)
    }
}
