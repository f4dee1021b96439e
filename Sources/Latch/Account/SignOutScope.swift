/// What a sign-out ends (``LatchClient/signOut(account:scope:)``).
public enum SignOutScope: Sendable, Equatable {
    /// This device only: the account and its tokens are removed from the credential store. The
    /// session stays valid on the server until it expires, for any copy of its tokens.
    case local
    /// This device, and the session on the server: its refresh token is revoked (RFC 7009), so
    /// no copy of its tokens can be refreshed any more and the access token stops working where
    /// the server checks it. The user's other sessions (other devices) go on.
    case global
}
