import Foundation
import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET {server}/{tenant}/me/authentication-methods` with a bearer access token: the signed-in
/// user's strong authentication methods, contacts masked by the server (RFC 6750 § 2.1 for the
/// header). Sent through the SDK client's transport, so `--ca-file` applies.
struct AuthMethodsRequest: Sendable {
    /// One method as the server lists it.
    struct Method: Decodable, Sendable {
        /// The server's id of the method (what `--mfa-method` takes).
        let id: String
        /// `email` or `sms`.
        let challengeChannel: String
        /// The masked contact.
        let loginHint: String
        /// Whether the contact was verified.
        let verified: Bool
        /// When it was registered (RFC 3339).
        let createdAt: String
    }

    private struct Reply: Decodable {
        let methods: [Method]
    }

    /// Server, tenant and CA settings.
    let settings: ClientSettings
    /// How requests are sent.
    let transport: HTTPTransport

    /// The methods of the user `accessToken` belongs to.
    /// - Throws: ``LatchError`` — ``LatchError/Code/interactionRequired`` when the server refuses
    ///   the token (401), ``LatchError/Code/networkError``, ``LatchError/Code/serverError`` (5xx),
    ///   ``LatchError/Code/tooManyRequests`` (429), ``LatchError/Code/unexpectedResponse`` otherwise.
    func methods(accessToken: String) async throws -> [Method] {
        let url = settings.serverURL.appendingPathComponent(settings.tenant)
            .appendingPathComponent("me/authentication-methods")
        let correlationID = UUID().uuidString.lowercased()
        var request = URLRequest(url: url)
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(correlationID, forHTTPHeaderField: "client-request-id")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch {
            throw LatchError(
                code: .networkError, message: "The network request failed: \(error.localizedDescription)",
                underlyingError: error, correlationID: correlationID)
        }
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        switch status {
        case 200:
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            do {
                return try decoder.decode(Reply.self, from: data).methods
            } catch {
                throw LatchError(
                    code: .unexpectedResponse, message: "The server's list of methods could not be read.",
                    underlyingError: error, correlationID: correlationID, httpStatus: status)
            }
        case 401:
            throw LatchError(
                code: .interactionRequired, message: "The server refused the access token; sign in again.",
                correlationID: correlationID, httpStatus: status)
        case 429:
            let retryAfter = (http?.value(forHTTPHeaderField: "Retry-After")).flatMap(TimeInterval.init)
            throw LatchError(
                code: .tooManyRequests, message: "The server is limiting requests.", retryAfter: retryAfter,
                correlationID: correlationID, httpStatus: status)
        case 500...:
            throw LatchError(
                code: .serverError, message: "The server failed.", correlationID: correlationID, httpStatus: status)
        default:
            throw LatchError(
                code: .unexpectedResponse, message: "The server answered HTTP \(status) to the list of methods.",
                correlationID: correlationID, httpStatus: status)
        }
    }
}
