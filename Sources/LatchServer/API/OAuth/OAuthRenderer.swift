import LatchHTTP

/// The one place OAuth 2.0 / OpenID Connect answers (discovery, JWKS, userinfo, revocation) render failures:
/// the RFC 6749 § 5.2 object `{"error","error_description"}`, with RFC 6750 § 3 `WWW-Authenticate`
/// on bearer-token failures. Every error body carries `error`.
struct OAuthRenderer: ErrorRenderer {
    /// The response for a domain failure.
    func render(_ failure: AuthFailure, for request: HTTPRequest) -> HTTPResponse {
        switch failure {
        case .unknownTenant:
            return ErrorObject.response(404, "invalid_tenant", "The tenant does not exist.")
        case .invalidAccessToken:
            return ErrorObject.response(
                401, "invalid_token", "The access token is missing or not valid.",
                headers: HTTPHeaders([("WWW-Authenticate", "Bearer error=\"invalid_token\"")]))
        case .missingParameter(let parameter), .invalidParameter(let parameter):
            return ErrorObject.response(
                400, "invalid_request", "\(NativeAuthRenderer.wireName(of: parameter)) is missing or not valid.")
        case .invalidScope(let message):
            return ErrorObject.response(400, "invalid_scope", message)
        case .unknownClient:
            // RFC 6749 § 5.2: 401 invalid_client; a public client has no scheme to challenge with.
            return ErrorObject.response(401, "invalid_client", "The client is not registered in this tenant.")
        case .unauthorizedClient(let message):
            return ErrorObject.response(400, "unauthorized_client", "The client may not do this: \(message).")
        case .invalidClientAuthentication(let basic):
            // RFC 6749 § 5.2: 401, and a Basic challenge when the client tried Basic.
            return ErrorObject.response(
                401, "invalid_client", ClientCredentials.failureDescription,
                headers: basic ? HTTPHeaders([("WWW-Authenticate", ClientCredentials.challenge(request))]) : HTTPHeaders())
        case .multipleClientAuthentications:
            return ErrorObject.response(400, "invalid_request", ClientCredentials.multipleDescription)
        case .tooManyAttempts(let retryAfter):
            return ErrorObject.response(
                429, "too_many_requests", "Too many requests.",
                headers: HTTPHeaders([("Retry-After", String(max(1, retryAfter)))]))
        default:
            return ErrorObject.response(400, "invalid_request", "The request was refused.")
        }
    }

    /// A bearer request without credentials (RFC 6750 § 3.1: no error code, only the challenge).
    func missingBearer(realm: String) -> HTTPResponse {
        ErrorObject.response(
            401, "invalid_request", "A bearer access token is required.",
            headers: HTTPHeaders([("WWW-Authenticate", "Bearer realm=\"\(realm)\"")]))
    }

    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        if error.status == 503 { return error.addingRetryAfter(to: ErrorObject.response(503, error.code, error.message)) }
        if error.status >= 500 { return serverError(for: request) }
        let code =
            switch error.status {
            case 404: "not_found"
            case 405: "method_not_allowed"
            default: "invalid_request"
            }
        return ErrorObject.response(error.status, code, error.message)
    }

    /// A server-side failure: no detail beyond the request id.
    func serverError(for request: HTTPRequest) -> HTTPResponse {
        ErrorObject.response(500, "server_error", "The server failed to process the request; request id \(request.requestID).")
    }
}
