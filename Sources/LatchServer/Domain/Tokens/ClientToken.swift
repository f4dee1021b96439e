/// The access token of a `client_credentials` grant (RFC 6749 § 4.4.3), before a wire renders it:
/// no refresh token and no ID token, since no user is involved.
public struct ClientToken: Sendable, Equatable {
    /// The signed access token (RFC 9068), `sub` the client id.
    public var accessToken: String
    /// The granted scopes.
    public var scopes: [String]
    /// Lifetime in seconds.
    public var expiresIn: Int
}
