import Foundation
import LatchWire

extension TokenService {
    /// The audience (`aud`, the client id) of an ID token this tenant signed, expired or not, or
    /// `nil` when `token` is not one: the `id_token_hint` of RP-initiated logout (OpenID Connect
    /// RP-Initiated Logout 1.0 § 2 accepts expired hints).
    public func idTokenAudience(_ token: String, tenant: Tenant) -> String? {
        guard token.utf8.count <= 8192, let payload = try? signer.verify(token, type: "JWT", tenant: tenant),
            let claims = try? JSONDecoder().decode(JWTClaims.self, from: Data(payload)),
            claims.iss == issuer(for: tenant), claims.tid == tenant.id
        else { return nil }
        return claims.aud
    }
}
