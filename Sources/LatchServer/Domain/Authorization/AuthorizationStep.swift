/// What the authorization endpoint does next with a checked request.
public enum AuthorizationStep: Sendable, Equatable {
    /// Answer the client with a code for this session (single sign-on when no page was shown).
    case issue(BrowserSession)
    /// Show the sign-in page, with the username filled in when known.
    case signIn(hint: String?)
    /// Show the account chooser over these sessions (OpenID Connect `prompt=select_account`).
    case chooseAccount([SignedInAccount])
    /// Ask the user to consent to these scopes for a third-party client.
    case consent(BrowserSession, scopes: [String])
    /// Answer the client with this error (`prompt=none` that would need a page).
    case refuse(AuthorizationError, String)
}

/// A browser session with its account, as the account chooser shows it.
public struct SignedInAccount: Sendable, Equatable {
    /// The session.
    public var session: BrowserSession
    /// Its account.
    public var user: User
}
