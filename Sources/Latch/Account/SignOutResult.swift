/// The outcome of ``LatchClient/signOut(account:scope:)``. The account is signed out on this
/// device whatever the server answered.
public struct SignOutResult: Sendable {
    /// The account signed out.
    public let account: LatchAccount
    /// The scope asked for.
    public let scope: SignOutScope
    /// Whether the server confirmed the revocation of the session (``SignOutScope/global`` only).
    public let isRevokedOnServer: Bool
    /// Why the revocation failed (``LatchError/Code/networkError``, …): the session then stays
    /// valid on the server until it expires. `nil` when it succeeded, was not asked for, or there
    /// was nothing to revoke (the session had already ended).
    public let revocationError: LatchError?

    /// A result with these values (for stubs of ``LatchClientProtocol`` in app tests).
    public init(account: LatchAccount, scope: SignOutScope, isRevokedOnServer: Bool, revocationError: LatchError?) {
        self.account = account
        self.scope = scope
        self.isRevokedOnServer = isRevokedOnServer
        self.revocationError = revocationError
    }
}
