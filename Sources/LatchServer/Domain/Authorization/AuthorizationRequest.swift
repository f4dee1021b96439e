import Foundation

/// A checked authorization request: the client and redirect URI are known good, so every later
/// failure can go back to the client (RFC 6749 § 4.1.2.1).
public struct AuthorizationRequest: Sendable, Equatable, Codable {
    /// How the answer travels to the redirect URI.
    public enum ResponseMode: String, Sendable, Codable {
        /// In the query of a `303` redirect (RFC 6749 § 4.1.2).
        case query
        /// In an auto-submitted form (OAuth 2.0 Form Post Response Mode).
        case formPost = "form_post"
    }

    /// The values of `prompt` (OpenID Connect Core § 3.1.2.1).
    public enum Prompt: String, Sendable, Codable, CaseIterable {
        /// Show nothing: answer at once or fail with `login_required` and its kin.
        case none
        /// Authenticate again even with a session.
        case login
        /// Ask for consent again.
        case consent
        /// Show the account chooser.
        case selectAccount = "select_account"
    }

    /// The tenant.
    public var tenantID: String
    /// The client.
    public var clientID: String
    /// The redirect URI, as sent (it is bound to the code).
    public var redirectURI: String
    /// How the answer travels.
    public var responseMode: ResponseMode
    /// The scopes asked for, checked against the client.
    public var scopes: [String]
    /// `state`.
    public var state: String?
    /// `nonce`.
    public var nonce: String?
    /// The S256 `code_challenge`; `nil` only for a confidential client that sent none.
    public var codeChallenge: String?
    /// `prompt`.
    public var prompt: Set<Prompt>
    /// `login_hint`.
    public var loginHint: String?
    /// `max_age` in seconds.
    public var maxAge: Int?
    /// `ui_locales`, preferred first.
    public var uiLocales: [String]
    /// Whether `acr_values` or `claims` asked for the `mfa` class: the sign-in needs a second factor.
    public var secondFactorAsked: Bool
    /// The `claims` parameter, passed on to the sign-in.
    public var claims: String?
}

/// Why an authorization request failed, in the vocabulary of RFC 6749 § 4.1.2.1 and OpenID
/// Connect Core § 3.1.2.6; the adapter words it.
public enum AuthorizationError: String, Sendable, Equatable {
    /// `invalid_request`.
    case invalidRequest
    /// `unauthorized_client`.
    case unauthorizedClient
    /// `access_denied`.
    case accessDenied
    /// `unsupported_response_type`.
    case unsupportedResponseType
    /// `invalid_scope`.
    case invalidScope
    /// `login_required`.
    case loginRequired
    /// `consent_required`.
    case consentRequired
    /// `interaction_required`.
    case interactionRequired
    /// `account_selection_required`.
    case accountSelectionRequired
    /// `request_not_supported`.
    case requestNotSupported
    /// `request_uri_not_supported`.
    case requestURINotSupported
}

/// A refused authorization request.
public enum AuthorizationRefusal: Error, Sendable, Equatable {
    /// The client or redirect URI is wrong: the answer must not go to the redirect URI (RFC 6749
    /// § 4.1.2.1), so it is shown to the user.
    case unredirectable(UnredirectableReason)
    /// Anything else: sent back to the client's redirect URI.
    case redirect(AuthorizationError, description: String, request: AuthorizationRequest)
}

/// Why a request cannot be answered at its redirect URI.
public enum UnredirectableReason: Sendable, Equatable {
    /// No `client_id`.
    case missingClient
    /// The client is not registered in the tenant.
    case unknownClient
    /// No `redirect_uri` and no single registered one to default to.
    case missingRedirectURI
    /// A `redirect_uri` the client did not register.
    case unregisteredRedirectURI
}
