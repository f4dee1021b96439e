import Foundation
import LatchCrypto

/// Authenticates a confidential client by a JWT it signed with one of its registered keys:
/// `private_key_jwt` (OpenID Connect Core § 9; RFC 7523 §§ 2.2, 3; RFC 7521 § 4.2).
///
/// The assertion is a compact JWS signed RS256 or ES256 by a key of the client's ``ClientKeySet``
/// (the header's `kid` picks it, or the set's only key); the key fixes the algorithm, so `none` and
/// HMAC never verify (RFC 8725 §§ 2.1, 3.1). Its claims: `iss` and `sub` are the client id; `aud`
/// names this server; `exp` is required and in the future, at most ``maximumLifetime`` after `iat`
/// (or now); `nbf` and `iat`, when present, are not in the future; and `jti` is used once until the
/// assertion expires. Every clock comparison allows ``skew`` seconds.
///
/// Every failure is the same ``AuthFailure/invalidClientAuthentication(basic:)`` (RFC 7521
/// § 4.2.1), and once the client is known it takes from the source's password-check bucket, as a
/// wrong secret does (``ClientAuthenticator``).
public struct ClientAssertionVerifier: Sendable {
    /// The `client_assertion_type` of a JWT assertion (RFC 7523 § 2.2).
    public static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// The longest assertion read, in bytes: an RS256 JWS of a few claims is well under 1 KiB.
    public static let maximumLength = 8192
    /// Clock tolerance, in seconds.
    public static let skew = 60
    /// The longest an assertion may live, in seconds from its `iat` (or from now without one).
    public static let maximumLifetime = 600
    /// The longest `jti` accepted, in bytes.
    public static let maximumIDLength = 255

    let store: any Store
    let clock: any ServerClock
    let limiter: RateLimiter
    let tokens: TokenService

    /// Creates a verifier reading keys from `store`, recording used `jti`s there, and metering
    /// failures with `limiter`; `tokens` names the issuer and token endpoint the `aud` may name.
    public init(store: any Store, clock: any ServerClock, limiter: RateLimiter, tokens: TokenService) {
        self.store = store
        self.clock = clock
        self.limiter = limiter
        self.tokens = tokens
    }

    /// The client id an assertion claims to come from (its `sub`), read **without verifying
    /// anything**, to find the client whose keys then verify it; `nil` when unreadable or too long.
    public static func claimedClientID(_ assertion: String) -> String? {
        guard assertion.utf8.count <= maximumLength, let payload = JWT.unverifiedPayload(assertion),
            let claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any],
            let subject = claims["sub"] as? String, Client.isValidID(subject)
        else { return nil }
        return subject
    }

    /// The `aud` values that name this server for `tenant`: its token endpoint, which OpenID Connect
    /// Core § 9 asks for, and its issuer, which RFC 7523 § 3 item 3 allows ("identifies the
    /// authorization server"). Both are accepted, on the token, revocation and introspection
    /// endpoints alike.
    public func audiences(for tenant: Tenant) -> [String] {
        let issuer = tokens.issuer(for: tenant)
        return [tokens.origin + "/" + tenant.name + "/oauth2/v2.0/token", issuer]
    }

    /// Accepts `context.client` when `assertion` is a valid, unused assertion of it.
    /// - Parameters:
    ///   - assertion: the `client_assertion` sent.
    ///   - type: the `client_assertion_type` sent; it must be ``assertionType``.
    /// - Throws: ``AuthFailure/invalidClientAuthentication(basic:)``, or
    ///   ``AuthFailure/tooManyAttempts(retryAfter:)`` once the source failed too often.
    public func authenticate(_ context: ClientContext, assertion: String, type: String?) throws {
        do {
            try verify(context, assertion: assertion, type: type)
        } catch AuthFailure.invalidClientAuthentication {
            try limiter.admit(.passwordAttempts, context)
            throw AuthFailure.invalidClientAuthentication(basic: false)
        }
    }

    private func verify(_ context: ClientContext, assertion: String, type: String?) throws {
        let failure = AuthFailure.invalidClientAuthentication(basic: false)
        let client = context.client
        guard type == Self.assertionType, !client.isPublic, !assertion.isEmpty, assertion.utf8.count <= Self.maximumLength,
            let stored = try store.read({ try $0.clientKeys(clientID: client.id, tenantID: context.tenant.id) }),
            let keys = try? ClientKeySet(stored.jwks),
            let payload = try? JWT.verify(assertion, keyForID: keys.key(for:)),
            let claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
        else { throw failure }
        guard claims["iss"] as? String == client.id, claims["sub"] as? String == client.id,
            Self.audience(claims["aud"], containsAny: audiences(for: context.tenant)),
            let jti = claims["jti"] as? String, !jti.isEmpty, jti.utf8.count <= Self.maximumIDLength,
            let expiry = Self.numericDate(claims["exp"])
        else { throw failure }
        let now = clock.now().timeIntervalSince1970
        let skew = Double(Self.skew)
        let issuedAt = try claims["iat"].map { value in
            guard let date = Self.numericDate(value) else { throw failure }
            return date
        }
        let notBefore = try claims["nbf"].map { value in
            guard let date = Self.numericDate(value) else { throw failure }
            return date
        }
        guard expiry + skew > now, expiry <= (issuedAt ?? now) + Double(Self.maximumLifetime) + skew,
            (issuedAt ?? now) <= now + skew, (notBefore ?? now) <= now + skew
        else { throw failure }
        // Single use until the assertion can no longer be accepted (RFC 7523 § 3 item 7): the record
        // lives to `exp` plus the skew, since that is how long the same assertion would still pass.
        let hash = Digest.sha256Hex(context.tenant.id + "\u{0}" + client.id + "\u{0}" + jti)
        let expires = Date(timeIntervalSince1970: expiry + skew)
        guard try store.write({ tx in try tx.recordAssertionID(hash, expiresAt: expires, at: clock.now()) }) else {
            throw failure
        }
    }

    /// Whether `aud` (a string or an array of strings, RFC 7519 § 4.1.3) names one of `accepted`.
    static func audience(_ aud: Any?, containsAny accepted: [String]) -> Bool {
        switch aud {
        case let single as String: accepted.contains(single)
        case let many as [Any]: many.contains { ($0 as? String).map(accepted.contains) ?? false }
        default: false
        }
    }

    /// A NumericDate (RFC 7519 § 2): a finite JSON number of seconds since the epoch.
    static func numericDate(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber else { return nil }
        let seconds = number.doubleValue
        return seconds.isFinite ? seconds : nil
    }
}
