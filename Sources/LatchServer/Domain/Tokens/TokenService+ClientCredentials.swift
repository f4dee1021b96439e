import Foundation
import LatchCrypto
import LatchWire

extension TokenService {
    /// The client credentials grant (RFC 6749 § 4.4): an access token for the authenticated
    /// confidential client itself, `sub` and `client_id` its id, `scp` the requested scopes it may
    /// have. Without `scope`, every scope the client may have. The OpenID scopes are declined: no
    /// user is involved. No refresh token (§ 4.4.3) and no ID token.
    /// - Throws: ``AuthFailure/unauthorizedClient(_:)`` for a public client,
    ///   ``AuthFailure/invalidScope(_:)`` for a malformed scope or when none is left.
    public func clientCredentials(context: ClientContext, scope: String?) throws -> ClientToken {
        let client = context.client
        guard !client.isPublic else {
            throw AuthFailure.unauthorizedClient("only confidential clients may use the client_credentials grant")
        }
        let scopes = try Self.clientScopes(scope, client: client)
        let now = Int(clock.now().timeIntervalSince1970)
        let lifetime = context.tenant.settings.accessTokenLifetime
        var claims = JWTClaims(
            iss: issuer(for: context.tenant), sub: client.id, aud: client.id, exp: now + lifetime, iat: now, nbf: now)
        claims.jti = SecureRandom.token(byteCount: 16)
        claims.scp = scopes.joined(separator: " ")
        claims.tid = context.tenant.id
        claims.clientID = client.id
        let token = try signer.sign(claims.jsonBytes(), type: "at+jwt", tenant: context.tenant)
        return ClientToken(accessToken: token, scopes: scopes, expiresIn: lifetime)
    }

    /// The granted scopes of a client credentials request (RFC 6749 § 3.3).
    static func clientScopes(_ text: String?, client: Client) throws -> [String] {
        guard let text, !text.isEmpty else {
            guard !client.allowedScopes.isEmpty else { throw AuthFailure.invalidScope("scope is required for this client") }
            return client.allowedScopes
        }
        var granted: [String] = []
        for scope in text.split(separator: " ").map(String.init) where !granted.contains(scope) {
            guard scope.utf8.count <= 256,
                scope.utf8.allSatisfy({ $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) })
            else { throw AuthFailure.invalidScope("scope contains characters RFC 6749 § 3.3 does not allow") }
            guard !ScopeSet.openIDScopes.contains(scope),
                client.allowedScopes.isEmpty || client.allowedScopes.contains(scope)
            else { continue }
            granted.append(scope)
        }
        guard !granted.isEmpty else {
            throw AuthFailure.invalidScope("none of the requested scopes is allowed for this client")
        }
        return granted
    }
}
