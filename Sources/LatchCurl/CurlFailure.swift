internal import CCurl
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a failed transfer becomes the `URLError` Foundation's `URLSession` would throw, so code
/// written against `URLSession` (the SDK's retry rules, `NSURLErrorDomain` checks) needs no change.
///
/// | libcurl result (libcurl-errors(3)) | `URLError.Code` |
/// |---|---|
/// | CURLE_COULDNT_CONNECT (refused, unreachable) | `.cannotConnectToHost` (-1004) |
/// | CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY | `.cannotFindHost` (-1003) |
/// | CURLE_OPERATION_TIMEDOUT | `.timedOut` (-1001) |
/// | CURLE_PEER_FAILED_VERIFICATION (= CURLE_SSL_CACERT), CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS | `.serverCertificateUntrusted` (-1202) |
/// | CURLE_SSL_CERTPROBLEM | `.clientCertificateRejected` (-1205) |
/// | other TLS failures (CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CIPHER, CURLE_USE_SSL_FAILED, …) | `.secureConnectionFailed` (-1200) |
/// | CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE | `.networkConnectionLost` (-1005) |
/// | CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING | `.badServerResponse` (-1011) |
/// | CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT | `.unsupportedURL` (-1002), `.badURL` (-1000) |
/// | CURLE_ABORTED_BY_CALLBACK after cancellation | `.cancelled` (-999) |
/// | anything else | `.unknown` (-1) |
///
/// The message names the host and libcurl's own explanation (CURLOPT_ERRORBUFFER(3)); it never
/// holds the request's headers or body.
enum CurlFailure {
    /// The `URLError` code for `code`.
    static func urlErrorCode(for code: CURLcode) -> URLError.Code {
        switch code {
        case CURLE_COULDNT_CONNECT: .cannotConnectToHost
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .cannotFindHost
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            .serverCertificateUntrusted
        case CURLE_SSL_CERTPROBLEM: .clientCertificateRejected
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CIPHER,
            CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CLIENTCERT:
            .secureConnectionFailed
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE: .networkConnectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING: .badServerResponse
        case CURLE_UNSUPPORTED_PROTOCOL: .unsupportedURL
        case CURLE_URL_MALFORMAT: .badURL
        case CURLE_ABORTED_BY_CALLBACK: .cancelled
        default: .unknown
        }
    }

    /// The error for a transfer to `url` that ended with `code`; `detail` is libcurl's message.
    static func error(_ code: CURLcode, detail: String, url: URL) -> URLError {
        let urlCode = urlErrorCode(for: code)
        let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        return error(
            urlCode, "\(summary(urlCode, server: server(of: url))): \(reason) (libcurl error \(code.rawValue))", url: url,
            curlCode: code)
    }

    /// An error LatchCurl raises itself, before or around a transfer.
    static func error(_ code: URLError.Code, _ message: String, url: URL?, curlCode: CURLcode? = nil) -> URLError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url { userInfo[NSURLErrorFailingURLErrorKey] = url }
        if let curlCode { userInfo[CurlHTTPClient.curlErrorCodeKey] = Int(curlCode.rawValue) }
        return URLError(code, userInfo: userInfo)
    }

    /// `host:port` of `url` (IPv6 literals bracketed), never its path or query.
    static func server(of url: URL) -> String {
        guard var host = url.host else { return "the server" }
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    private static func summary(_ code: URLError.Code, server: String) -> String {
        switch code {
        case .cannotConnectToHost: "Could not connect to \(server)"
        case .cannotFindHost: "Could not find the host of \(server)"
        case .timedOut: "The request to \(server) timed out"
        case .serverCertificateUntrusted: "The TLS certificate of \(server) is not trusted"
        case .clientCertificateRejected: "The client certificate for \(server) could not be used"
        case .secureConnectionFailed: "A secure (TLS) connection to \(server) could not be made"
        case .networkConnectionLost: "The connection to \(server) was lost"
        case .badServerResponse: "The answer of \(server) is not valid HTTP"
        case .cancelled: "The request to \(server) was cancelled"
        default: "The request to \(server) failed"
        }
    }
}
