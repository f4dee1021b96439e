import Foundation
import LatchCrypto

/// Verifies an OpenID Connect ID token from a tenant's identity provider (OIDC Core § 3.1.3.7):
/// the signature by a key of the provider's JWKS (RS256 or ES256; the key fixes the algorithm),
/// `iss` equal to the provider's issuer, `aud` naming its client id, `exp`, `iat` and `nbf` (when
/// present) within ``skew`` seconds, a non-empty `sub`, and the nonce.
///
/// The nonce follows Firebase: the request carries the raw nonce, and the token's `nonce` claim
/// must be its SHA-256 in lowercase hexadecimal. A token with a `nonce` claim needs the raw
/// nonce; a raw nonce for a token without the claim is refused too.
public struct ProviderTokenVerifier: Sendable {
    /// Clock tolerance for `exp` and `iat`, in seconds.
    public static let skew = 60
    /// The longest ID token read, in bytes.
    public static let maximumLength = 16_384

    let keys: ProviderKeyCache
    let clock: any ServerClock

    /// Verifies `idToken` for `provider`, with the raw `nonce` the request carried.
    /// - Throws: ``AuthFailure/invalidIdPResponse`` for a missing, malformed, wrongly signed or
    ///   unknown-key token, or a wrong issuer, audience or time; ``AuthFailure/invalidNonce``.
    public func verify(_ idToken: String?, provider: IdentityProvider, nonce: String?) throws -> ProviderAssertion {
        guard let idToken, !idToken.isEmpty, idToken.utf8.count <= Self.maximumLength else {
            throw AuthFailure.invalidIdPResponse
        }
        let payload: [UInt8]
        do {
            payload = try JWT.verify(idToken) { kid in keys.key(kid, of: provider) }
        } catch {
            throw AuthFailure.invalidIdPResponse
        }
        guard let claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any],
            claims["iss"] as? String == provider.issuer, Self.audience(claims["aud"], contains: provider.clientID),
            let subject = claims["sub"] as? String, !subject.isEmpty, subject.count <= 255,
            let expiry = (claims["exp"] as? NSNumber)?.intValue, let issuedAt = (claims["iat"] as? NSNumber)?.intValue
        else { throw AuthFailure.invalidIdPResponse }
        let now = Int(clock.now().timeIntervalSince1970)
        let notBefore = (claims["nbf"] as? NSNumber)?.intValue ?? issuedAt
        guard expiry + Self.skew > now, issuedAt <= now + Self.skew, notBefore <= now + Self.skew else {
            throw AuthFailure.invalidIdPResponse
        }
        try Self.check(nonce: nonce, claim: claims["nonce"])
        let email = (claims["email"] as? String).map(User.normalizeEmail).flatMap { User.isPlausibleEmail($0) ? $0 : nil }
        let verified = claims["email_verified"] as? Bool ?? ((claims["email_verified"] as? String) == "true")
        let raw = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
        return ProviderAssertion(
            providerID: provider.providerID, subject: subject, email: email, emailVerified: email != nil && verified,
            displayName: (claims["name"] as? String).flatMap { $0.isEmpty ? nil : $0 },
            photoURL: (claims["picture"] as? String).flatMap { $0.isEmpty ? nil : $0 },
            rawUserInfo: String(decoding: raw, as: UTF8.self), idToken: idToken)
    }

    /// Whether `aud` (a string or an array of strings, RFC 7519 § 4.1.3) names `clientID`.
    static func audience(_ aud: Any?, contains clientID: String) -> Bool {
        switch aud {
        case let single as String: single == clientID
        case let many as [Any]: many.contains { $0 as? String == clientID }
        default: false
        }
    }

    /// The raw nonce against the token's `nonce` claim, compared without early exit.
    static func check(nonce: String?, claim: Any?) throws {
        let given = nonce.flatMap { $0.isEmpty ? nil : $0 }
        switch (given, claim) {
        case (nil, nil):
            return
        case (let raw?, let hashed as String):
            guard ConstantTime.equals(Array(Digest.sha256Hex(raw).utf8), Array(hashed.utf8)) else {
                throw AuthFailure.invalidNonce
            }
        default:
            throw AuthFailure.invalidNonce
        }
    }
}
