import Foundation
import LatchCrypto
import LatchWire

/// Custom tokens (Firebase `createCustomToken` / `signInWithCustomToken`): JWTs a trusted backend
/// mints for a `uid` of its own, signed RS256 with the tenant's service-account key
/// (`reference/firebase-auth-protocol.md` § 6). Each tenant has one service-account key pair, made on
/// first use and sealed at rest with the master key like the signing keys; it never signs ID tokens.
///
/// In emulator mode (``LatchServerConfiguration/emulator``) unsigned `alg: none` tokens, as
/// firebase-admin makes against the emulator, are accepted too; never otherwise.
public final class CustomTokenService: Sendable {
    /// The `aud` every custom token carries.
    public static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// The longest lifetime (`exp - iat`) a custom token may have, in seconds.
    public static let maximumLifetime = 3600
    /// The longest `uid`.
    public static let maximumUIDLength = 128
    /// Claim names a custom token's `claims` may not use: the JWT and OIDC names (as firebase-admin
    /// refuses them) and the ID token's own Firebase claims.
    public static let reservedClaims: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat", "iss", "jti",
        "nbf", "nonce", "sub", "user_id", "email", "email_verified", "phone_number", "provider_id",
    ]

    /// A verified custom token: the account it names and the claims for its ID token.
    public struct Verified: Sendable {
        /// The account id.
        public var uid: String
        /// The developer claims, for the top level of the ID token.
        public var claims: [String: any Sendable]
    }

    private let store: any Store
    private let clock: any ServerClock
    private let masterKey: [UInt8]
    private let emulator: Bool
    private let cache = ReadMostly<[String: SigningKey]>([:])

    /// Creates the service.
    /// - Parameter emulator: accept unsigned (`alg: none`) tokens.
    public init(store: any Store, clock: any ServerClock, masterKey: [UInt8], emulator: Bool = false) {
        self.store = store
        self.clock = clock
        self.masterKey = masterKey
        self.emulator = emulator
    }

    /// The service-account id of `tenant`: the `iss` and `sub` of its custom tokens.
    public static func serviceAccount(of tenant: Tenant) -> String { "latch-service-account@\(tenant.name).invalid" }

    /// Whether `claims` may go into a custom token: no reserved names, and JSON-serializable.
    public static func acceptable(_ claims: [String: any Sendable]) -> Bool {
        claims.keys.allSatisfy { !reservedClaims.contains($0) } && JSONSerialization.isValidJSONObject(claims)
    }

    /// A custom token for `uid` of `tenant`, valid for `lifetime` seconds (at most an hour).
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` (`.uid` too long or empty, reserved or
    ///   unserializable `claims`, a lifetime out of range).
    public func mint(tenant: Tenant, uid: String, claims: [String: any Sendable] = [:], lifetime: Int = maximumLifetime)
        throws -> String
    {
        guard !uid.isEmpty, uid.count <= Self.maximumUIDLength else { throw AuthFailure.invalidParameter(.uid) }
        guard Self.acceptable(claims) else { throw AuthFailure.invalidParameter(.claims) }
        guard (1...Self.maximumLifetime).contains(lifetime) else { throw AuthFailure.invalidParameter(.claims) }
        let key = try key(for: tenant)
        let issuedAt = Int(clock.now().timeIntervalSince1970)
        let account = Self.serviceAccount(of: tenant)
        var payload: [String: any Sendable] = [
            "iss": account, "sub": account, "aud": Self.audience, "uid": uid, "iat": issuedAt, "exp": issuedAt + lifetime,
        ]
        if !claims.isEmpty { payload["claims"] = claims }
        let bytes = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])
        return try JWT.sign(payload: Array(bytes), key: key)
    }

    /// The service-account key of `tenant`, made and stored sealed on first use.
    public func key(for tenant: Tenant) throws -> SigningKey {
        if let record = try store.read({ try $0.serviceAccountKey(tenantID: tenant.id) }) { return try open(record) }
        let kid = SecureRandom.hex(byteCount: 8)
        let key = try SigningKey.generate(.rs256, id: kid)
        let sealed = try SecretBox.seal(Array(try key.privateKeyPEM().utf8), key: masterKey)
        let record = try store.write { tx -> StoredServiceAccountKey in
            if let existing = try tx.serviceAccountKey(tenantID: tenant.id) { return existing }
            let record = StoredServiceAccountKey(id: kid, tenantID: tenant.id, sealedPrivateKey: sealed, createdAt: clock.now())
            try tx.insert(record)
            return record
        }
        return try open(record)
    }

    /// Verifies a custom token for `tenant`: its signature by the tenant's service-account key
    /// (or, in emulator mode, no signature with `alg: none`), `aud`, `iss` and `sub`, `iat` and
    /// `exp` (unexpired, at most an hour apart), `uid` (1 to 128 characters) and `claims` (an
    /// object without reserved names).
    /// - Throws: ``AuthFailure/customTokenMismatch`` for a token validly signed by another
    ///   tenant's service account; ``AuthFailure/invalidCustomToken`` for anything else wrong.
    public func verify(_ token: String?, tenant: Tenant) throws -> Verified {
        guard let token, !token.isEmpty, token.utf8.count <= 16_384 else { throw AuthFailure.invalidCustomToken }
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let headerBytes = Base64URL.decode(segments[0]),
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            let alg = header["alg"] as? String
        else { throw AuthFailure.invalidCustomToken }
        let payload: [UInt8]
        if alg == "none" {
            // firebase-admin against the emulator: `header.payload.` with an empty signature.
            guard emulator, segments[2].isEmpty, let bytes = Base64URL.decode(segments[1]) else {
                throw AuthFailure.invalidCustomToken
            }
            payload = bytes
        } else {
            guard alg == SigningAlgorithm.rs256.rawValue, let kid = header["kid"] as? String,
                let record = try store.read({ try $0.serviceAccountKey(id: kid) })
            else { throw AuthFailure.invalidCustomToken }
            let key = try open(record)
            do {
                payload = try JWT.verify(token) { $0 == key.id ? key : nil }
            } catch {
                throw AuthFailure.invalidCustomToken
            }
            guard record.tenantID == tenant.id else { throw AuthFailure.customTokenMismatch }
        }
        return try check(payload, tenant: tenant, signed: alg != "none")
    }

    private func check(_ payload: [UInt8], tenant: Tenant, signed: Bool) throws -> Verified {
        guard let claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any],
            claims["aud"] as? String == Self.audience,
            let issuedAt = (claims["iat"] as? NSNumber)?.intValue, let expiry = (claims["exp"] as? NSNumber)?.intValue,
            let uid = claims["uid"] as? String, !uid.isEmpty, uid.count <= Self.maximumUIDLength
        else { throw AuthFailure.invalidCustomToken }
        if signed {
            let account = Self.serviceAccount(of: tenant)
            guard claims["iss"] as? String == account, claims["sub"] as? String == account else {
                throw AuthFailure.customTokenMismatch
            }
        }
        let now = Int(clock.now().timeIntervalSince1970)
        guard expiry > now, expiry - issuedAt <= Self.maximumLifetime, issuedAt <= now + 300 else {
            throw AuthFailure.invalidCustomToken
        }
        var developer: [String: any Sendable] = [:]
        if let given = claims["claims"] {
            guard let object = given as? [String: Any] else { throw AuthFailure.invalidCustomToken }
            for (name, value) in object {
                guard !Self.reservedClaims.contains(name) else { throw AuthFailure.invalidCustomToken }
                developer[name] = Self.sendable(value)
            }
        }
        return Verified(uid: uid, claims: developer)
    }

    /// A value decoded by `JSONSerialization`, as a `Sendable` one of the same JSON shape.
    public static func sendable(_ value: Any) -> any Sendable {
        switch value {
        case let object as [String: Any]: object.mapValues { sendable($0) }
        case let array as [Any]: array.map { sendable($0) }
        case let string as String: string
        // Kept as decoded, so a boolean is written back as a boolean and a number as a number.
        case let number as NSNumber: number
        default: NSNull()
        }
    }

    private func open(_ record: StoredServiceAccountKey) throws -> SigningKey {
        if let known = cache.read({ $0[record.id] }) { return known }
        let pem = try SecretBox.open(record.sealedPrivateKey, key: masterKey)
        let key = try SigningKey(privateKeyPEM: String(decoding: pem, as: UTF8.self), id: record.id, algorithm: .rs256)
        cache.write { $0[record.id] = key }
        return key
    }
}
