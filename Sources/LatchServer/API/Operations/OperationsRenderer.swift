import LatchHTTP

/// The one place operations endpoints (`/healthz`, `/readyz`, `/metrics`) render failures: a
/// small `{"status","error"}` object that probes and people read alike.
struct OperationsRenderer: ErrorRenderer {
    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        error.addingRetryAfter(
            to: .json(
                error.status, JSONBody.object(["status": "error", "error": error.code, "error_description": error.message])))
    }
}
