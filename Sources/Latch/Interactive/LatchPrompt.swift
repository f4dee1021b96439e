/// The `prompt` of an authorization request (OpenID Connect Core § 3.1.2.1): what the sign-in page
/// must show even when the browser already has a session.
public enum LatchPrompt: String, Sendable, CaseIterable {
    /// Show nothing: answer at once from the browser session, or fail with
    /// ``LatchError/Code/interactionRequired`` (`login_required`, `interaction_required`).
    case none
    /// Ask for the credentials again, whatever the session.
    case login
    /// Show the account chooser (`select_account`).
    case selectAccount = "select_account"
    /// Ask for consent again, even when it was given.
    case consent
}
