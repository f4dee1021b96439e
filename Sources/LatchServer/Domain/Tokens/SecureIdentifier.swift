import LatchCrypto

/// Unguessable identifiers for token ids (`jti`) and opaque secrets.
enum SecureIdentifier {
    /// 128 random bits, base64url.
    static func make() -> String { SecureRandom.token(byteCount: 16) }
}
