/// Something that happened to a session of this client, delivered by ``LatchClient/authEvents``.
///
/// Events come from every path that changes a session: a sign-in or sign-out through this client,
/// a refresh, a refresh the server refused, and changes another client or process made to a
/// shared credential store. More cases will be added (for example for multi-factor steps), so
/// switch with `@unknown default`.
///
/// ```swift
/// for await event in client.authEvents {
///     switch event {
///     case .signedIn(let account): showHome(for: account)
///     case .signedOut, .sessionEnded: showSignIn()
///     case .offline: showOfflineBanner()
///     case .tokenRefreshed: hideOfflineBanner()
///     @unknown default: break
///     }
/// }
/// ```
public enum LatchAuthEvent: Sendable, Equatable {
    /// An account signed in (here or in another client sharing the store): a new session.
    case signedIn(LatchAccount)
    /// An account signed out and its tokens were removed (here or elsewhere).
    case signedOut(LatchAccount)
    /// An account's tokens were refreshed; the session goes on.
    case tokenRefreshed(LatchAccount)
    /// The server ended the account's session; the account stays stored (its
    /// ``LatchAccount/sessionState`` is ``LatchAccount/SessionState/interactionRequired``) so the
    /// app can offer to sign in again as it.
    case sessionEnded(LatchAccount, reason: SessionEndReason)
    /// A refresh could not reach the server (no network, a timeout, a refused connection). The
    /// session is kept and the call that needed the token failed with
    /// ``LatchError/Code/networkError``; the next call tries again at once. Sent once per spell:
    /// the next ``tokenRefreshed(_:)`` or ``signedIn(_:)`` ends it.
    case offline(LatchAccount)

    /// The account the event is about.
    public var account: LatchAccount {
        switch self {
        case .signedIn(let account), .signedOut(let account), .tokenRefreshed(let account), .offline(let account):
            account
        case .sessionEnded(let account, _):
            account
        }
    }
}
