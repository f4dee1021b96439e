import Foundation
import LatchCrypto
import LatchWire

extension TokenService {
    /// Token introspection (RFC 7662 § 2) for an authenticated confidential client.
    ///
    /// An access token of this tenant is active while it is inside its lifetime and, for a user's
    /// token, while its session is live; a `client_credentials` token while its client is still
    /// confidential. A refresh token is active while it is the current one of a live session, and
    /// only shown to the client it was issued to (§ 4: the server may hide tokens from other
    /// clients). Everything else is ``Introspection/inactive``; the `hint` only orders the look-ups.
    /// - Throws: ``AuthFailure/missingParameter(_:)`` without a token,
    ///   ``AuthFailure/unauthorizedClient(_:)`` for a public caller.
    public func introspect(context: ClientContext, token: String?, hint: TokenTypeHint?) throws -> Introspection {
        guard !context.client.isPublic else {
            throw AuthFailure.unauthorizedClient("only confidential clients may introspect tokens")
        }
        guard let token, !token.isEmpty else { throw AuthFailure.missingParameter(.token) }
        guard token.utf8.count <= 8192 else { return .inactive }
        if hint == .refreshToken {
            if let found = try introspectRefreshToken(token, context: context) { return found }
            return try introspectAccessToken(token, tenant: context.tenant) ?? .inactive
        }
        if let found = try introspectAccessToken(token, tenant: context.tenant) { return found }
        return try introspectRefreshToken(token, context: context) ?? .inactive
    }

    private func introspectAccessToken(_ token: String, tenant: Tenant) throws -> Introspection? {
        guard token.utf8.filter({ $0 == UInt8(ascii: ".") }).count == 2,
            let payload = try? signer.verify(token, type: "at+jwt", tenant: tenant),
            let claims = try? JSONDecoder().decode(JWTClaims.self, from: Data(payload)),
            claims.iss == issuer(for: tenant), claims.tid == tenant.id, let clientID = claims.clientID,
            claims.aud == clientID
        else { return nil }
        let now = Int(clock.now().timeIntervalSince1970)
        guard claims.exp > now, claims.nbf <= now + 60 else { return .inactive }
        if claims.sid != nil {
            guard (try? verifyAccessToken(token, tenant: tenant)) != nil else { return .inactive }
        } else {
            // A client credentials token: its subject is its client, which must still be confidential.
            guard claims.sub == clientID,
                let client = try store.read({ try $0.client(id: clientID, tenantID: tenant.id) }), !client.isPublic
            else { return .inactive }
        }
        return Introspection(
            active: true, scope: claims.scp, clientID: clientID, subject: claims.sub, expiresAt: claims.exp,
            issuedAt: claims.iat, issuer: claims.iss, tokenType: "Bearer")
    }

    private func introspectRefreshToken(_ token: String, context: ClientContext) throws -> Introspection? {
        guard token.utf8.count <= 512 else { return nil }
        let hash = Digest.sha256Hex(token)
        guard
            let (record, family) = try store.read({ tx -> (RefreshTokenRecord, TokenFamily)? in
                guard let record = try tx.refreshToken(hash: hash), let family = try tx.tokenFamily(id: record.familyID)
                else { return nil }
                return (record, family)
            })
        else { return nil }
        guard family.tenantID == context.tenant.id, family.clientID == context.client.id, family.revokedAt == nil,
            record.rotatedAt == nil, family.expiresAt > clock.now()
        else { return .inactive }
        return Introspection(
            active: true, scope: family.scopes.joined(separator: " "), clientID: family.clientID, subject: family.userID,
            expiresAt: Int(family.expiresAt.timeIntervalSince1970), issuedAt: Int(record.createdAt.timeIntervalSince1970),
            issuer: issuer(for: context.tenant), tokenType: "refresh_token")
    }
}
