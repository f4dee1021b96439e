import LatchHTTP

/// The one place admin answers render failures: `{"error","error_description"}` with the admin
/// realm's bearer challenge on 401 (RFC 6750 § 3).
struct AdminRenderer: ErrorRenderer {
    /// A missing or wrong admin token.
    func unauthorized() -> HTTPResponse {
        Self.error(
            401, "invalid_token", "An admin bearer token is required.",
            headers: HTTPHeaders([("WWW-Authenticate", "Bearer realm=\"latch-admin\"")]))
    }

    /// The response for a domain failure.
    func render(_ failure: AuthFailure, for request: HTTPRequest) -> HTTPResponse {
        switch failure {
        case .unknownTenant: Self.error(404, "invalid_tenant", "The tenant does not exist.")
        case .missingParameter(let parameter), .invalidParameter(let parameter):
            Self.error(400, "invalid_request", "\(NativeAuthRenderer.wireName(of: parameter)) is missing or not valid.")
        default: Self.error(400, "invalid_request", "The request was refused.")
        }
    }

    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        if error.status >= 500 { return serverError(for: request) }
        return Self.error(error.status, error.code, error.message)
    }

    /// A server-side failure: only the request id.
    func serverError(for request: HTTPRequest) -> HTTPResponse {
        Self.error(500, "server_error", "The server failed to process the request; request id \(request.requestID).")
    }

    private static func error(_ status: Int, _ code: String, _ description: String, headers: HTTPHeaders = HTTPHeaders())
        -> HTTPResponse
    {
        var response = HTTPError(status: status, code: code, message: description).response
        for field in headers { response.headers.set(field.name, field.value) }
        return response
    }
}
