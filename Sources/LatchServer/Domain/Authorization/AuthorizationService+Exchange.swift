import Foundation
import LatchCrypto
import LatchWire

extension AuthorizationService {
    /// The `authorization_code` grant (RFC 6749 § 4.1.3): exchanges a code for tokens once.
    ///
    /// The code must have been issued to this client for this `redirect_uri`, within its 60
    /// seconds, and `codeVerifier` must hash to its S256 challenge (RFC 7636 § 4.6); a verifier
    /// without a challenge is refused too (RFC 9700 § 4.8.2, PKCE downgrade). A code presented a
    /// second time revokes the session its first exchange started (RFC 6749 § 4.1.2).
    /// - Throws: ``AuthFailure/invalidAuthorizationCode(_:)`` for every refusal of the code (RFC
    ///   6749 § 5.2 `invalid_grant`), ``AuthFailure/unauthorizedClient(_:)`` when the client may
    ///   not use the grant, ``AuthFailure/tooManyAttempts(retryAfter:)`` over the token-request limit.
    public func exchange(
        context: ClientContext, code: String?, redirectURI: String?, codeVerifier: String?
    ) throws -> IssuedTokens {
        guard context.client.allows(grant: GrantType.authorizationCode) else {
            throw AuthFailure.unauthorizedClient("the authorization_code grant is not allowed for this client")
        }
        try limiter.admit(.tokenRequests, context)
        guard let code, !code.isEmpty else { throw AuthFailure.missingParameter(.code) }
        guard code.utf8.count <= 512 else { throw AuthFailure.invalidAuthorizationCode("The code is not valid.") }
        let hash = Digest.sha256Hex(code)
        let now = clock.now()
        let familyID = UUID().uuidString.lowercased()
        let outcome: (AuthorizationCode, User, TokenService.NewSession)? = try store.write { tx in
            guard let stored = try tx.authorizationCode(hash: hash), stored.tenantID == context.tenant.id else {
                throw AuthFailure.invalidAuthorizationCode("The code is not valid.")
            }
            guard stored.clientID == context.client.id else {
                throw AuthFailure.invalidAuthorizationCode("The code was issued to another client.")
            }
            if stored.usedAt != nil {
                if let family = stored.familyID { try tx.revokeFamily(id: family, at: now) }
                try tx.insert(
                    AuditEvent(
                        tenantID: stored.tenantID, at: now, kind: .authorizationCodeReplayed, userID: stored.userID,
                        clientID: stored.clientID, remoteAddress: context.remoteAddress,
                        detail: stored.familyID.map { "revoked session=\($0)" }))
                return nil
            }
            guard stored.expiresAt > now else { throw AuthFailure.invalidAuthorizationCode("The code has expired.") }
            guard redirectURI == stored.redirectURI else {
                throw AuthFailure.invalidAuthorizationCode("redirect_uri does not match the authorization request.")
            }
            try Self.checkVerifier(codeVerifier, challenge: stored.codeChallenge)
            guard let redeemed = try tx.redeemAuthorizationCode(hash: hash, familyID: familyID, at: now) else {
                throw AuthFailure.invalidAuthorizationCode("The code was used already.")
            }
            guard let user = try tx.user(id: redeemed.userID, tenantID: context.tenant.id), !user.disabled else {
                throw AuthFailure.invalidAuthorizationCode("The account is not available.")
            }
            let session = try tokens.startSession(
                tx, context: context, user: user, scopes: ScopeSet(stored: redeemed.scopes), amr: redeemed.amr,
                authTime: redeemed.authTime, familyID: familyID)
            return (redeemed, user, session)
        }
        // A replay commits its revocation above, then fails.
        guard let (redeemed, user, session) = outcome else {
            throw AuthFailure.invalidAuthorizationCode("The code was used already; the tokens it gave were revoked.")
        }
        return try tokens.issue(
            context: context, user: user, family: session.family, scopes: ScopeSet(stored: redeemed.scopes),
            refreshToken: session.refreshToken, nonce: redeemed.nonce)
    }

    /// RFC 7636 § 4.6: `BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge`, compared in
    /// constant time; the verifier is 43–128 unreserved characters (§ 4.1).
    static func checkVerifier(_ verifier: String?, challenge: String?) throws {
        guard let challenge else {
            guard verifier == nil || verifier == "" else {
                throw AuthFailure.invalidAuthorizationCode("code_verifier was sent but the request had no code_challenge.")
            }
            return
        }
        guard let verifier, (43...128).contains(verifier.utf8.count),
            verifier.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            })
        else { throw AuthFailure.invalidAuthorizationCode("code_verifier is missing or malformed.") }
        let computed = Base64URL.encode(Digest.sha256(Array(verifier.utf8)))
        guard ConstantTime.equals(Array(computed.utf8), Array(challenge.utf8)) else {
            throw AuthFailure.invalidAuthorizationCode("code_verifier does not match the code_challenge.")
        }
    }
}
