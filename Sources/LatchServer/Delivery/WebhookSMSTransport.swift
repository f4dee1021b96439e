import Foundation
import LatchCrypto
import LatchCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Delivers SMS messages by POSTing each one, signed, to an HTTP(S) endpoint of the operator's
/// (an SMS gateway of their choice, or a small service in front of one): `latchd serve
/// --sms-webhook-url URL --sms-webhook-secret-file PATH`.
///
/// The request body is one JSON object (RFC 8259) with these members, keys sorted:
///
/// | member | value |
/// |---|---|
/// | `id` | the message id: random, unique, the same on every attempt |
/// | `tenant` | the tenant's id |
/// | `to` | the phone number, E.164 (`+14155550123`) |
/// | `body` | the text to send, one-time code included |
/// | `created_at` | when the message was queued, RFC 3339 in UTC (`2026-01-01T12:00:00Z`) |
///
/// with the header fields `Content-Type: application/json`, `Latch-Signature:
/// t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` (``WebhookSignature``) and
/// `Idempotency-Key: <id>`, so a receiver drops the duplicate of a retry whose first answer was
/// lost. Any 2xx answer delivers the message; any other status, a redirect, a network failure or
/// no answer within ``timeout`` (10 s) throws ``WebhookDeliveryFailure``, and the outbox worker
/// tries again later. HTTP goes through `LatchCurl` (libcurl), which checks an `https` endpoint's
/// certificate against the system's trust store.
///
/// Neither the secret nor the URL's path and query appear in an error or a description: they name
/// the endpoint's host and port only.
public struct WebhookSMSTransport: MessageTransport, CustomStringConvertible {
    /// The endpoint.
    public let url: URL
    /// The longest one request may take, connecting included.
    public let timeout: TimeInterval
    private let secret: WebhookSecret
    private let clock: any ServerClock
    private let client: CurlHTTPClient

    /// Creates the transport.
    /// - Parameters:
    ///   - url: an `http` or `https` URL (see ``endpoint(_:)``).
    ///   - secret: the shared secret that signs every request.
    ///   - clock: the time of the signature's `t`.
    ///   - timeout: the longest one request may take, in seconds.
    public init(url: URL, secret: WebhookSecret, clock: any ServerClock = SystemClock(), timeout: TimeInterval = 10) {
        self.url = url
        self.secret = secret
        self.clock = clock
        self.timeout = timeout
        client = CurlHTTPClient(certificateAuthorityFile: nil, timeout: timeout)
    }

    /// `text` as a webhook URL.
    /// - Throws: ``ConfigurationError`` unless it is an `http` or `https` URL with a host; the
    ///   message names the scheme only, never the rest (a path may hold a token).
    public static func endpoint(_ text: String, option: String = "--sms-webhook-url") throws -> URL {
        let scheme = URLComponents(string: text)?.scheme?.lowercased()
        let url = URL(string: text)
        let problem: String? =
            switch (scheme, url?.host) {
            case (nil, _): "this one has no scheme"
            case (let scheme?, _) where !["http", "https"].contains(scheme): "this one is a '\(scheme):' URL"
            case (_, nil), (_, ""?): "this one has no host"
            default: nil
            }
        guard let url, problem == nil else {
            throw ConfigurationError("\(option) must be an http:// or https:// URL with a host; \(problem ?? "this one is not")")
        }
        return url
    }

    public func deliver(_ message: OutboxMessage) throws {
        let body = try Self.body(of: message)
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(
            try WebhookSignature.header(body: body, secret: secret, at: clock.now()),
            forHTTPHeaderField: WebhookSignature.headerName)
        request.setValue(
            message.messageID.isEmpty ? String(message.id) : message.messageID, forHTTPHeaderField: "Idempotency-Key")
        request.setValue("latchd", forHTTPHeaderField: "User-Agent")
        let status: Int
        do {
            status = try client.blockingData(for: request).1.statusCode
        } catch {
            throw WebhookDeliveryFailure(endpoint: endpointName, reason: .unreachable(Self.reason(of: error)))
        }
        guard (200..<300).contains(status) else {
            throw WebhookDeliveryFailure(endpoint: endpointName, reason: .status(status))
        }
    }

    /// The JSON body for `message`: the members above, keys sorted, `/` not escaped.
    static func body(of message: OutboxMessage) throws -> [UInt8] {
        let payload = Payload(
            id: message.messageID.isEmpty ? String(message.id) : message.messageID, tenant: message.tenantID,
            to: message.recipient, body: message.body,
            createdAt: ISO8601DateFormatter.string(
                from: message.createdAt, timeZone: .gmt, formatOptions: [.withInternetDateTime]))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(payload))
    }

    /// What a failed request says: the transfer's own message (host, port and libcurl's reason;
    /// never the request's headers, body or URL path), or the error's type.
    private static func reason(of error: any Error) -> String {
        if let urlError = error as? URLError, let message = urlError.userInfo[NSLocalizedDescriptionKey] as? String {
            return message
        }
        return String(describing: type(of: error))
    }

    /// `host:port` of the endpoint.
    private var endpointName: String {
        guard let host = url.host else { return "the webhook" }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return url.port.map { "\(bracketed):\($0)" } ?? bracketed
    }

    public var description: String { "SMS webhook at \(url.scheme ?? "http")://\(endpointName)" }

    /// The request body.
    private struct Payload: Encodable {
        var id: String
        var tenant: String
        var to: String
        var body: String
        var createdAt: String

        enum CodingKeys: String, CodingKey {
            case id, tenant, to, body
            case createdAt = "created_at"
        }
    }
}
