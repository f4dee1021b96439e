import Foundation
internal import LatchWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends native-auth requests (form POSTs under `/{tenant}/`), applies the retry policy, and turns
/// every failure into a ``LatchError`` through ``ServerErrorMapping``.
struct NativeAuthChannel: Sendable {
    /// Whether a request may be sent twice without effect beyond the first.
    enum Repeatability {
        /// Repeating it has no effect the user could notice (starting a flow, polling).
        case repeatable
        /// It changes state or sends a message (a code, a password, a refresh): re-sent only when
        /// the failure proves the server did not process it.
        case stateChanging
    }

    let configuration: LatchConfiguration

    /// POSTs `form` (plus `client_id`) to `/{tenant}/{path}`, with `correlationID` as its
    /// `client-request-id`, and logs each attempt at debug level (path, status, duration, attempt;
    /// never the form, which holds secrets).
    /// - Throws: ``LatchError``; a `redirect` answer is ``LatchError/Code/browserRequired``.
    /// - Parameter retries: `false` sends once whatever the retry policy says.
    func post(
        _ path: String, _ form: [String: String?], _ repeatability: Repeatability, correlationID: String,
        retries: Bool = true
    ) async throws -> NativeAuthReply {
        let request = makeRequest(path, form, correlationID: correlationID)
        let logPath = request.url?.path ?? path
        let logger = configuration.logger
        let context = ServerErrorMapping.Answer(
            status: 0, correlationID: correlationID, path: path, grantType: form["grant_type"] ?? nil)
        var attempt = 1
        while true {
            if Task.isCancelled { throw ServerErrorMapping.cancelled(nil, correlationID: correlationID) }
            // Asked on every attempt, so evidence that is good for one request (a nonce) stays fresh.
            let sent = try await withAppHeaders(request, correlationID: correlationID)
            let started = ContinuousClock.now
            let outcome = await send(sent, context: context)
            let milliseconds = Self.milliseconds(since: started)
            switch outcome {
            case .success(let (reply, status)):
                logger.log(
                    .debug,
                    "request POST \(logPath) status=\(status) duration_ms=\(milliseconds) attempt=\(attempt) "
                        + "correlation_id=\(correlationID)")
                return reply
            case .failure(let failure):
                let status = failure.error.httpStatus.map { "status=\($0)" } ?? "status=none"
                logger.log(
                    .debug,
                    "request POST \(logPath) \(status) error=\(failure.error.code.name) duration_ms=\(milliseconds) "
                        + "attempt=\(attempt) correlation_id=\(correlationID)")
                if retries, failure.retryable(repeatability),
                    let delay = configuration.retryPolicy.delay(after: attempt, retryAfter: failure.error.retryAfter)
                {
                    logger.log(
                        .info,
                        "retry POST \(logPath) after=\(String(format: "%.2f", delay))s attempt=\(attempt + 1) "
                            + "reason=\(failure.error.code.name) correlation_id=\(correlationID)")
                    do {
                        try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
                    } catch {
                        throw ServerErrorMapping.cancelled(error, correlationID: correlationID)
                    }
                    attempt += 1
                    continue
                }
                throw failure.error
            }
        }
    }

    /// Whole milliseconds since `start`.
    private static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }

    /// A failed attempt and what is known about whether the server processed it.
    private struct Failure: Error {
        let error: LatchError
        /// The server certainly did not process the request (no connection, or 429/503).
        let notProcessed: Bool
        /// Trying again cannot help: the server's certificate is not trusted.
        var permanent = false

        func retryable(_ repeatability: Repeatability) -> Bool {
            guard error.isRetryable, !permanent else { return false }
            return notProcessed || repeatability == .repeatable
        }
    }

    /// `request` with the headers of ``LatchConfiguration/requestHeaders`` added; the SDK's own
    /// headers (`Content-Type`, `Accept`, `client-request-id`, …) are not replaced.
    /// - Throws: what the provider throws, as a ``LatchError`` (``LatchError/Code/internal`` for
    ///   any other error); the request is not sent.
    func withAppHeaders(_ request: URLRequest, correlationID: String) async throws -> URLRequest {
        let headers: [String: String]
        do {
            headers = try await configuration.requestHeaders()
        } catch let error as LatchError {
            throw error.correlated(with: correlationID)
        } catch {
            if ServerErrorMapping.isCancellation(error) {
                throw ServerErrorMapping.cancelled(error, correlationID: correlationID)
            }
            throw LatchError(
                code: .internal, message: "The app's requestHeaders provider failed: \(error)", underlyingError: error,
                correlationID: correlationID)
        }
        guard !headers.isEmpty else { return request }
        var request = request
        for (name, value) in headers where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    private func send(_ request: URLRequest, context: ServerErrorMapping.Answer) async -> Result<(NativeAuthReply, Int), Failure>
    {
        let correlationID = context.correlationID ?? ""
        let data: Data
        let response: URLResponse
        do {
            // Raced against cancellation, so a transport that ignores it cannot hold a cancelled call.
            let transport = configuration.transport
            let exchange = Task { try await transport.send(request) }
            (data, response) = try await CancellationRace.value(of: exchange, cancelsTask: true)
        } catch {
            if ServerErrorMapping.isCancellation(error) {
                let cancelled = ServerErrorMapping.cancelled(error, correlationID: correlationID)
                return .failure(Failure(error: cancelled, notProcessed: false, permanent: true))
            }
            let preSend: Set<URLError.Code> = [
                .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .notConnectedToInternet,
            ]
            let notProcessed = (error as? URLError).map { preSend.contains($0.code) } ?? false
            let mapped = ServerErrorMapping.network(error, correlationID: correlationID)
            let trust: Set<URLError.Code> = [
                .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
                .serverCertificateHasUnknownRoot,
            ]
            let permanent = (mapped.underlyingError as? URLError).map { trust.contains($0.code) } ?? false
            return .failure(Failure(error: mapped, notProcessed: notProcessed, permanent: permanent))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(
                Failure(error: ServerErrorMapping.unexpected(status: 0, correlationID: correlationID), notProcessed: false))
        }
        let status = http.statusCode
        let retryAfter = RetryPolicy.parseRetryAfter(http.value(forHTTPHeaderField: "Retry-After"), now: configuration.clock())
        var answer = context
        answer.status = status
        answer.retryAfter = retryAfter
        if (200..<300).contains(status) {
            // An empty body is the whole answer of endpoints that return nothing (revocation,
            // RFC 7009 § 2.2); callers that need members check for them.
            if data.isEmpty { return .success((NativeAuthReply(), status)) }
            guard let reply = try? JSONDecoder().decode(NativeAuthReply.self, from: data) else {
                return .failure(
                    Failure(
                        error: ServerErrorMapping.unexpected(status: status, correlationID: correlationID), notProcessed: false))
            }
            if reply.challengeType == ChallengeType.redirect.rawValue {
                return .failure(
                    Failure(
                        error: ServerErrorMapping.browserRequired(reason: reply.redirectReason, correlationID: correlationID),
                        notProcessed: false))
            }
            return .success((reply, status))
        }
        let notProcessed = status == 429 || status == 503
        let error: LatchError
        if let envelope = try? JSONDecoder().decode(NativeAuthErrorResponse.self, from: data) {
            error = ServerErrorMapping.error(from: envelope, answer: answer)
        } else {
            error = ServerErrorMapping.unexpected(status: status, correlationID: correlationID, retryAfter: retryAfter)
        }
        return .failure(Failure(error: error, notProcessed: notProcessed))
    }

    private func makeRequest(_ path: String, _ form: [String: String?], correlationID: String) -> URLRequest {
        let url = configuration.serverURL.appendingPathComponent(configuration.tenant).appendingPathComponent(path)
        var request = Self.post(url, contentType: "application/x-www-form-urlencoded", correlationID: correlationID)
        request.setValue("true", forHTTPHeaderField: "return-client-request-id")
        var fields = form.compactMapValues { $0 }
        fields["client_id"] = configuration.clientID
        request.httpBody = Data(FormEncoding.encode(fields).utf8)
        return request
    }

    /// A `POST` to `url` with the headers every SDK request carries: `Content-Type`, `Accept:
    /// application/json`, the correlation id as `client-request-id`, `x-client-SKU`, and a 30 s
    /// timeout. Shared with the Firebase-style channel.
    static func post(_ url: URL, contentType: String, correlationID: String) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(correlationID, forHTTPHeaderField: "client-request-id")
        request.setValue("Latch.Swift", forHTTPHeaderField: "x-client-SKU")
        request.timeoutInterval = 30
        return request
    }
}

/// `application/x-www-form-urlencoded` serialisation (WHATWG URL standard).
enum FormEncoding {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._*")
        return set
    }()

    static func encode(_ fields: [String: String]) -> String {
        fields.sorted { $0.key < $1.key }.map { "\(escape($0.key))=\(escape($0.value))" }.joined(separator: "&")
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == " " {
                out += "+"
            } else if scalar.isASCII, unreserved.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { out += String(format: "%%%02X", byte) }
            }
        }
        return out
    }
}
