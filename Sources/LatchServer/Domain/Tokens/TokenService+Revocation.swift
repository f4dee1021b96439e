import Foundation
import LatchCrypto
import LatchWire

/// What a revocation request says the token is (RFC 7009 § 2.1 `token_type_hint`).
public enum TokenTypeHint: Sendable, Equatable {
    /// `refresh_token`.
    case refreshToken
    /// `access_token`.
    case accessToken
}

extension TokenService {
    /// Revokes the session a token belongs to (RFC 7009 § 2.1), on behalf of the client it was
    /// issued to: a refresh token revokes its whole family, and an access token, still valid or
    /// expired, the session its `sid` names. Revoking ends every refresh token of the session, and
    /// access tokens fail at once where they are checked (userinfo checks the session is live).
    ///
    /// An unknown, malformed or already revoked token is no error (§ 2.2: the client cannot act
    /// on it). The `hint` only orders the look-ups (§ 2.1: the server may ignore it).
    /// Each request takes from the source's token-request bucket.
    /// - Throws: ``AuthFailure/missingParameter(_:)`` without a token,
    ///   ``AuthFailure/tooManyAttempts(retryAfter:)`` when the source is over its limit,
    ///   ``AuthFailure/unauthorizedClient(_:)`` for a token issued to another client of the tenant
    ///   (§ 2.1: the server verifies the token was issued to the requesting client).
    public func revoke(context: ClientContext, token: String?, hint: TokenTypeHint?) throws {
        guard let token, !token.isEmpty else { throw AuthFailure.missingParameter(.token) }
        try limiter?.admit(.tokenRequests, context)
        guard token.utf8.count <= 8192 else { return }
        let sessionID: String?
        if hint == .accessToken {
            sessionID = try accessTokenSession(token, context: context) ?? refreshTokenSession(token, context: context)
        } else {
            sessionID = try refreshTokenSession(token, context: context) ?? accessTokenSession(token, context: context)
        }
        guard let sessionID else { return }
        try store.write { tx in
            guard let family = try tx.tokenFamily(id: sessionID), family.revokedAt == nil else { return }
            let now = clock.now()
            try tx.revokeFamily(id: family.id, at: now)
            try tx.insert(
                AuditEvent(
                    tenantID: family.tenantID, at: now, kind: .sessionRevoked, userID: family.userID,
                    clientID: family.clientID, remoteAddress: context.remoteAddress, detail: "session=\(family.id)"))
        }
    }

    /// The session of a refresh token of this tenant, or `nil` when it is none.
    private func refreshTokenSession(_ token: String, context: ClientContext) throws -> String? {
        guard token.utf8.count <= 512 else { return nil }
        let hash = Digest.sha256Hex(token)
        guard
            let family = try store.read({ tx in
                try tx.refreshToken(hash: hash).flatMap { try tx.tokenFamily(id: $0.familyID) }
            }), family.tenantID == context.tenant.id
        else { return nil }
        guard family.clientID == context.client.id else {
            throw AuthFailure.unauthorizedClient("the token was issued to another client")
        }
        return family.id
    }

    /// The session (`sid`) of an access token signed for this tenant, expired or not, or `nil`.
    private func accessTokenSession(_ token: String, context: ClientContext) throws -> String? {
        guard token.utf8.filter({ $0 == UInt8(ascii: ".") }).count == 2,
            let payload = try? signer.verify(token, type: "at+jwt", tenant: context.tenant),
            let claims = try? JSONDecoder().decode(JWTClaims.self, from: Data(payload)),
            claims.iss == issuer(for: context.tenant), claims.tid == context.tenant.id, let sid = claims.sid
        else { return nil }
        guard claims.clientID == context.client.id, claims.aud == context.client.id else {
            throw AuthFailure.unauthorizedClient("the token was issued to another client")
        }
        return sid
    }
}
