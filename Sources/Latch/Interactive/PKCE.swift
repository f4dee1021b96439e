import Foundation
internal import LatchWire

#if canImport(CryptoKit)
    import CryptoKit
#else
    internal import LatchCrypto
#endif

/// Proof Key for Code Exchange (RFC 7636): a fresh high-entropy `code_verifier` for each
/// authorization request, sent as its S256 `code_challenge` (§ 4.2) with the request and as itself
/// with the code exchange (§ 4.5). The SDK always uses S256, never `plain`.
struct PKCE: Sendable, Equatable {
    /// The verifier: 43 characters of base64url (32 random bytes, RFC 7636 § 4.1).
    let verifier: String

    /// A verifier from the system's cryptographically secure generator.
    init() {
        verifier = Base64URL.encode(RandomText.bytes(32))
    }

    /// A known verifier (tests, e.g. RFC 7636 Appendix B's).
    init(verifier: String) {
        self.verifier = verifier
    }

    /// `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))` (RFC 7636 § 4.2).
    var challenge: String { Base64URL.encode(Self.sha256(Array(verifier.utf8))) }

    /// SHA-256 (FIPS 180-4) of `bytes`: CryptoKit on Apple platforms, libcrypto on Linux.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
            Array(SHA256.hash(data: bytes))
        #else
            Digest.sha256(bytes)
        #endif
    }

    /// The `code_challenge_method`.
    static let method = "S256"
}

/// Random values for `state` and `nonce` (RFC 6749 § 10.12, OpenID Connect Core § 3.1.2.1).
enum RandomText {
    /// `count` bytes from `SystemRandomNumberGenerator` (the platform's CSPRNG).
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// 128 bits as base64url: unguessable, and safe in a URL unescaped.
    static func token() -> String {
        Base64URL.encode(bytes(16))
    }
}
