import Foundation
import LatchHTTP
import LatchWire

/// The OpenID Connect adapter: discovery (OpenID Connect Discovery 1.0 § 4), JWKS (RFC 7517 § 5)
/// and userinfo (OpenID Connect Core § 5.3). The token endpoint is shared with native auth.
final class OIDCAPI: Sendable {
    let services: AuthServices
    let log: ServerLog
    private let discoveryCache = ReadMostly<[String: [UInt8]]>([:])

    init(services: AuthServices, log: ServerLog) {
        self.services = services
        self.log = log
    }

    /// Adds the routes to `router`.
    func register(in router: inout Router) {
        let api = self
        router.add("GET", "/{tenant}/v2.0/.well-known/openid-configuration") { request in
            api.discovery(request)
        }
        router.add("GET", "/{tenant}/discovery/v2.0/keys") { request in api.jwks(request) }
        router.add("GET", "/{tenant}/oidc/userinfo") { request in api.userinfo(request) }
        router.add("POST", "/{tenant}/oidc/userinfo") { request in api.userinfo(request) }
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
            guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("bearer ") else {
                return HTTPResponse(
                    status: 401, headers: HTTPHeaders([("WWW-Authenticate", "Bearer realm=\"\(tenant.name)\"")]))
            }
            let token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
            let claims = try services.tokens.verifyAccessToken(token, tenant: tenant)
            let session = try services.store.read { try $0.tokenFamily(id: claims.sid ?? "") }
            guard let user = try services.store.read({ try $0.user(id: claims.sub, tenantID: tenant.id) }), !user.disabled,
                session?.revokedAt == nil
            else { throw AuthFailure.invalidAccessToken }
            var body: [String: any Sendable] = ["sub": user.id, "email": user.email, "email_verified": user.emailVerified]
            if let name = user.displayName { body["name"] = name }
            body["preferred_username"] = user.email
            return JSONBody.ok(body)
        }
    }

    /// Resolves the tenant and renders failures as OAuth JSON errors.
    private func withTenant(_ request: HTTPRequest, _ body: (Tenant) throws -> HTTPResponse) -> HTTPResponse {
        let wire = WireContext(request)
        let now = services.clock.now()
        do {
            let tenant = try services.directory.tenant(named: request.pathParameters["tenant"] ?? "")
            return try body(tenant)
        } catch AuthFailure.unknownTenant {
            return .json(404, JSONBody.object(["error": "invalid_tenant", "error_description": "The tenant does not exist."]))
        } catch let failure as AuthFailure {
            return NativeAuthErrorTable.response(for: failure, context: wire, now: now)
        } catch {
            log.error("request \(wire.traceID) \(request.path) failed: \(error)")
            return NativeAuthErrorTable.serverError(context: wire, now: now)
        }
    }

    private func discoveryDocument(for tenant: Tenant) -> [UInt8] {
        let issuer = services.tokens.issuer(for: tenant)
        let base = String(issuer.dropLast("/v2.0".count))
        return JSONBody.object([
            "issuer": issuer,
            "token_endpoint": "\(base)/oauth2/v2.0/token",
            "jwks_uri": "\(base)/discovery/v2.0/keys",
            "userinfo_endpoint": "\(base)/oidc/userinfo",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256", "RS256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "grant_types_supported": ["refresh_token", "password", "oob", "continuation_token"],
            "scopes_supported": ["openid", "profile", "email", "offline_access"],
            "claims_supported": [
                "iss", "sub", "aud", "exp", "iat", "nbf", "auth_time", "amr", "sid", "tid", "email", "email_verified",
                "name", "preferred_username",
            ],
            "native_auth_endpoints": [
                "signup_start": "\(base)/signup/v1.0/start",
                "signin_initiate": "\(base)/oauth2/v2.0/initiate",
                "resetpassword_start": "\(base)/resetpassword/v1.0/start",
            ],
        ])
    }
}
