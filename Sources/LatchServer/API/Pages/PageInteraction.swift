/// How far a browser got through the hosted pages, sealed into each form's hidden `interaction`
/// field (``PageStateSealer``) and bound to the browser's anti-forgery cookie.
struct PageInteraction: Codable, Sendable {
    /// What the pages are for.
    enum Purpose: String, Codable {
        /// An authorization request: ends with a redirect to the client.
        case authorize
        /// The device verification page (RFC 8628 § 3.3): ends with the user's decision.
        case device
    }

    /// Which form the browser is expected to post next.
    enum Stage: String, Codable {
        case signIn, signInCode, secondFactor, register, registerCode, chooser, consent
        case signUp, signUpCode, signUpAttributes, reset, resetCode, newPassword
        case deviceCode, deviceConfirm
    }

    var purpose: Purpose
    /// The checked authorization request (purpose `authorize`).
    var request: AuthorizationRequest?
    /// The client the pages sign in for.
    var clientID: String
    var stage: Stage
    /// The continuation token of the sign-in, sign-up, reset or registration flow under way.
    var flow: String?
    /// The address typed so far, to fill the next form.
    var username: String?
    /// Where the last code went, masked, for the code page.
    var target: String?
    /// The session a sign-in during these pages started.
    var signedIn: String?
    /// The session picked in the account chooser.
    var selected: String?
    /// The user allowed the consent page.
    var consented = false
    /// The device flow's user code (purpose `device`).
    var userCode: String?
    /// The scopes the device asked for (purpose `device`).
    var deviceScopes: [String] = []
    /// The sign-in must prove a second factor (the device approval asked for one).
    var secondFactorAsked = false
    /// `ui_locales`, preferred first.
    var locales: [String] = []
    /// When the pages started, Unix seconds: a state older than ``PageInteraction/lifetime`` is refused.
    var startedAt: Int

    /// How long a browser may take through the pages, in seconds.
    static let lifetime = 1800
}
