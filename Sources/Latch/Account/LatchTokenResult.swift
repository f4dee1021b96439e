import Foundation

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
