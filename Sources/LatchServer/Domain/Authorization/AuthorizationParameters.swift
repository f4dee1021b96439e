/// The parameters of an authorization request (RFC 6749 § 4.1.1, RFC 7636 § 4.3, OpenID Connect
/// Core § 3.1.2.1), as the adapter read them from the query or the form, not yet checked.
public struct AuthorizationParameters: Sendable, Equatable, Codable {
    /// `client_id`.
    public var clientID: String?
    /// `redirect_uri`.
    public var redirectURI: String?
    /// `response_type`.
    public var responseType: String?
    /// `response_mode`.
    public var responseMode: String?
    /// `scope`.
    public var scope: String?
    /// `state`, returned unchanged.
    public var state: String?
    /// `nonce`, put in the ID token.
    public var nonce: String?
    /// `code_challenge`.
    public var codeChallenge: String?
    /// `code_challenge_method`.
    public var codeChallengeMethod: String?
    /// `prompt`: space-separated `none`, `login`, `consent`, `select_account`.
    public var prompt: String?
    /// `login_hint`.
    public var loginHint: String?
    /// `max_age` in seconds.
    public var maxAge: String?
    /// `ui_locales`: space-separated BCP 47 tags, preferred first.
    public var uiLocales: String?
    /// `acr_values`.
    public var acrValues: String?
    /// `claims` (OpenID Connect Core § 5.5), a JSON object.
    public var claims: String?
    /// `request` (a request object, not supported).
    public var request: String?
    /// `request_uri` (not supported).
    public var requestURI: String?

    /// No parameters.
    public init() {}
}
