import Foundation
import LatchCrypto
import LatchWire

/// Issues and refreshes tokens: RFC 9068 JWT access tokens, OpenID Connect ID tokens, and opaque
/// refresh tokens stored as SHA-256, rotated on every use with reuse detection (RFC 9700 § 4.14.2).
/// Signing happens outside store transactions, so the single writer never waits on a signature.
public final class TokenService: Sendable {
    private let store: any Store
    private let clock: any ServerClock
    private let keyRing: KeyRing
    private let baseURL: ReadMostly<String>

    /// Creates the service; `baseURL` is the public origin, e.g. `http://127.0.0.1:8080`.
    public init(store: any Store, clock: any ServerClock, keyRing: KeyRing, baseURL: String) {
        self.store = store
        self.clock = clock
        self.keyRing = keyRing
        self.baseURL = ReadMostly(baseURL)
    }

    /// The `iss` of `tenant`'s tokens (OpenID Connect Discovery § 3).
    public func issuer(for tenant: Tenant) -> String { "\(baseURL.read { $0 })/\(tenant.name)/v2.0" }

    /// Sets the public origin once the listening port is known (ephemeral ports in tests).
    public func setBaseURL(_ url: String) { baseURL.write { $0 = url } }

    /// A session about to be committed: the family row and the refresh token, if one is issued.
    struct NewSession {
        let family: TokenFamily
        let refreshToken: String?
    }

    /// Adds a session for `user` to `tx`: a token family and, with `offline_access`, its first refresh token.
    func startSession(
        _ tx: any StoreWriting, context: ClientContext, user: User, scopes: ScopeSet, amr: [String], authTime: Date
    ) throws -> NewSession {
        let now = clock.now()
        let family = TokenFamily(
            id: UUID().uuidString.lowercased(), tenantID: context.tenant.id, clientID: context.client.id,
            userID: user.id, scopes: scopes.values, amr: amr, authTime: authTime, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(context.tenant.settings.refreshTokenLifetime)))
        try tx.insert(family)
        var refreshToken: String?
        if scopes.contains("offline_access") {
            let token = SecureRandom.token(byteCount: 32)
            try tx.insert(RefreshTokenRecord(hash: Digest.sha256Hex(token), familyID: family.id, createdAt: now))
            refreshToken = token
        }
        return NewSession(family: family, refreshToken: refreshToken)
    }

    /// Signs the access and ID tokens of a committed session.
    func issue(
        context: ClientContext, user: User, family: TokenFamily, scopes: ScopeSet, refreshToken: String?
    ) throws -> IssuedTokens {
        let tenant = context.tenant
        let key = try keyRing.signingKey(for: tenant)
        let now = Int(clock.now().timeIntervalSince1970)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes

        var claims = JWTClaims(
            iss: issuer(for: tenant), sub: user.id, aud: context.client.id,
            exp: now + tenant.settings.accessTokenLifetime, iat: now, nbf: now)
        claims.authTime = Int(family.authTime.timeIntervalSince1970)
        claims.amr = family.amr
        claims.sid = family.id
        claims.tid = tenant.id
        claims.email = user.email
        claims.emailVerified = user.emailVerified
        claims.name = user.displayName
        claims.preferredUsername = user.email

        var accessClaims = claims
        accessClaims.jti = SecureRandom.token(byteCount: 16)
        accessClaims.scp = scopes.text
        accessClaims.clientID = context.client.id
        let accessToken = try JWT.sign(payload: Array(try encoder.encode(accessClaims)), key: key, type: "at+jwt")

        var idToken: String?
        if scopes.contains("openid") {
            var idClaims = claims
            idClaims.exp = now + tenant.settings.idTokenLifetime
            idToken = try JWT.sign(payload: Array(try encoder.encode(idClaims)), key: key, type: "JWT")
        }
        return IssuedTokens(
            accessToken: accessToken, idToken: idToken, refreshToken: refreshToken, scopes: scopes.values,
            expiresIn: tenant.settings.accessTokenLifetime, subject: user.id, tenantID: tenant.id)
    }

    /// Exchanges a refresh token (RFC 6749 § 6) for new tokens and a successor refresh token.
    ///
    /// The presented token is marked rotated. Presenting it once more within the tenant's grace
    /// window (two concurrent refreshes) yields one more successor; any other reuse revokes the whole
    /// family and fails with ``AuthFailure/refreshTokenReused``.
    public func refresh(context: ClientContext, refreshToken: String?, scope: String?) throws -> IssuedTokens {
        guard let refreshToken, !refreshToken.isEmpty else {
            throw AuthFailure.invalidRequest("refresh_token is required")
        }
        guard refreshToken.utf8.count <= 512 else { throw AuthFailure.invalidRefreshToken }
        let presentedHash = Digest.sha256Hex(refreshToken)
        let successor = SecureRandom.token(byteCount: 32)
        let successorHash = Digest.sha256Hex(successor)
        let tenant = context.tenant

        enum Outcome {
            case issued(TokenFamily, User, ScopeSet)
            case reused
        }
        let outcome: Outcome = try store.write { tx in
            let now = clock.now()
            guard let record = try tx.refreshToken(hash: presentedHash),
                let family = try tx.tokenFamily(id: record.familyID),
                family.tenantID == tenant.id, family.clientID == context.client.id
            else { throw AuthFailure.invalidRefreshToken }
            guard family.revokedAt == nil, family.expiresAt > now else { throw AuthFailure.refreshTokenRevoked }
            if let rotatedAt = record.rotatedAt {
                let grace = TimeInterval(tenant.settings.refreshReuseGraceSeconds)
                // The window covers one lost answer (two concurrent refreshes): one re-exchange only,
                // so a copied token cannot keep a second chain alive.
                if grace <= 0 || now.timeIntervalSince(rotatedAt) > grace || record.graceReissued {
                    try tx.revokeFamily(id: family.id, at: now)
                    try tx.insert(
                        AuditEvent(
                            tenantID: tenant.id, at: now, kind: .refreshTokenReuse, userID: family.userID,
                            clientID: context.client.id, remoteAddress: context.remoteAddress,
                            detail: "session=\(family.id)"))
                    return .reused
                }
            }
            guard let user = try tx.user(id: family.userID, tenantID: tenant.id), !user.disabled else {
                throw AuthFailure.refreshTokenRevoked
            }
            let granted = ScopeSet(stored: family.scopes)
            var scopes = granted
            if let scope, !scope.isEmpty {
                let requested = try ScopeSet(scope, client: context.client)
                guard requested.values.allSatisfy(granted.contains) else {
                    throw AuthFailure.invalidScope("a refresh cannot add scopes the session was not granted")
                }
                scopes = requested
            }
            if record.rotatedAt == nil {
                try tx.markRotated(hash: presentedHash, at: now)
            } else {
                try tx.markGraceReissued(hash: presentedHash)
            }
            try tx.insert(RefreshTokenRecord(hash: successorHash, familyID: family.id, createdAt: now))
            return .issued(family, user, scopes)
        }
        switch outcome {
        case .reused:
            throw AuthFailure.refreshTokenReused
        case .issued(let family, let user, let scopes):
            return try issue(context: context, user: user, family: family, scopes: scopes, refreshToken: successor)
        }
    }

    /// Verifies an access token of `tenant` (RFC 6750 bearer) and returns its claims.
    /// - Throws: ``AuthFailure/invalidAccessToken``.
    public func verifyAccessToken(_ token: String, tenant: Tenant) throws -> JWTClaims {
        let payload: [UInt8]
        do {
            payload = try JWT.verify(token) { kid in (try? keyRing.verificationKey(id: kid, tenant: tenant)) ?? nil }
        } catch {
            throw AuthFailure.invalidAccessToken
        }
        guard let claims = try? JSONDecoder().decode(JWTClaims.self, from: Data(payload)),
            claims.iss == issuer(for: tenant), claims.scp != nil
        else { throw AuthFailure.invalidAccessToken }
        let now = Int(clock.now().timeIntervalSince1970)
        guard claims.exp > now, claims.nbf <= now + 60 else { throw AuthFailure.invalidAccessToken }
        return claims
    }
}
