import Foundation
import LatchCrypto

/// The verification keys of an identity provider's JWKS document (RFC 7517 § 5), read as the
/// providers publish them: keys without `alg` take it from their type (`RSA` → RS256, `EC` on
/// P-256 → ES256, RFC 7518 § 3.1), keys without `use` count as signature keys, and encryption keys
/// or keys of other types are skipped. Each kept key becomes a ``JWK`` and a verification-only
/// `SigningKey`, so libcrypto validates it.
public enum ProviderKeySet {
    /// The longest JWKS document read, in bytes.
    public static let maximumSize = 256 * 1024

    /// The keys of `document`, by `kid`.
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` (`.jwks`) when it is not a JWKS document
    ///   (RFC 7517 § 5: an object with a `keys` array) or holds no usable RS256 / ES256 key.
    public static func keys(of document: [UInt8]) throws -> [String: SigningKey] {
        guard document.count <= maximumSize,
            let object = (try? JSONSerialization.jsonObject(with: Data(document))) as? [String: Any],
            let entries = object["keys"] as? [Any]
        else { throw AuthFailure.invalidParameter(.jwks) }
        var keys: [String: SigningKey] = [:]
        for case let entry as [String: Any] in entries {
            guard let jwk = jwk(entry), keys[jwk.kid] == nil, let key = try? SigningKey(publicJWK: jwk) else { continue }
            keys[jwk.kid] = key
        }
        guard !keys.isEmpty else { throw AuthFailure.invalidParameter(.jwks) }
        return keys
    }

    /// The keys of the JWKS text `json`; see ``keys(of:)``.
    public static func keys(of json: String) throws -> [String: SigningKey] { try keys(of: Array(json.utf8)) }

    /// One member of `keys` as a signature ``JWK``, or `nil` when it is not one this server verifies with.
    private static func jwk(_ entry: [String: Any]) -> JWK? {
        guard let kty = entry["kty"] as? String, let kid = entry["kid"] as? String, !kid.isEmpty else { return nil }
        let use = entry["use"] as? String ?? "sig"
        guard use == "sig" else { return nil }
        let crv = entry["crv"] as? String
        let implied: String? =
            switch kty {
            case "RSA": SigningAlgorithm.rs256.rawValue
            case "EC" where crv == "P-256": SigningAlgorithm.es256.rawValue
            default: nil
            }
        guard let alg = entry["alg"] as? String ?? implied, SigningAlgorithm(rawValue: alg) != nil else { return nil }
        return JWK(
            kty: kty, crv: crv, x: entry["x"] as? String, y: entry["y"] as? String, n: entry["n"] as? String,
            e: entry["e"] as? String, kid: kid, alg: alg, use: use)
    }
}
