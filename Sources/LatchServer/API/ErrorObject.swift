import LatchHTTP

/// The RFC 6749 § 5.2 error object `{"error","error_description"}`, which the OAuth and admin
/// renderers both answer with.
enum ErrorObject {
    /// A JSON error response with `status`, plus `headers` (e.g. `WWW-Authenticate`, `Retry-After`).
    static func response(_ status: Int, _ code: String, _ description: String, headers: HTTPHeaders = HTTPHeaders())
        -> HTTPResponse
    {
        var response = HTTPError(status: status, code: code, message: description).response
        for field in headers { response.headers.set(field.name, field.value) }
        return response
    }
}
