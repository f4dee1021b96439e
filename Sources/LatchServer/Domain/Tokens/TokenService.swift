import Foundation
import LatchCrypto
import LatchWire

/// Issues and refreshes tokens: RFC 9068 JWT access tokens, OpenID Connect ID tokens, and opaque
/// refresh tokens stored as SHA-256, rotated on every use with reuse detection (RFC 9700 § 4.14.2).
/// Signing happens outside store transactions, so a write never waits on a signature.
public final class TokenService: Sendable {
    let store: any Store
    let clock: any ServerClock
    let signer: any TokenSigner
    /// Meters refresh requests per source inside the refresh's own write; `nil` meters nothing.
    let limiter: RateLimiter?
    private let profile: any TokenProfile
    private let baseURL: ReadMostly<String>

    /// Creates the service; `baseURL` is the public origin, e.g. `https://id.example.com`.
    public init(
        store: any Store, clock: any ServerClock, signer: any TokenSigner, profile: any TokenProfile = OIDCTokenProfile(),
        baseURL: String, limiter: RateLimiter? = nil
    ) {
        self.store = store
        self.limiter = limiter
        self.clock = clock
        self.signer = signer
        self.profile = profile
        self.baseURL = ReadMostly(baseURL)
    }

    /// The `iss` of `tenant`'s tokens (OpenID Connect Discovery § 3).
    public func issuer(for tenant: Tenant) -> String { "\(baseURL.read { $0 })/\(tenant.name)/v2.0" }

    /// The public origin.
    public var origin: String { baseURL.read { $0 } }

    /// Sets the public origin once the listening port is known (ephemeral ports in tests).
    public func setBaseURL(_ url: String) { baseURL.write { $0 = url } }

    /// A session about to be committed: the family row and the refresh token, if one is issued.
    struct NewSession {
        let family: TokenFamily
        let refreshToken: String?
    }

    /// Adds a session for `user` to `tx`: a token family and, with `offline_access`, its first refresh token.
    func startSession(
        _ tx: any StoreWriting, context: ClientContext, user: User, scopes: ScopeSet, amr: [String], authTime: Date,
        familyID: String = UUID().uuidString.lowercased()
    ) throws -> NewSession {
        let now = clock.now()
        let family = TokenFamily(
            id: familyID, tenantID: context.tenant.id, clientID: context.client.id,
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

    /// Signs the access and ID tokens of a committed session, with the claims of the profile.
    func issue(
        context: ClientContext, user: User, family: TokenFamily, scopes: ScopeSet, refreshToken: String?,
        nonce: String? = nil
    ) throws -> IssuedTokens {
        let tenant = context.tenant
        var subject = TokenSubject(
            issuer: issuer(for: tenant), tenant: tenant, client: context.client, user: user, family: family,
            scopes: scopes.values, issuedAt: Int(clock.now().timeIntervalSince1970))
        subject.nonce = nonce
        let claims = profile.claims(for: subject)
        let accessToken = try signer.sign(claims.access.jsonBytes(), type: "at+jwt", tenant: tenant)
        let idToken = try claims.id.map { try signer.sign($0.jsonBytes(), type: "JWT", tenant: tenant) }
        return IssuedTokens(
            accessToken: accessToken, idToken: idToken, refreshToken: refreshToken, scopes: scopes.values,
            expiresIn: tenant.settings.accessTokenLifetime, subject: user.id, tenantID: tenant.id)
    }

    /// Exchanges a refresh token (RFC 6749 § 6) for new tokens and a successor refresh token.
    ///
    /// The presented token is marked rotated. Inside the tenant's grace window (a lost answer), the
    /// rotated token may be exchanged again only while its successor was never used; the new
    /// successor then replaces the unused one, which stops working, so the family never has two
    /// live branches. A rotated token whose successor was used, or one presented after the window,
    /// is reuse: the whole family is revoked and the call fails with ``AuthFailure/refreshTokenReused``.
    ///
    /// `scope` may name any subset of the granted scopes, and the standard OpenID Connect scopes
    /// (`openid`, `profile`, `email`, `offline_access`) even when the sign-in did not ask for them:
    /// MSAL adds `openid profile offline_access` to every refresh.
    public func refresh(context: ClientContext, refreshToken: String?, scope: String?) throws -> IssuedTokens {
        guard case .issued(let issued) = try refresh(context: context, refreshToken: refreshToken, scope: scope, claims: nil)
        else { throw AuthFailure.claimsChallenge(Self.secondFactorClaims) }
        return issued
    }

    /// The claims request of a challenge for a second factor: an access token of class `mfa`.
    static let secondFactorClaims = #"{"access_token":{"acr":{"essential":true,"values":["mfa"]}}}"#

    /// What a refresh came to.
    enum RefreshResult {
        /// Rotated and signed.
        case issued(IssuedTokens)
        /// The session needs a second factor first, and the client can run the step-up: nothing was
        /// rotated; the step-up proves the factor and rotates `presentedHash` when it finishes.
        case stepUp(family: TokenFamily, user: User, presentedHash: String, scopes: ScopeSet)
    }

    /// A refresh that checks the session against the tenant's MFA policy and conditional-access
    /// rules, and against `claims` (OIDC Core § 5.5) when the client passed them: a session without
    /// a second factor, or with one older than a matching rule's `maxAgeSeconds`, is refused with
    /// ``AuthFailure/claimsChallenge(_:)``, or answered ``RefreshResult/stepUp(family:user:presentedHash:scopes:)``
    /// when `canStepUp`.
    func refresh(
        context: ClientContext, refreshToken: String?, scope: String?, claims: String?, canStepUp: Bool = false
    ) throws -> RefreshResult {
        guard let refreshToken, !refreshToken.isEmpty else { throw AuthFailure.missingParameter(.refreshToken) }
        guard refreshToken.utf8.count <= 512 else { throw AuthFailure.invalidRefreshToken }
        let presentedHash = Digest.sha256Hex(refreshToken)
        let successor = SecureRandom.token(byteCount: 32)
        let successorHash = Digest.sha256Hex(successor)
        let tenant = context.tenant
        let requested = try scope.flatMap { $0.isEmpty ? nil : try ScopeSet($0, client: context.client) }

        enum Outcome {
            case issued(TokenFamily, User, ScopeSet)
            case stepUp(TokenFamily, User, ScopeSet)
            case reused
            /// Refused after the write's own changes (the rate-limit take) were made: they commit.
            case refused(AuthFailure)
        }
        let outcome: Outcome = try store.write { tx in
            // The source's token-request allowance is taken here, in the write the refresh makes
            // anyway, and refusals below return rather than throw, so that a failed refresh is
            // counted too.
            if let limited = try limiter?.take(.tokenRequests, context, in: tx) { return .refused(limited) }
            let now = clock.now()
            guard let record = try tx.refreshToken(hash: presentedHash),
                let family = try tx.tokenFamily(id: record.familyID),
                family.tenantID == tenant.id, family.clientID == context.client.id
            else { return .refused(.invalidRefreshToken) }
            guard family.revokedAt == nil, family.expiresAt > now else { return .refused(.refreshTokenRevoked) }
            guard let user = try tx.user(id: family.userID, tenantID: tenant.id), !user.disabled,
                user.validSince <= family.authTime
            else {
                return .refused(.refreshTokenRevoked)
            }
            let granted = ScopeSet(stored: family.scopes)
            if let requested,
                !requested.values.allSatisfy({ granted.contains($0) || ScopeSet.openIDScopes.contains($0) })
            {
                return .refused(.invalidScope("a refresh cannot add scopes the session was not granted"))
            }
            let scopes = requested ?? granted
            if Self.needsSecondFactor(family, scopes: scopes, context: context, claims: claims, now: now) {
                return canStepUp ? .stepUp(family, user, scopes) : .refused(.claimsChallenge(Self.secondFactorClaims))
            }
            let applied =
                try tx.rotateRefreshToken(hash: presentedHash, successorHash: successorHash, at: now)
                || replaceInsideGrace(
                    tx, presentedHash: presentedHash, successorHash: successorHash, now: now,
                    grace: TimeInterval(tenant.settings.refreshReuseGraceSeconds))
            guard applied else {
                try tx.revokeFamily(id: family.id, at: now)
                try tx.insert(
                    AuditEvent(
                        tenantID: tenant.id, at: now, kind: .refreshTokenReuse, userID: family.userID,
                        clientID: context.client.id, remoteAddress: context.remoteAddress,
                        detail: "session=\(family.id)"))
                return .reused
            }
            try tx.insert(RefreshTokenRecord(hash: successorHash, familyID: family.id, createdAt: now))
            return .issued(family, user, requested ?? granted)
        }
        switch outcome {
        case .refused(let failure):
            throw failure
        case .reused:
            throw AuthFailure.refreshTokenReused
        case .issued(let family, let user, let scopes):
            return .issued(try issue(context: context, user: user, family: family, scopes: scopes, refreshToken: successor))
        case .stepUp(let family, let user, let scopes):
            return .stepUp(family: family, user: user, presentedHash: presentedHash, scopes: scopes)
        }
    }

    /// Whether the session `family` must prove a second factor before a refresh for `scopes`: the
    /// tenant requires one and the session has none, a matching conditional-access rule wants one
    /// younger than it has, or `claims` asks for the `mfa` class and the session is not of it.
    static func needsSecondFactor(
        _ family: TokenFamily, scopes: ScopeSet, context: ClientContext, claims: String?, now: Date
    ) -> Bool {
        let mfa = context.tenant.settings.mfa
        let proven = family.amr.contains("mfa")
        if let claims, ClaimsRequest.asksForSecondFactor(claims), !proven { return true }
        switch mfa.policy {
        case .off:
            return false
        case .required:
            return !proven
        case .conditional:
            let rules = mfa.rules.filter { $0.applies(clientID: context.client.id, scopes: scopes.values) }
            guard !rules.isEmpty else { return false }
            guard proven else { return true }
            let ages = rules.map(\.maxAgeSeconds).filter { $0 > 0 }
            guard let maxAge = ages.min() else { return false }
            return now.timeIntervalSince(family.authTime) > TimeInterval(maxAge)
        }
    }

    /// In `tx`, after a step-up proved a second factor: records it on the session (`amr` gains the
    /// factor, `auth_time` becomes now) and rotates the refresh token presented when the step-up
    /// began. Returns the session as updated and the new refresh token.
    /// - Throws: ``AuthFailure/refreshTokenRevoked`` when the session ended meanwhile,
    ///   ``AuthFailure/invalidRefreshToken`` when that token was rotated by another request.
    func completeStepUp(
        _ tx: any StoreWriting, context: ClientContext, familyID: String, presentedHash: String, amr: [String]
    ) throws -> (family: TokenFamily, refreshToken: String) {
        let now = clock.now()
        guard var family = try tx.tokenFamily(id: familyID), family.tenantID == context.tenant.id,
            family.clientID == context.client.id
        else { throw AuthFailure.invalidRefreshToken }
        guard family.revokedAt == nil, family.expiresAt > now else { throw AuthFailure.refreshTokenRevoked }
        let successor = SecureRandom.token(byteCount: 32)
        let successorHash = Digest.sha256Hex(successor)
        guard try tx.rotateRefreshToken(hash: presentedHash, successorHash: successorHash, at: now) else {
            throw AuthFailure.invalidRefreshToken
        }
        try tx.insert(RefreshTokenRecord(hash: successorHash, familyID: family.id, createdAt: now))
        family.amr = amr
        family.authTime = now
        try tx.updateFamilyAuthentication(id: family.id, amr: amr, authTime: now)
        return (family, successor)
    }

    /// For a token that was already rotated: inside the grace window, swaps its never-used successor
    /// for `successorHash`. `false` means reuse.
    private func replaceInsideGrace(
        _ tx: any StoreWriting, presentedHash: String, successorHash: String, now: Date, grace: TimeInterval
    ) throws -> Bool {
        // Re-read: the rotation that beat this request may have committed after the first read.
        guard let record = try tx.refreshToken(hash: presentedHash), let rotatedAt = record.rotatedAt,
            let current = record.successorHash
        else { return false }
        guard grace > 0, now.timeIntervalSince(rotatedAt) <= grace else { return false }
        return try tx.replaceUnusedSuccessor(of: presentedHash, current: current, with: successorHash)
    }

    /// Verifies an access token of `tenant` (RFC 6750 bearer, RFC 9068 profile) and returns its
    /// claims: signed by one of the tenant's published keys, typed `at+jwt` (so an ID token is
    /// refused), issued by this tenant (`iss`, `tid`) to one of its clients (`aud` equal to
    /// `client_id`), inside its lifetime, and belonging to a session (`sid`) of that user and
    /// client that is still live.
    /// - Throws: ``AuthFailure/invalidAccessToken``.
    public func verifyAccessToken(_ token: String, tenant: Tenant) throws -> JWTClaims {
        let payload: [UInt8]
        do {
            payload = try signer.verify(token, type: "at+jwt", tenant: tenant)
        } catch {
            throw AuthFailure.invalidAccessToken
        }
        guard let claims = try? JSONDecoder().decode(JWTClaims.self, from: Data(payload)),
            claims.iss == issuer(for: tenant), claims.tid == tenant.id, claims.scp != nil,
            let clientID = claims.clientID, claims.aud == clientID, let sid = claims.sid
        else { throw AuthFailure.invalidAccessToken }
        let now = Int(clock.now().timeIntervalSince1970)
        guard claims.exp > now, claims.nbf <= now + 60 else { throw AuthFailure.invalidAccessToken }
        let (client, session) = try store.read { tx in
            (try tx.client(id: clientID, tenantID: tenant.id), try tx.tokenFamily(id: sid))
        }
        guard client != nil, let session, session.revokedAt == nil, session.tenantID == tenant.id,
            session.clientID == clientID, session.userID == claims.sub
        else { throw AuthFailure.invalidAccessToken }
        return claims
    }
}
