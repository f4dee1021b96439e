import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends the Firebase-style API's requests: JSON `POST`s to Identity Toolkit v1
/// (`{server}/identitytoolkit.googleapis.com/v1/accounts:{method}?key=…`) and to securetoken
/// (`{server}/securetoken.googleapis.com/v1/token?key=…`), under the Latch server's origin, and maps
/// every failure through ``FirebaseErrorMapping``. Requests are sent once: only the caller knows
/// whether repeating one is harmless.
struct FirebaseChannel: Sendable {
    let configuration: LatchConfiguration

    /// POSTs `body` to `accounts:{method}` and decodes the answer.
    func accounts<Reply: Decodable>(_ method: String, _ body: [String: any Sendable], as: Reply.Type) async throws -> Reply {
        try await post("identitytoolkit.googleapis.com/v1/accounts:\(method)", body, as: Reply.self)
    }

    /// Refreshes at securetoken (JSON `{"grantType":"refresh_token","refreshToken":…}`), as a token
    /// response the token manager applies: the new ID token is both access and ID token.
    func refresh(_ refreshToken: String, correlationID: String) async throws -> NativeAuthReply {
        let reply = try await post(
            "securetoken.googleapis.com/v1/token", ["grantType": "refresh_token", "refreshToken": refreshToken],
            as: FirebaseWire.SecureTokenReply.self, correlationID: correlationID)
        guard let token = reply.accessToken ?? reply.idToken, !token.isEmpty else {
            throw LatchError(
                code: .internalError, message: "The refresh answer lacks access_token.", correlationID: correlationID)
        }
        var native = NativeAuthReply()
        native.accessToken = token
        native.idToken = reply.idToken ?? token
        native.refreshToken = reply.refreshToken
        native.expiresIn = reply.expiresIn.flatMap { Int($0) }
        native.tokenType = "Bearer"
        return native
    }

    private func post<Reply: Decodable>(
        _ path: String, _ body: [String: any Sendable], as: Reply.Type, correlationID: String = UUID().correlationValue
    ) async throws -> Reply {
        guard let key = configuration.apiKey, !key.isEmpty else {
            throw LatchError(
                code: .invalidAPIKey, message: "No API key is configured; set LatchConfiguration.apiKey (or api_key).",
                correlationID: correlationID)
        }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        let escaped = key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key
        guard let url = URL(string: "\(configuration.serverKey)/\(path)?key=\(escaped)") else {
            throw LatchError(code: .invalidConfiguration, message: "The server URL cannot hold \(path).")
        }
        var request = NativeAuthChannel.post(url, contentType: "application/json", correlationID: correlationID)
        request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        // The app's headers (protection-policy evidence), asked for as for native requests.
        request = try await NativeAuthChannel(configuration: configuration).withAppHeaders(
            request, correlationID: correlationID)
        let data: Data
        let response: URLResponse
        do {
            let transport = configuration.transport
            let sent = request
            let exchange = Task { try await transport.send(sent) }
            (data, response) = try await CancellationRace.value(of: exchange, cancelsTask: true)
        } catch {
            if ServerErrorMapping.isCancellation(error) {
                throw ServerErrorMapping.cancelled(error, correlationID: correlationID)
            }
            throw ServerErrorMapping.network(error, correlationID: correlationID)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        configuration.logger.log(.debug, "request POST /\(path) status=\(status) correlation_id=\(correlationID)")
        guard (200..<300).contains(status) else {
            throw FirebaseErrorMapping.error(status: status, body: data, correlationID: correlationID)
        }
        do {
            return try JSONDecoder().decode(Reply.self, from: data.isEmpty ? Data("{}".utf8) : data)
        } catch {
            throw LatchError(
                code: .internalError, message: "The server's answer to /\(path) could not be decoded.",
                underlyingError: error, correlationID: correlationID, httpStatus: status)
        }
    }
}
