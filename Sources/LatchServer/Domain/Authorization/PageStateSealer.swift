import Foundation
import LatchCrypto
import LatchWire

/// Seals the state of a hosted-page interaction (the checked authorization request and how far
/// the user got) into the page's hidden `interaction` field, so no server-side row is needed
/// between pages and any instance can serve the next one.
///
/// AES-256-GCM (``SecretBox``) under a key derived from the data directory's master key with
/// HKDF-SHA256 (RFC 5869, `info` `latch hosted pages v1`). The associated data is the browser's
/// anti-forgery binding: state sealed for one browser does not open with another's cookie.
public struct PageStateSealer: Sendable {
    static let keyInfo = Array("latch hosted pages v1".utf8)
    /// The longest sealed value accepted (a state is a few hundred bytes).
    static let maximumLength = 8192
    private let key: [UInt8]

    /// Derives the key from `masterKey`.
    /// - Throws: ``CryptoError`` when the derivation fails.
    public init(masterKey: [UInt8]) throws {
        key = try HKDF.sha256(inputKey: masterKey, info: Self.keyInfo, outputLength: SecretBox.keyLength)
    }

    /// `value` as JSON, sealed for `binding`, base64url.
    public func seal(_ value: some Encodable, binding: String) throws -> String {
        let plaintext = try JSONEncoder().encode(value)
        return Base64URL.encode(try SecretBox.seal(Array(plaintext), key: key, associatedData: Array(binding.utf8)))
    }

    /// The value sealed in `text` for `binding`, or `nil` when it is malformed, altered, or sealed
    /// for another browser or under another key.
    public func open<Value: Decodable>(_ text: String?, binding: String?, as type: Value.Type) -> Value? {
        guard let text, let binding, text.utf8.count <= Self.maximumLength, let sealed = Base64URL.decode(text),
            let plaintext = try? SecretBox.open(sealed, key: key, associatedData: Array(binding.utf8))
        else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(plaintext))
    }
}
