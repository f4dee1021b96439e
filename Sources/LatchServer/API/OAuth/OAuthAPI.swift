import Foundation
import LatchHTTP

/// The OAuth 2.0 / OpenID Connect adapter: discovery (OpenID Connect Discovery 1.0 § 4), JWKS
/// (RFC 7517 § 5) and userinfo (OpenID Connect Core § 5.3). The token endpoint is shared with
/// native auth, whose envelope is a superset of RFC 6749 § 5.2.
final class OAuthAPI: Sendable {
    let services: AuthServices
    let renderer = OAuthRenderer()
    let log: ServerLog
    private let discoveryCache = ReadMostly<[String: [UInt8]]>([:])

    /// The paths this family owns, for its route group.
    static let prefixes = ["/{tenant}/v2.0", "/{tenant}/discovery", "/{tenant}/oidc", "/{tenant}/oauth2", "/{tenant}/me"]

    init(services: AuthServices, log: ServerLog) {
        self.services = services
        self.log = log
    }

    /// Adds the group and its routes to `router`.
    func register(in router: inout Router) {
        router.addGroup("oauth", prefixes: Self.prefixes, renderer: renderer)
        let api = self
        router.add("GET", "/{tenant}/v2.0/.well-known/openid-configuration") { request in
            api.discovery(request)
        }
        router.add("GET", "/{tenant}/discovery/v2.0/keys") { request in api.jwks(request) }
        router.add("GET", "/{tenant}/oidc/userinfo") { request in api.userinfo(request) }
        router.add("POST", "/{tenant}/oidc/userinfo") { request in api.userinfo(request) }
        router.add("POST", "/{tenant}/oauth2/v2.0/revoke") { request in api.revoke(request) }
        router.add("POST", DeviceAuthorizationEndpoint.path) { request in
            api.withTenant(request) { tenant in
                try DeviceAuthorizationEndpoint.start(request, tenant: tenant, services: api.services)
            }
        }
        router.add("GET", "/{tenant}/me/authentication-methods") { request in api.authenticationMethods(request) }
    }

    private func discovery(_ request: HTTPRequest) -> HTTPResponse {
        withTenant(request) { tenant in
            let body: [UInt8]
            if let cached = discoveryCache.read({ $0[tenant.id] }) {
                body = cached
            } else {
                body = discoveryDocument(for: tenant)
                discoveryCache.write { $0[tenant.id] = body }
            }
            return .json(200, body, headers: HTTPHeaders([("Cache-Control", "public, max-age=300")]))
        }
    }

    private func jwks(_ request: HTTPRequest) -> HTTPResponse {
        withTenant(request) { tenant in
            .json(200, try services.keyRing.jwks(for: tenant), headers: HTTPHeaders([("Cache-Control", "public, max-age=300")]))
        }
    }

    private func userinfo(_ request: HTTPRequest) -> HTTPResponse {
        withTenant(request) { tenant in
            guard let token = Self.bearerToken(request) else { return renderer.missingBearer(realm: tenant.name) }
            let claims = try services.userinfo.claims(accessToken: token, tenant: tenant)
            var body: [String: any Sendable] = [
                "sub": claims.subject, "email": claims.email, "email_verified": claims.emailVerified,
                "preferred_username": claims.preferredUsername,
            ]
            if let name = claims.name { body["name"] = name }
            return JSONBody.ok(body)
        }
    }

    /// The signed-in user's strong authentication methods, masked (bearer access token, as for
    /// userinfo): `{"methods":[{"id","challenge_channel","login_hint","verified","created_at"}]}`.
    private func authenticationMethods(_ request: HTTPRequest) -> HTTPResponse {
        withTenant(request) { tenant in
            guard let token = Self.bearerToken(request) else { return renderer.missingBearer(realm: tenant.name) }
            let methods = try services.userinfo.authMethods(accessToken: token, tenant: tenant)
            var writer = JSONWriter(capacity: 64 + 160 * methods.count)
            writer.array("methods", methods) { writer, method in
                writer.member("id", method.id)
                writer.member("challenge_channel", method.channel.rawValue)
                writer.member(
                    "login_hint", ContactLabel.mask(FlowState.PendingContact(channel: method.channel, target: method.target)))
                writer.member("verified", method.verified)
                writer.member("created_at", UTCTimestamp.rfc3339(method.createdAt))
            }
            return .json(200, writer.finish(), headers: HTTPHeaders([("Cache-Control", "no-store")]))
        }
    }

    /// The access token of an `Authorization: Bearer` header (RFC 6750 § 2.1), or `nil` without one.
    private static func bearerToken(_ request: HTTPRequest) -> String? {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("bearer ") else { return nil }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    /// Token revocation (RFC 7009 § 2): a form with `token`, an optional `token_type_hint` and the
    /// public client's `client_id`, or a confidential client's credentials (RFC 6749 § 2.3.1). 200
    /// with an empty body whenever the request was valid, also for unknown tokens (§ 2.2);
    /// `unsupported_token_type` for a hint other than the two defined.
    private func revoke(_ request: HTTPRequest) -> HTTPResponse {
        withTenant(request) { tenant in
            let form = try request.formParameters()
            let context = try ClientCredentials.authenticate(request, form: form, tenant: tenant, services: services)
            let hint: TokenTypeHint?
            switch form["token_type_hint"] {
            case nil, "": hint = nil
            case "refresh_token": hint = .refreshToken
            case "access_token": hint = .accessToken
            default:
                return ErrorObject.response(
                    400, "unsupported_token_type", "token_type_hint is refresh_token or access_token.")
            }
            try services.tokens.revoke(context: context, token: form["token"], hint: hint)
            return HTTPResponse(status: 200, headers: HTTPHeaders([("Cache-Control", "no-store")]), body: [])
        }
    }

    /// Resolves the tenant and renders failures through ``OAuthRenderer``.
    func withTenant(_ request: HTTPRequest, _ body: (Tenant) throws -> HTTPResponse) -> HTTPResponse {
        do {
            let tenant = try services.directory.tenant(named: request.pathParameters["tenant"] ?? "")
            return try body(tenant)
        } catch let failure as AuthFailure {
            return renderer.render(failure, for: request)
        } catch let error as HTTPError {
            return renderer.render(error, for: request)
        } catch {
            if let outage = StoreOutage.httpError(for: error) {
                StoreOutage.log(error, log, request: request)
                return renderer.render(outage, for: request)
            }
            log.error("request failed", [("error", "\(error)")], request: request)
            return renderer.serverError(for: request)
        }
    }

    /// How clients authenticate at the token and revocation endpoints (RFC 8414 § 2): public
    /// clients with none, confidential ones with their secret (RFC 6749 § 2.3.1) or a JWT signed by
    /// a registered key (`private_key_jwt`, OpenID Connect Core § 9).
    static let clientAuthenticationMethods = ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"]

    /// How confidential clients authenticate at the introspection endpoint (RFC 8414 § 2).
    static let confidentialAuthenticationMethods = ["client_secret_basic", "client_secret_post", "private_key_jwt"]

    /// The JWS algorithms of `private_key_jwt` assertions (OpenID Connect Discovery § 3,
    /// RFC 8414 § 2): those ``ClientKeySet`` keys verify with.
    static let clientAssertionAlgorithms = ["ES256", "RS256"]

    private func discoveryDocument(for tenant: Tenant) -> [UInt8] {
        let issuer = services.tokens.issuer(for: tenant)
        let base = String(issuer.dropLast("/v2.0".count))
        return JSONBody.object([
            "issuer": issuer,
            // MSAL's silent refresh requires authorization_endpoint, token_endpoint and issuer.
            "authorization_endpoint": "\(base)/oauth2/v2.0/authorize",
            "token_endpoint": "\(base)/oauth2/v2.0/token",
            "jwks_uri": "\(base)/discovery/v2.0/keys",
            "userinfo_endpoint": "\(base)/oidc/userinfo",
            "device_authorization_endpoint": "\(base)/oauth2/v2.0/devicecode",
            "revocation_endpoint": "\(base)/oauth2/v2.0/revoke",
            "revocation_endpoint_auth_methods_supported": Self.clientAuthenticationMethods,
            "revocation_endpoint_auth_signing_alg_values_supported": Self.clientAssertionAlgorithms,
            "introspection_endpoint": "\(base)/oauth2/v2.0/introspect",
            "introspection_endpoint_auth_methods_supported": Self.confidentialAuthenticationMethods,
            "introspection_endpoint_auth_signing_alg_values_supported": Self.clientAssertionAlgorithms,
            "end_session_endpoint": "\(base)/oauth2/v2.0/logout",
            "response_types_supported": ["code"],
            "response_modes_supported": ["query", "form_post"],
            "code_challenge_methods_supported": ["S256"],
            "prompt_values_supported": AuthorizationRequest.Prompt.allCases.map(\.rawValue),
            "claims_parameter_supported": true,
            "request_parameter_supported": false,
            "request_uri_parameter_supported": false,
            "ui_locales_supported": HostedPagesAPI.locales,
            "authorization_response_iss_parameter_supported": true,
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256", "RS256"],
            "token_endpoint_auth_methods_supported": Self.clientAuthenticationMethods,
            "token_endpoint_auth_signing_alg_values_supported": Self.clientAssertionAlgorithms,
            "grant_types_supported": [
                "authorization_code", "refresh_token", "password", "oob", "continuation_token", "mfa_oob",
                "client_credentials", DeviceAuthorizationService.grantType,
            ],
            "scopes_supported": ["openid", "profile", "email", "offline_access"],
            "claims_supported": [
                "iss", "sub", "aud", "exp", "iat", "nbf", "auth_time", "amr", "acr", "sid", "tid", "email",
                "email_verified", "name", "preferred_username", "nonce",
            ],
            "acr_values_supported": ["mfa"],
            "native_auth_endpoints": [
                "signup_start": "\(base)/signup/v1.0/start",
                "signin_initiate": "\(base)/oauth2/v2.0/initiate",
                "resetpassword_start": "\(base)/resetpassword/v1.0/start",
            ],
        ])
    }
}
