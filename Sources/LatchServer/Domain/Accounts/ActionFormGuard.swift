import Foundation
import LatchCrypto
import LatchWire

/// Anti-forgery tokens for the forms of the hosted action page (OWASP's signed double-submit
/// cookie): the page sets a random browser binding in a cookie and puts
/// `HMAC-SHA256(key, label | binding | SHA-256(code))` in a hidden field; a POST is accepted only
/// when the field matches the cookie it arrives with and the code it names. Another site can
/// neither read nor set the cookie, so it cannot forge the pair, and a token from one code does
/// not work for another.
///
/// The key is derived from the data directory's master key with HKDF-SHA256 (RFC 5869, `info`
/// `latch action form v1`), so it never is the key of anything else.
public struct ActionFormGuard: Sendable {
    /// The HKDF `info` of the form key.
    static let keyInfo = Array("latch action form v1".utf8)
    private let key: [UInt8]

    /// Derives the form key from `masterKey`.
    /// - Throws: ``CryptoError`` when the derivation fails.
    public init(masterKey: [UInt8]) throws {
        key = try HKDF.sha256(inputKey: masterKey, info: Self.keyInfo, outputLength: 32)
    }

    /// A fresh browser binding for the cookie: 32 random bytes, base64url.
    public func newBinding() -> String { SecureRandom.token(byteCount: 32) }

    /// The form token for `binding` and `code`.
    public func token(binding: String, code: String) -> String {
        guard let mac = try? HMACSHA256.mac(message(binding: binding, code: code), key: key) else { return "" }
        return Base64URL.encode(mac)
    }

    /// Whether `token` is the form token of `binding` and `code`, compared in constant time.
    public func isValid(_ token: String?, binding: String?, code: String) -> Bool {
        guard let token, let binding, !binding.isEmpty, binding.utf8.count <= 128, token.utf8.count <= 128,
            let mac = Base64URL.decode(token)
        else { return false }
        return HMACSHA256.isValid(mac, for: message(binding: binding, code: code), key: key)
    }

    private func message(binding: String, code: String) -> [UInt8] {
        Array("latch-action-form-v1|\(binding)|\(Digest.sha256Hex(code))".utf8)
    }
}
