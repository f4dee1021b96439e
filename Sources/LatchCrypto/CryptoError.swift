/// A failure inside LatchCrypto: a libcrypto/libargon2 call failed or an input (PEM, JWK, key,
/// ciphertext) was rejected.
///
/// The message describes the operation that failed and never contains key material, passwords or
/// plaintext, so it is safe to log.
public struct CryptoError: Error, Sendable, CustomStringConvertible {
    /// A human-readable description of the failure, free of secrets.
    public let message: String

    /// Creates an error with a secret-free message.
    /// - Parameter message: what failed.
    public init(_ message: String) {
        self.message = message
    }

    /// The message, prefixed so log lines show where it came from.
    public var description: String { "LatchCrypto: \(message)" }
}
