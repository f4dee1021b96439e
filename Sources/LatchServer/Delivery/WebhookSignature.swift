import Foundation
import LatchCrypto

/// The `Latch-Signature` header of a webhook request: `t=<unix seconds>,v1=<hex HMAC-SHA256>`,
/// where the MAC (RFC 2104) is taken under the shared secret over `<t>.<raw body>`: the decimal
/// timestamp, a full stop, and the request body exactly as sent.
///
/// A receiver recomputes the MAC over the bytes it received, compares it in constant time, and
/// refuses a timestamp outside its tolerance window (``verify(_:body:secret:now:tolerance:)``
/// uses 5 minutes), so a captured request cannot be replayed later; within the window, the
/// `Idempotency-Key` header drops duplicates.
///
/// ```swift
/// let header = try WebhookSignature.header(body: body, secret: secret, at: clock.now())
/// // "t=1767225600,v1=5f0c…"
/// let valid = WebhookSignature.verify(header, body: body, secret: secret, now: Date())
/// ```
public enum WebhookSignature {
    /// The header field's name.
    public static let headerName = "Latch-Signature"
    /// The tolerance a receiver should allow between `t` and its own clock, in seconds.
    public static let defaultTolerance: TimeInterval = 300

    /// The header value signing `body` at `date`.
    /// - Throws: ``CryptoError`` when libcrypto fails.
    public static func header(body: [UInt8], secret: WebhookSecret, at date: Date) throws -> String {
        let timestamp = Int64(date.timeIntervalSince1970.rounded(.down))
        let mac = try HMACSHA256.mac(signedContent(timestamp: timestamp, body: body), key: secret.bytes)
        return "t=\(timestamp),v1=\(Hex.encode(mac))"
    }

    /// Whether `header` signs `body` under `secret` with a timestamp within `tolerance` of `now`;
    /// any of several `v1=` values may match (a receiver in the middle of a secret rotation).
    public static func verify(
        _ header: String, body: [UInt8], secret: WebhookSecret, now: Date, tolerance: TimeInterval = defaultTolerance
    ) -> Bool {
        var timestamp: Int64?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) }
            if pair[0] == "v1" { signatures.append(pair[1]) }
        }
        guard let timestamp, abs(now.timeIntervalSince1970 - Double(timestamp)) <= tolerance else { return false }
        let content = signedContent(timestamp: timestamp, body: body)
        return signatures.contains { signature in
            guard let mac = Hex.decode(signature) else { return false }
            return HMACSHA256.isValid(mac, for: content, key: secret.bytes)
        }
    }

    /// `<t>.<body>`.
    static func signedContent(timestamp: Int64, body: [UInt8]) -> [UInt8] {
        Array("\(timestamp).".utf8) + body
    }
}
