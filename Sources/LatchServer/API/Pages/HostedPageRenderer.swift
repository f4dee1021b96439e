import LatchHTTP

/// The one place the hosted pages' protocol-level failures (404, 405, 413, 431, 5xx) are
/// rendered: a small HTML page in English (the request's language is not known yet), with the
/// pages' security headers.
struct HostedPageRenderer: ErrorRenderer {
    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        let message =
            error.status == 503
            ? error.message : error.status >= 500 ? "The server failed; request id \(request.requestID)." : error.message
        let html = """
            <!DOCTYPE html>
            <html lang="en" dir="ltr"><head><meta charset="utf-8"><title>Error \(error.status)</title></head>
            <body><main><h1>Something went wrong</h1><p>\(HTML.escape(message))</p></main></body></html>

            """
        var headers = HostedPage.securityHeaders(formTargets: [])
        headers.add("Content-Type", "text/html; charset=utf-8")
        return error.addingRetryAfter(to: HTTPResponse(status: error.status, headers: headers, body: Array(html.utf8)))
    }
}
