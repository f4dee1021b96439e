import Foundation
import LatchCrypto

/// The verification keys of a `private_key_jwt` client (OpenID Connect Core § 9), read from the
/// JWKS document (RFC 7517 § 5) registered for it, more strictly than an identity provider's:
/// every member of `keys` must be usable, or the whole document is refused at registration.
///
/// A usable key is an `RSA` key (RS256, a modulus of at least 2048 bits) or an `EC` key on P-256
/// (ES256) (RFC 7518 §§ 3.3, 3.4, 6); its `alg`, when present, names the algorithm its `kty`
/// implies (RFC 8725 § 3.1: the key fixes the algorithm, so HMAC and `none` can never verify);
/// its `use`, when present, is `sig` (RFC 7517 § 4.2); and it holds no private member (`d`, `p`,
/// `q`, `dp`, `dq`, `qi`, `oth`, `k`: RFC 7518 §§ 6.2.2, 6.3.2, 6.4). Each key has a `kid`, unique in
/// the set, except that a set of one key may leave it out (RFC 7517 § 4.5).
public struct ClientKeySet: Sendable {
    /// The longest JWKS document accepted, in bytes.
    public static let maximumSize = 64 * 1024
    /// The most keys one client may register (enough to rotate with overlap).
    public static let maximumKeys = 10
    /// The longest `kid`, in bytes.
    public static let maximumKeyIDLength = 255

    /// The keys, with the `kid` each was registered under (`nil` for the one key of a set without ids).
    public let keys: [(id: String?, key: SigningKey)]

    private static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// Reads and checks the JWKS text `json`.
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` (`.jwks`) when it is not a JWKS document, is
    ///   empty or too large, or any key breaks the rules above.
    public init(_ json: String) throws {
        guard json.utf8.count <= Self.maximumSize,
            let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any],
            let entries = object["keys"] as? [Any], (1...Self.maximumKeys).contains(entries.count)
        else { throw AuthFailure.invalidParameter(.jwks) }
        var keys: [(id: String?, key: SigningKey)] = []
        for entry in entries {
            guard let member = entry as? [String: Any], let key = Self.key(member) else {
                throw AuthFailure.invalidParameter(.jwks)
            }
            keys.append(key)
        }
        let ids = keys.compactMap(\.id)
        guard Set(ids).count == ids.count, ids.count == keys.count || keys.count == 1 else {
            throw AuthFailure.invalidParameter(.jwks)
        }
        self.keys = keys
    }

    /// The key an assertion's JWS header names with `kid` (RFC 7515 § 4.1.4); with no `kid`, the
    /// set's only key. `nil` when there is no such key.
    public func key(for kid: String?) -> SigningKey? {
        guard let kid else { return keys.count == 1 ? keys[0].key : nil }
        return keys.first { $0.id == kid }?.key
    }

    /// One member of `keys` as an RS256 or ES256 verification key, or `nil` when it breaks a rule.
    private static func key(_ member: [String: Any]) -> (id: String?, key: SigningKey)? {
        guard privateMembers.allSatisfy({ member[$0] == nil }), let kty = member["kty"] as? String else { return nil }
        let algorithm: SigningAlgorithm
        switch kty {
        case "RSA": algorithm = .rs256
        case "EC" where member["crv"] as? String == "P-256": algorithm = .es256
        default: return nil
        }
        if let alg = member["alg"], alg as? String != algorithm.rawValue { return nil }
        if let use = member["use"], use as? String != "sig" { return nil }
        let id: String?
        switch member["kid"] {
        case nil: id = nil
        case let text as String where (1...maximumKeyIDLength).contains(text.utf8.count): id = text
        default: return nil
        }
        let jwk = JWK(
            kty: kty, crv: member["crv"] as? String, x: member["x"] as? String, y: member["y"] as? String,
            n: member["n"] as? String, e: member["e"] as? String, kid: id ?? "", alg: algorithm.rawValue)
        guard let key = try? SigningKey(publicJWK: jwk) else { return nil }
        return (id, key)
    }
}
