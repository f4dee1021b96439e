import Foundation

/// Proof Key for Code Exchange (RFC 7636): a fresh high-entropy `code_verifier` for each
/// authorization request, sent as its S256 `code_challenge` (§ 4.2) with the request and as itself
/// with the code exchange (§ 4.5). The SDK always uses S256, never `plain`.
struct PKCE: Sendable, Equatable {
    /// The verifier: 43 characters of base64url (32 random bytes, RFC 7636 § 4.1).
    let verifier: String

    /// A verifier from the system's cryptographically secure generator.
    init() {
        verifier = Self.base64URL(RandomText.bytes(32))
    }

    /// A known verifier (tests, e.g. RFC 7636 Appendix B's).
    init(verifier: String) {
        self.verifier = verifier
    }

    /// `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))` (RFC 7636 § 4.2).
    var challenge: String { Self.base64URL(SHA256.digest(Array(verifier.utf8))) }

    /// The `code_challenge_method`.
    static let method = "S256"

    /// Base64url without padding (RFC 7636 Appendix A).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
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
        PKCE.base64URL(bytes(16))
    }
}
