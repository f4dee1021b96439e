internal import CCurl

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An HTTP/1.1 client over libcurl that can trust a certificate-authority file.
///
/// On Linux, Foundation's `URLSession` trusts only the CA bundle its libcurl was built with: it
/// ignores `SSL_CERT_FILE` and `CURL_CA_BUNDLE` and never delivers server-trust challenges, so it
/// cannot reach a server whose certificate a private CA signed (`latchd serve --dev --tls`). This
/// client can: it hands the file to libcurl as CURLOPT_CAINFO(3). Its ``data(for:)`` has the shape
/// of `URLSession.data(for:)`, so it plugs into anything that takes that function, such as the
/// SDK's `HTTPTransport(send:)`:
///
/// ```swift
/// let curl = CurlHTTPClient(certificateAuthorityFile: "/var/lib/latch/dev-ca.pem")
/// let configuration = LatchConfiguration(
///     serverURL: URL(string: "https://127.0.0.1:8443")!, clientID: "latch-dev",
///     transport: HTTPTransport(send: curl.data(for:)))
/// ```
///
/// Each request:
/// - sends the request's method, header fields and `httpBody` as HTTP/1.1
///   (CURLOPT_HTTP_VERSION(3)); `http` and `https` only (CURLOPT_PROTOCOLS_STR(3));
/// - always verifies the server's certificate chain and that it names the host
///   (CURLOPT_SSL_VERIFYPEER(3), CURLOPT_SSL_VERIFYHOST(3)); there is no way to turn that off;
/// - follows no redirects (CURLOPT_FOLLOWLOCATION(3)): a 3xx comes back as the response;
/// - honours libcurl's proxy environment (`https_proxy`, `no_proxy`, …; CURLOPT_PROXY(3));
/// - runs `curl_easy_perform` on a thread of its own, never blocking Swift's cooperative pool;
/// - stops within about a second when its task is cancelled, throwing `URLError(.cancelled)`
///   (CURLOPT_XFERINFOFUNCTION(3)).
///
/// Failures are `URLError`s with the codes `URLSession` uses (see ``curlErrorCodeKey``): refused
/// connection `.cannotConnectToHost`, unknown host `.cannotFindHost`, time limit `.timedOut`, an
/// untrusted certificate `.serverCertificateUntrusted`, other TLS failures
/// `.secureConnectionFailed`. Their description names the host and libcurl's reason, never the
/// request's headers or body.
///
/// Copies share one small pool of libcurl handles, so consecutive requests to a server reuse
/// the connection and its TLS session.
///
/// Related libcurl documentation: libcurl-easy(3), curl_easy_setopt(3), libcurl-errors(3),
/// libcurl-thread(3).
public struct CurlHTTPClient: Sendable {
    /// The `URLError.userInfo` key holding libcurl's `CURLcode` (an `Int`) for a failed transfer.
    public static let curlErrorCodeKey = "LatchCurlErrorCode"

    /// The PEM file of certificate authorities to trust, or `nil` for libcurl's default bundle.
    public let certificateAuthorityFile: String?
    /// The longest a request may take, connecting included; a request's shorter
    /// `timeoutInterval` wins.
    public let timeout: TimeInterval
    private let pool = CurlHandlePool()

    /// Creates a client.
    /// - Parameters:
    ///   - certificateAuthorityFile: A PEM file of certificate authorities (CURLOPT_CAINFO(3)).
    ///     With a Debian-built libcurl the system store in `/etc/ssl/certs` (CURLOPT_CAPATH(3))
    ///     stays trusted as well. `nil` trusts libcurl's default bundle only.
    ///   - timeout: The longest a request may take in all (CURLOPT_TIMEOUT_MS(3)).
    public init(certificateAuthorityFile: String?, timeout: TimeInterval = 60) {
        self.certificateAuthorityFile = certificateAuthorityFile
        self.timeout = timeout
    }

    /// Sends `request` and returns the body and the `HTTPURLResponse`, like
    /// `URLSession.data(for:)`. Any HTTP status is a response, not an error.
    /// - Throws: `URLError` when no response arrives; `URLError(.cancelled)` when the task is
    ///   cancelled.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let prepared = try CurlRequest(request, timeout: timeout)
        let cancellation = CurlCancellation()
        let pool = self.pool
        let certificateAuthorityFile = self.certificateAuthorityFile
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let thread = Thread {
                    continuation.resume(
                        with: Self.perform(
                            prepared, pool: pool, certificateAuthorityFile: certificateAuthorityFile,
                            cancellation: cancellation))
                }
                thread.name = "LatchCurl transfer"
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Sends `request` on the calling thread, which waits for the response or the time limit: for
    /// code that runs on a thread of its own (a server's background worker), never from Swift
    /// concurrency, whose few threads it would hold. The same rules and failures as
    /// ``data(for:)``, without cancellation: ``timeout`` (or the request's shorter
    /// `timeoutInterval`) bounds the wait.
    /// - Throws: `URLError` when no response arrives.
    public func blockingData(for request: URLRequest) throws -> (Data, HTTPURLResponse) {
        let prepared = try CurlRequest(request, timeout: timeout)
        let (body, response) = try Self.perform(
            prepared, pool: pool, certificateAuthorityFile: certificateAuthorityFile, cancellation: CurlCancellation()
        ).get()
        guard let http = response as? HTTPURLResponse else {
            throw CurlFailure.error(.badServerResponse, "The response could not be read", url: prepared.url)
        }
        return (body, http)
    }

    /// Runs one transfer on the calling thread, which it blocks.
    private static func perform(
        _ request: CurlRequest, pool: CurlHandlePool, certificateAuthorityFile: String?, cancellation: CurlCancellation
    ) -> Result<(Data, URLResponse), any Error> {
        guard !cancellation.isCancelled else {
            return .failure(CurlFailure.error(.cancelled, "The request was cancelled", url: request.url))
        }
        guard let handle = pool.take() else {
            let reason = CurlGlobal.isReady ? "libcurl could not make a handle" : "libcurl failed to initialise"
            return .failure(CurlFailure.error(.unknown, reason, url: request.url, curlCode: CurlGlobal.result))
        }
        let collector = CurlResponseCollector(cancellation: cancellation)
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        let code: CURLcode
        do {
            for line in request.headerLines {
                guard let appended = curl_slist_append(headers, line) else {
                    return .failure(CurlFailure.error(.unknown, "libcurl is out of memory", url: request.url))
                }
                headers = appended
            }
            try configure(handle, request, headers: headers, certificateAuthorityFile: certificateAuthorityFile)
            let userData = Unmanaged.passUnretained(collector).toOpaque()
            try handle.set(CURLOPT_WRITEFUNCTION, writeCallback: CurlResponseCollector.writeCallback)
            try handle.set(CURLOPT_WRITEDATA, pointer: userData)
            try handle.set(CURLOPT_HEADERFUNCTION, writeCallback: CurlResponseCollector.headerCallback)
            try handle.set(CURLOPT_HEADERDATA, pointer: userData)
            try handle.set(progressCallback: CurlResponseCollector.progressCallback)
            try handle.set(CURLOPT_XFERINFODATA, pointer: userData)
            try handle.set(CURLOPT_NOPROGRESS, 0)
            code = withExtendedLifetime(collector) { handle.perform() }
        } catch {
            return .failure(CurlFailure.error(.unknown, error.message, url: request.url, curlCode: error.code))
        }
        // The handle goes back to the pool without references to this transfer's memory.
        _ = try? handle.set(CURLOPT_HTTPHEADER, list: nil)
        let detail = handle.errorMessage
        let status = handle.info(CURLINFO_RESPONSE_CODE) ?? 0
        pool.put(handle)
        if code == CURLE_ABORTED_BY_CALLBACK || (code != CURLE_OK && cancellation.isCancelled) {
            return .failure(CurlFailure.error(.cancelled, "The request was cancelled", url: request.url))
        }
        guard code == CURLE_OK else { return .failure(CurlFailure.error(code, detail: detail, url: request.url)) }
        guard
            let response = HTTPURLResponse(
                url: request.url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: collector.headerDictionary)
        else {
            return .failure(CurlFailure.error(.badServerResponse, "The response could not be read", url: request.url))
        }
        return .success((collector.body, response))
    }

    /// Sets the options of one request on a freshly reset handle.
    private static func configure(
        _ handle: CurlEasyHandle, _ request: CurlRequest, headers: UnsafeMutablePointer<curl_slist>?,
        certificateAuthorityFile: String?
    ) throws(CurlSetupError) {
        try handle.set(CURLOPT_URL, request.url.absoluteString)
        try handle.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try handle.set(CURLOPT_NOSIGNAL, 1)
        try handle.set(CURLOPT_FOLLOWLOCATION, 0)
        try handle.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        try handle.set(CURLOPT_SSL_VERIFYPEER, 1)
        try handle.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let certificateAuthorityFile { try handle.set(CURLOPT_CAINFO, certificateAuthorityFile) }
        try handle.set(CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds)
        try handle.set(CURLOPT_HTTPHEADER, list: headers)
        switch (request.method, request.body) {
        case ("HEAD", _):
            try handle.set(CURLOPT_NOBODY, 1)
        case (let method, let body?):
            try handle.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            // CURLOPT_COPYPOSTFIELDS(3): libcurl copies POSTFIELDSIZE bytes, so they need not
            // outlive this call. The pointer must not be NULL even for an empty body: libcurl
            // would then read the body from its default read function (standard input).
            var bytes = [UInt8](body)
            if bytes.isEmpty { bytes = [0] }
            let copied = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(CurlSetupError) in try handle.set(CURLOPT_COPYPOSTFIELDS, pointer: buffer.baseAddress) }
            }
            try copied.get()
            if method != "POST" { try handle.set(CURLOPT_CUSTOMREQUEST, method) }
        case ("GET", nil):
            try handle.set(CURLOPT_HTTPGET, 1)
        case (let method, nil):
            try handle.set(CURLOPT_CUSTOMREQUEST, method)
        }
    }
}
