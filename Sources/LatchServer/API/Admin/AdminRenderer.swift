import LatchHTTP

/// The one place admin answers render failures: `{"error","error_description"}` with the admin
/// realm's bearer challenge on 401 and 403 (RFC 6750 § 3).
struct AdminRenderer: ErrorRenderer {
    /// A missing or wrong admin token: 401. The challenge names `invalid_token` only when a token
    /// was presented; a request without one gets no error code (RFC 6750 § 3.1).
    func unauthorized(tokenPresented: Bool) -> HTTPResponse {
        let challenge = "Bearer realm=\"latch-admin\"" + (tokenPresented ? ", error=\"invalid_token\"" : "")
        return ErrorObject.response(
            401, "invalid_token", "An admin bearer token is required.",
            headers: HTTPHeaders([("WWW-Authenticate", challenge)]))
    }

    /// A valid admin token scoped to another tenant: 403 `insufficient_scope` (RFC 6750 § 3.1). The
    /// same answer whether or not the tenant in the path exists.
    func insufficientScope() -> HTTPResponse {
        ErrorObject.response(
            403, "insufficient_scope", "The admin token does not open this tenant's admin endpoints.",
            headers: HTTPHeaders([("WWW-Authenticate", "Bearer realm=\"latch-admin\", error=\"insufficient_scope\"")]))
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
        if error.status == 503 { return error.addingRetryAfter(to: ErrorObject.response(503, error.code, error.message)) }
        if error.status >= 500 { return serverError(for: request) }
        return ErrorObject.response(error.status, error.code, error.message)
    }

    /// A server-side failure: only the request id.
    func serverError(for request: HTTPRequest) -> HTTPResponse {
        ErrorObject.response(500, "server_error", "The server failed to process the request; request id \(request.requestID).")
    }
}
