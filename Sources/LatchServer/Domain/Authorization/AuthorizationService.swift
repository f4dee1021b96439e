import Foundation
import LatchCrypto
import LatchWire

/// The authorization endpoint's rules (RFC 6749 § 4.1, RFC 7636, OpenID Connect Core § 3.1.2):
/// checks a request, decides from the browser's sessions whether it can be answered at once
/// (single sign-on) or needs a page, and issues the authorization code.
public struct AuthorizationService: Sendable {
    let store: any Store
    let clock: any ServerClock
    let directory: Directory
    let limiter: RateLimiter
    let tokens: TokenService

    /// How long a code is accepted (RFC 6749 § 4.1.2 recommends at most 10 minutes; a client
    /// exchanges it within seconds).
    static let codeLifetime: TimeInterval = 60
    /// The longest `state`, `nonce` and `login_hint` accepted.
    static let maximumValueLength = 1024

    /// Checks `parameters` for `tenant`.
    /// - Throws: ``AuthorizationRefusal/unredirectable(_:)`` for a missing or unknown client or a
    ///   redirect URI it did not register, ``AuthorizationRefusal/redirect(_:description:request:)``
    ///   for everything else.
    public func check(_ parameters: AuthorizationParameters, tenant: Tenant) throws -> AuthorizationRequest {
        guard let clientID = parameters.clientID, !clientID.isEmpty else {
            throw AuthorizationRefusal.unredirectable(.missingClient)
        }
        let client: Client
        do {
            client = try directory.client(id: clientID, in: tenant)
        } catch AuthFailure.unknownClient, AuthFailure.invalidParameter {
            throw AuthorizationRefusal.unredirectable(.unknownClient)
        }
        let redirectURI: String
        if let given = parameters.redirectURI, !given.isEmpty {
            guard
                RedirectURIRule.matches(
                    given, registered: client.redirectURIs, anyLoopback: client.acceptsAnyLoopbackRedirect)
            else { throw AuthorizationRefusal.unredirectable(.unregisteredRedirectURI) }
            redirectURI = given
        } else if client.redirectURIs.count == 1 {
            // RFC 6749 § 3.1.2.3: one registered URI may stand in for an omitted one.
            redirectURI = client.redirectURIs[0]
        } else {
            throw AuthorizationRefusal.unredirectable(.missingRedirectURI)
        }
        var request = AuthorizationRequest(
            tenantID: tenant.id, clientID: client.id, redirectURI: redirectURI, responseMode: .query, scopes: [],
            state: parameters.state, nonce: parameters.nonce, codeChallenge: nil, prompt: [],
            loginHint: parameters.loginHint, maxAge: nil,
            uiLocales: (parameters.uiLocales ?? "").split(separator: " ").prefix(8).map(String.init),
            secondFactorAsked: false, claims: nil)
        func refuse(_ error: AuthorizationError, _ description: String) -> AuthorizationRefusal {
            .redirect(error, description: description, request: request)
        }
        switch parameters.responseMode {
        case nil, "", "query": request.responseMode = .query
        case "form_post": request.responseMode = .formPost
        default: throw refuse(.invalidRequest, "response_mode must be query or form_post.")
        }
        for value in [parameters.state, parameters.nonce, parameters.loginHint] {
            guard (value?.utf8.count ?? 0) <= Self.maximumValueLength else {
                throw refuse(.invalidRequest, "state, nonce and login_hint are at most 1024 bytes each.")
            }
        }
        if parameters.request != nil { throw refuse(.requestNotSupported, "Request objects are not supported.") }
        if parameters.requestURI != nil { throw refuse(.requestURINotSupported, "request_uri is not supported.") }
        guard let responseType = parameters.responseType, !responseType.isEmpty else {
            throw refuse(.invalidRequest, "response_type is missing.")
        }
        guard responseType == "code" else {
            throw refuse(.unsupportedResponseType, "Only the authorization code flow (response_type=code) is supported.")
        }
        guard client.allows(grant: GrantType.authorizationCode) else {
            throw refuse(.unauthorizedClient, "The client may not use the authorization code flow.")
        }
        request.codeChallenge = try checkedChallenge(parameters, client: client, refuse: refuse)
        do {
            request.scopes = try ScopeSet(parameters.scope, client: client).values
        } catch let failure as AuthFailure {
            if case .invalidScope(let message) = failure { throw refuse(.invalidScope, message) }
            throw refuse(.invalidScope, "The scope is not valid.")
        }
        request.prompt = try checkedPrompt(parameters.prompt, refuse: refuse)
        if let maxAge = parameters.maxAge {
            guard let seconds = Int(maxAge), seconds >= 0, maxAge.utf8.count <= 10 else {
                throw refuse(.invalidRequest, "max_age must be a non-negative number of seconds.")
            }
            request.maxAge = seconds
        }
        if let claims = parameters.claims, !claims.isEmpty {
            guard claims.utf8.count <= 4096,
                (try? JSONSerialization.jsonObject(with: Data(claims.utf8))) is [String: Any]
            else { throw refuse(.invalidRequest, "claims must be a JSON object.") }
            request.claims = claims
            request.secondFactorAsked = ClaimsRequest.asksForSecondFactor(claims)
        }
        if let acr = parameters.acrValues, acr.split(separator: " ").contains("mfa") {
            request.secondFactorAsked = true
        }
        return request
    }

    /// RFC 7636 § 4.3 / § 4.4.1: a public client must send an S256 challenge; `plain` is refused
    /// everywhere (RFC 9700 § 2.1.1). A confidential client may send none.
    private func checkedChallenge(
        _ parameters: AuthorizationParameters, client: Client, refuse: (AuthorizationError, String) -> AuthorizationRefusal
    ) throws -> String? {
        guard let challenge = parameters.codeChallenge, !challenge.isEmpty else {
            guard client.isPublic else { return nil }
            throw refuse(.invalidRequest, "code_challenge is required (PKCE with S256).")
        }
        guard parameters.codeChallengeMethod == "S256" else {
            throw refuse(.invalidRequest, "code_challenge_method must be S256.")
        }
        // The base64url SHA-256 of a verifier: 43 characters without padding.
        guard challenge.utf8.count == 43, Base64URL.decode(challenge)?.count == 32 else {
            throw refuse(.invalidRequest, "code_challenge is not an S256 challenge.")
        }
        return challenge
    }

    private func checkedPrompt(
        _ text: String?, refuse: (AuthorizationError, String) -> AuthorizationRefusal
    ) throws -> Set<AuthorizationRequest.Prompt> {
        var prompts: Set<AuthorizationRequest.Prompt> = []
        for word in (text ?? "").split(separator: " ") {
            guard let prompt = AuthorizationRequest.Prompt(rawValue: String(word)) else {
                throw refuse(.invalidRequest, "prompt must be none, login, consent or select_account.")
            }
            prompts.insert(prompt)
        }
        // OpenID Connect Core § 3.1.2.1: none with any other value is an error.
        if prompts.contains(.none), prompts.count > 1 {
            throw refuse(.invalidRequest, "prompt=none cannot be combined with other values.")
        }
        return prompts
    }
}
