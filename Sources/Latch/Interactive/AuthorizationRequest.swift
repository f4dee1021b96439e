import Foundation

/// One authorization request of the code flow (RFC 6749 § 4.1.1 with PKCE, RFC 7636 § 4.3, and
/// OpenID Connect Core § 3.1.2.1): its URL, and the check of the redirect that answers it (§ 4.1.2).
struct AuthorizationRequest: Sendable {
    /// The authorization endpoint, `/{tenant}/oauth2/v2.0/authorize`.
    let endpoint: URL
    /// The issuer the authorization server names itself in `iss` (RFC 9207 § 2): `{server}/{tenant}/v2.0`.
    let issuer: String
    let clientID: String
    let redirectURI: URL
    let scopes: [String]
    /// Random per request, compared with the redirect's (RFC 6749 § 10.12).
    let state: String
    /// Random per request, compared with the ID token's `nonce` (OpenID Connect Core § 3.1.2.1).
    let nonce: String
    let pkce: PKCE
    let prompt: LatchPrompt?
    let loginHint: String?
    let claims: String?
    let extraQueryParameters: [String: String]

    /// A request with fresh `state`, `nonce` and PKCE verifier.
    init(
        configuration: LatchConfiguration, redirectURI: URL, parameters: LatchInteractiveParameters,
        state: String = RandomText.token(), nonce: String = RandomText.token(), pkce: PKCE = PKCE()
    ) {
        endpoint = configuration.serverURL.appendingPathComponent(configuration.tenant)
            .appendingPathComponent("oauth2/v2.0/authorize")
        issuer =
            configuration.serverURL.appendingPathComponent(configuration.tenant).appendingPathComponent("v2.0")
            .absoluteString
        clientID = configuration.clientID
        self.redirectURI = redirectURI
        let requested = parameters.scopes.isEmpty ? configuration.defaultScopes : parameters.scopes
        scopes = requested.contains("openid") ? requested : ["openid"] + requested
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        prompt = parameters.prompt
        loginHint = parameters.loginHint.flatMap { $0.isEmpty ? nil : $0 }
        claims = parameters.claims.flatMap { $0.isEmpty ? nil : $0 }
        extraQueryParameters = parameters.extraQueryParameters
    }

    /// The SDK's own parameters; extra query parameters never replace them.
    var parameters: [String: String] {
        var fields = [
            "response_type": "code", "client_id": clientID, "redirect_uri": redirectURI.absoluteString,
            "scope": scopes.joined(separator: " "), "state": state, "nonce": nonce, "code_challenge": pkce.challenge,
            "code_challenge_method": PKCE.method,
        ]
        if let prompt { fields["prompt"] = prompt.rawValue }
        if let loginHint { fields["login_hint"] = loginHint }
        if let claims { fields["claims"] = claims }
        return fields
    }

    /// The URL to open: the endpoint with every parameter in the query.
    var url: URL {
        let fields = extraQueryParameters.merging(parameters) { _, own in own }
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        // `+` is a space in form-encoded queries: escaped so servers read it literally.
        components.percentEncodedQuery = fields.sorted { $0.key < $1.key }
            .map { "\(Self.escape($0.key))=\(Self.escape($0.value))" }.joined(separator: "&")
        return components.url!
    }

    private static let queryValue: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryValue) ?? text
    }

    /// The authorization code of `redirect` (RFC 6749 § 4.1.2).
    /// - Throws: ``LatchError`` — ``LatchError/Code/stateMismatch`` when its `state` is not this
    ///   request's (checked first, also for an error response), the code of the `error` it carries
    ///   (``ServerErrorMapping/authorizationError(_:description:)``), or
    ///   ``LatchError/Code/invalidAuthorizationResponse`` when it has neither `code` nor `error`.
    func code(from redirect: URL) throws -> String {
        // The query is form-encoded (RFC 6749 Appendix B): `+` is a space.
        var components = URLComponents(url: redirect, resolvingAgainstBaseURL: false)
        let query = components?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%20")
        components?.percentEncodedQuery = query
        let items = components?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard let returned = value("state"), returned == state else {
            throw LatchError(
                code: .stateMismatch,
                message: "The redirect's state does not match the request's; the response was not exchanged.")
        }
        // RFC 9207 § 2.4: a response naming another issuer came from another server (a mix-up
        // attack); a server that sends no `iss` is taken as before.
        if let returnedIssuer = value("iss"), returnedIssuer != issuer {
            throw LatchError(
                code: .invalidAuthorizationResponse,
                message: "The redirect's iss names another authorization server; the response was not exchanged.")
        }
        if let error = value("error") {
            throw ServerErrorMapping.authorizationError(error, description: value("error_description"))
        }
        guard let code = value("code"), !code.isEmpty else {
            throw LatchError(
                code: .invalidAuthorizationResponse, message: "The redirect carries neither an authorization code nor an error.")
        }
        return code
    }
}
