import LatchHTTP

/// The one place admin answers render failures: `{"error","error_description"}` with the admin
/// realm's bearer challenge on 401 (RFC 6750 § 3).
struct AdminRenderer: ErrorRenderer {
    /// A missing or wrong admin token.
    func unauthorized() -> HTTPResponse {
        ErrorObject.response(
            401, "invalid_token", "An admin bearer token is required.",
            headers: HTTPHeaders([("WWW-Authenticate", "Bearer realm=\"latch-admin\"")]))
    }

    /// The response for a domain failure.
    func render(_ failure: AuthFailure, for request: HTTPRequest) -> HTTPResponse {
        switch failure {
        case .unknownTenant: ErrorObject.response(404, "invalid_tenant", "The tenant does not exist.")
        case .missingParameter(let parameter), .invalidParameter(let parameter):
            ErrorObject.response(400, "invalid_request", "\(NativeAuthRenderer.wireName(of: parameter)) is missing or not valid.")
        default: ErrorObject.response(400, "invalid_request", "The request was refused.")
        }
    }

    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        if error.status >= 500 { return serverError(for: request) }
        return ErrorObject.response(error.status, error.code, error.message)
    }

    /// A server-side failure: only the request id.
    func serverError(for request: HTTPRequest) -> HTTPResponse {
        ErrorObject.response(500, "server_error", "The server failed to process the request; request id \(request.requestID).")
    }
}
