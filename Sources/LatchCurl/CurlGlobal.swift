internal import CCurl

/// libcurl's process-wide setup, done once before the first handle is made.
///
/// `curl_global_init(CURL_GLOBAL_DEFAULT)` initialises the TLS library and the resolver; it must
/// run before any `curl_easy_init` and, before libcurl 7.84, must not race another thread. A
/// Swift `static let` is initialised exactly once, thread-safely, on first use, so every path
/// that makes a handle reads ``result`` first. libcurl counts the calls, so sharing the process
/// with other libcurl users (FoundationNetworking's `URLSession`) is fine; nothing here calls
/// `curl_global_cleanup`.
///
/// Related libcurl documentation: curl_global_init(3), libcurl-thread(3).
enum CurlGlobal {
    /// The outcome of the one `curl_global_init` call.
    static let result: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Whether libcurl is ready to make handles.
    static var isReady: Bool { result == CURLE_OK }
}
