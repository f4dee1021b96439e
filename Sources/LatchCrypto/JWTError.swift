/// Why ``JWT/verify(_:key:)`` rejected a compact JWS (RFC 7515 § 5.2).
public struct JWTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The category of failure. Deliberately coarse: callers should answer every case with the
    /// same `invalid_token` response rather than tell an attacker which check failed.
    public let reason: Reason

    /// The categories of verification failure (RFC 7515 § 5.2).
    public enum Reason: Sendable {
        /// Not three base64url segments, bad base64url, a header that is not a JSON object, no
        /// `alg`, or a `crit` header parameter (RFC 7515 §§ 4.1.11, 5.2 steps 1–5, 7).
        case malformed
        /// The header has no `kid`, or no key is registered under it (RFC 7515 § 4.1.4).
        case unknownKey
        /// The header's `alg` (including `"none"`) differs from the key's algorithm (RFC 8725 § 3.1).
        case algorithmMismatch
        /// The signature does not verify (RFC 7515 § 5.2 step 8).
        case badSignature
        /// The `typ` header is not the one expected (RFC 8725 § 3.11: explicit typing keeps one kind
        /// of token from being accepted as another, e.g. an ID token as an RFC 9068 access token).
        case wrongType
    }

    /// Creates an error for `reason`.
    public init(reason: Reason) {
        self.reason = reason
    }

    /// A malformed token (RFC 7515 § 5.2).
    public static let malformed = JWTError(reason: .malformed)
    /// A token whose `kid` is missing or unknown (RFC 7515 § 4.1.4).
    public static let unknownKey = JWTError(reason: .unknownKey)
    /// A token whose `alg` is not the key's algorithm (RFC 8725 § 3.1).
    public static let algorithmMismatch = JWTError(reason: .algorithmMismatch)
    /// A token whose signature does not verify (RFC 7515 § 5.2).
    public static let badSignature = JWTError(reason: .badSignature)
    /// A token of another type than expected (RFC 8725 § 3.11).
    public static let wrongType = JWTError(reason: .wrongType)

    /// The reason, for logs.
    public var description: String { "JWTError.\(reason)" }
}
