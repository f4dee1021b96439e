internal import CMicroHTTPD
internal import LatchLocking

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// The libmicrohttpd callbacks and the request life cycle they drive. Part of the private
/// libmicrohttpd wrapper.
///
/// libmicrohttpd calls, on the worker thread that owns the connection (libmicrohttpd manual,
/// "Implementing external URL handlers"):
/// 0. the connection callback, when the connection is accepted: a ``ConnectionState`` with the
///    deadline of its first request is kept in the socket context and registered in
///    ``ConnectionRegistry``, whose thread shuts down the socket of any request still arriving at
///    its deadline (``HTTPServerConfiguration/headerTimeoutSeconds``);
/// 1. the URI log callback, once the request line is read: a ``RequestContext`` is created,
///    retained in `*req_cls`, and counted in flight; a later request on a kept-alive connection
///    gets its deadline here;
/// 2. the access handler with `*upload_data_size == 0`: the head is checked (framing by
///    ``RequestFraming``, refused at once with the connection closed; 431; 413 by
///    `Content-Length`);
/// 3. the access handler with body chunks: appended, or counted and dropped once refused;
/// 4. the access handler with `*upload_data_size == 0` again: the request has arrived, so its
///    deadline is lifted; the responder runs, or the refusal is rendered, and the response is queued;
/// 5. the request-completed callback (always, because the URI callback made the request
///    "client aware"): the context is released and the in-flight count drops; an abnormal
///    termination is counted in ``AbnormalEndingLog``, a normal one sets the deadline of the
///    connection's next request (the idle timeout plus the header timeout);
/// 6. the connection callback again when the connection closes: its state is released.
///
/// Refusals and lingering close (RFC 9112 §9.6). libmicrohttpd 0.9.75 accepts a response only in
/// step 2 or step 4. Queued in step 2 for a request with a body, it closes the connection right
/// after the response, and closing a socket whose receive queue still holds body bytes makes the
/// kernel send a reset: a client still writing its body (Python's `urllib` writes all of it before
/// reading) then sees a broken pipe, never the 413. So a refusal decided in step 2 is sent at once
/// only when no body will follow (none declared, or `Expect: 100-continue` unanswered) or the
/// declared body is larger than ``HTTPServerConfiguration/maxDiscardedBodyBytes``. Otherwise the
/// request enters ``RequestContext/Stage/discardingBody(refusal:deadline:)``: step 3 drops the
/// bytes, and step 4 sends the refusal on a connection whose framing is intact, so it stays open.
/// A body over the limit found while streaming (chunked, RFC 9112 §7.1) enters the same stage.
/// Discarding is bounded: past `maxDiscardedBodyBytes` dropped bytes, or a chunk arriving after
/// the ``HTTPServerConfiguration/discardTimeoutSeconds`` deadline, the connection is closed; a
/// client that stops sending meets the idle timeout.
///
/// The callbacks are closures without captures in a non-main file, so they are nonisolated C
/// function pointers; they never trap on any input (lossy UTF-8, checked arithmetic, no force
/// unwraps) and turn impossible states into closing the connection.
enum MHDRequestHandler {
    static let uriLog:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            cls, uri, connection in
            guard let cls else { return nil }
            return Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
                let state = connection.flatMap { MHDConnection(handle: $0).state() }
                if core.requestDeadline > 0 { state?.expectRequest(within: core.requestDeadline) }
                let context = RequestContext(target: uri.map { String(cString: $0) } ?? "/", connection: state)
                _ = core.inFlight.add(1)
                return Unmanaged.passRetained(context).toOpaque()
            }
        }

    static let completed: MHD_RequestCompletedCallback = { cls, _, slot, code in
        guard let cls, let slot, let raw = slot.pointee else { return }
        slot.pointee = nil
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
            _ = core.inFlight.subtract(1)
            MHDRequestHandler.ended(context, code: code, core: core)
        }
    }

    static let access: MHD_AccessHandlerCallback = { cls, connection, _, method, version, uploadData, uploadSize, slot in
        guard let cls, let connection, let slot else { return MHD_Result.NO }
        return Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
            MHDRequestHandler.handle(
                core: core, connection: MHDConnection(handle: connection), method: method, version: version,
                uploadData: uploadData, uploadSize: uploadSize, slot: slot)
        }
    }

    /// Whether the route of the request accepts a body of `size` bytes, past the server's limit:
    /// asked of the responder only then, so a request within the server's limit (nearly all)
    /// costs no route lookup. Raises ``RequestContext/bodyLimit`` to the route's limit, once.
    private static func raiseBodyLimit(core: ServerCore, context: RequestContext, to size: Int) -> Bool {
        if !context.bodyLimitResolved {
            context.bodyLimitResolved = true
            let path = PercentEncoding.decodeLossy(HTTPRequest.splitTarget(context.target).path, plusAsSpace: false)
            if let limit = core.responder.maximumBodyBytes(method: context.method, path: path) {
                context.bodyLimit = max(limit, core.maxBodyBytes)
            }
        }
        return size <= context.bodyLimit
    }

    /// libmicrohttpd's diagnostics. While the daemon starts they are logged and kept for the
    /// error ``MHDDaemon`` may throw; afterwards most are about one connection (a reset, a
    /// connection turned away at a limit), so ``AbnormalEndingLog`` shows each kind once per
    /// window and counts the rest.
    static let logger: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let line = buffer.withUnsafeBufferPointer { pointer in
            pointer.baseAddress.map { String(cString: $0) } ?? ""
        }
        Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
            let text = "libmicrohttpd: " + line.replacingNewlines().trimmingASCIISpaces()
            let isStarting = core.startupLog.withLock { log in
                log?.append(String(text.dropFirst("libmicrohttpd: ".count)))
                return log != nil
            }
            if isStarting {
                core.errorLog(text)
            } else {
                core.endings.libmicrohttpdMessage(format: String(cString: format), line: text)
            }
        }
    }

    /// A connection was accepted or closed: its ``ConnectionState`` is created, with the deadline
    /// of its first request, kept in the socket context and registered, or released.
    static let connectionNotice: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
        guard let cls, let socketContext else { return }
        Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
            switch code {
            case .CONNECTION_NOTIFY_STARTED:
                _ = core.openConnections.add(1)
                let descriptor = connection.map { MHDConnection(handle: $0).descriptor() } ?? -1
                let deadline =
                    core.requestDeadline > 0 && descriptor >= 0
                    ? MonotonicClock.milliseconds() + core.requestDeadline : ConnectionState.noDeadline
                let state = ConnectionState(descriptor: descriptor, deadline: deadline)
                core.connections.insert(state)
                socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
            case .CONNECTION_NOTIFY_CLOSED:
                // libmicrohttpd may report a connection it failed to set up as closed without
                // having reported it started.
                guard let raw = socketContext.pointee else { return }
                socketContext.pointee = nil
                let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
                core.connections.remove(state)
                _ = core.openConnections.subtract(1)
            @unknown default: break
            }
        }
    }

    /// Counts a request that ended abnormally, or sets the deadline of the next one on its connection.
    private static func ended(_ context: RequestContext, code: MHD_RequestTerminationCode, core: ServerCore) {
        let reason: ConnectionEnding
        switch code {
        case .REQUEST_TERMINATED_COMPLETED_OK:
            if core.requestDeadline > 0 { context.connection?.expectNextRequest(within: core.nextRequestDeadline) }
            return
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: return
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: reason = .timeout
        case .REQUEST_TERMINATED_CLIENT_ABORT, .REQUEST_TERMINATED_READ_ERROR: reason = .clientAbort
        case .REQUEST_TERMINATED_WITH_ERROR: reason = .error
        @unknown default: reason = .error
        }
        // A connection cut off at its deadline was counted then, as a header timeout.
        guard context.connection?.isExpired != true else { return }
        core.endings.record(context.abnormalEnding ?? reason)
    }

    // MARK: - Life cycle

    private static func handle(
        core: ServerCore, connection: MHDConnection, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = slot.pointee else { return MHD_Result.NO }  // the URI callback always sets it
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        let size = uploadSize?.pointee ?? 0
        switch context.stage {
        case .started:
            return begin(core: core, connection: connection, context: context, method: method, version: version)
        case .receivingBody:
            guard size > 0, let uploadData, let uploadSize else {
                return finish(core: core, connection: connection, context: context)
            }
            uploadSize.pointee = 0
            if context.body.count + size > context.bodyLimit,
                !raiseBodyLimit(core: core, context: context, to: context.body.count + size)
            {
                // libmicrohttpd 0.9.75 refuses to queue a response while the body is still being
                // received, so the 413 goes out when the body ends (or the connection is closed).
                context.discardedBytes = context.body.count
                context.body = []
                startDiscarding(HTTPError.payloadTooLarge(limit: context.bodyLimit), core: core, context: context)
                return discard(size, core: core, context: context)
            }
            context.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            return MHD_Result.YES
        case .discardingBody(let refusal, _):
            guard size > 0, let uploadSize else {
                return respondOrClose(
                    refused(refusal, core: core, connection: connection, context: context), core: core,
                    connection: connection, context: context)
            }
            uploadSize.pointee = 0
            return discard(size, core: core, context: context)
        case .answering:
            // Resumed: the blocking-request thread left the response in the context.
            guard let response = context.readyResponse else { return MHD_Result.NO }
            context.readyResponse = nil
            return respondOrClose(response, core: core, connection: connection, context: context)
        case .responded:
            uploadSize?.pointee = 0
            return MHD_Result.YES
        }
    }

    /// First call: the head is complete. Checks the framing, head size and declared body size.
    private static func begin(
        core: ServerCore, connection: MHDConnection, context: RequestContext, method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?
    ) -> MHD_Result {
        context.method = method.map { String(cString: $0) } ?? "GET"
        let headSize = connection.collectHeaders(into: context) + context.method.utf8.count + context.target.utf8.count + 12
        context.correlationID =
            HTTPRequest.saneClientRequestID(context.headers["client-request-id"]) ?? RequestIDGenerator.shared.nextUUID()
        context.stage = .receivingBody
        context.bodyLimit = core.maxBodyBytes
        if let refusal = RequestFraming.refusal(headers: context.headers, version: version.map { String(cString: $0) } ?? "") {
            // The body cannot be delimited, so it is not read: answer at once and close.
            return respondOrClose(
                refused(refusal, core: core, connection: connection, context: context), core: core, connection: connection,
                context: context, close: true)
        }
        let declaredLength = context.headers["content-length"].flatMap { UInt64($0.trimmingASCIISpaces()) }
        if headSize > core.maxHeaderBytes {
            return refuseBeforeBody(
                HTTPError.headerFieldsTooLarge(limit: core.maxHeaderBytes), declaredLength: declaredLength, core: core,
                connection: connection, context: context)
        }
        if let declaredLength, declaredLength > UInt64(context.bodyLimit),
            !raiseBodyLimit(core: core, context: context, to: declaredLength > UInt64(Int.max) ? Int.max : Int(declaredLength))
        {
            return refuseBeforeBody(
                HTTPError.payloadTooLarge(limit: context.bodyLimit), declaredLength: declaredLength, core: core,
                connection: connection, context: context)
        }
        return MHD_Result.YES
    }

    /// Refuses a request whose head has just been read: at once when no body is coming or the
    /// declared body is too large to discard, otherwise after reading and dropping the body.
    private static func refuseBeforeBody(
        _ refusal: HTTPError, declaredLength: UInt64?, core: ServerCore, connection: MHDConnection, context: RequestContext
    ) -> MHD_Result {
        let isChunked = context.headers["transfer-encoding"].map { !$0.isEmpty } ?? false
        let expectsContinue =
            context.headers["expect"].map { HTTPHeaders.namesMatch(String($0.trimmingASCIISpaces()), "100-continue") } ?? false
        let isDiscardable =
            isChunked || declaredLength.map { $0 > 0 && $0 <= UInt64(core.maxDiscardedBodyBytes) } ?? false
        if isDiscardable && !expectsContinue {
            startDiscarding(refusal, core: core, context: context)
            return MHD_Result.YES
        }
        return respondOrClose(
            refused(refusal, core: core, connection: connection, context: context), core: core, connection: connection,
            context: context)
    }

    private static func startDiscarding(_ refusal: HTTPError, core: ServerCore, context: RequestContext) {
        context.connection?.requestArrived()  // from now on the discard deadline applies
        context.stage = .discardingBody(refusal: refusal, deadline: .now + core.discardTimeout)
    }

    /// Counts `size` dropped body bytes; closes the connection (`MHD_NO`) once too many were
    /// dropped or the discard deadline has passed.
    private static func discard(_ size: Int, core: ServerCore, context: RequestContext) -> MHD_Result {
        guard case .discardingBody(_, let deadline) = context.stage else { return MHD_Result.NO }
        context.discardedBytes += size
        if context.discardedBytes > core.maxDiscardedBodyBytes || ContinuousClock.now > deadline {
            context.abnormalEnding = .refusedBodyCutOff
            return MHD_Result.NO
        }
        return MHD_Result.YES
    }

    /// The responder's rendering of a limit error, for a body-less copy of the request.
    private static func refused(_ error: HTTPError, core: ServerCore, connection: MHDConnection, context: RequestContext)
        -> HTTPResponse
    {
        let request = HTTPRequest(
            method: context.method, target: context.target, headers: context.headers, body: [],
            remoteAddress: connection.clientAddress(), requestID: context.requestID, correlationID: context.correlationID)
        return core.responder.respond(to: request, refusedWith: error)
    }

    /// Final call: the whole body is here. Runs the responder and queues its response; a blocking
    /// answer is made on a blocking-request thread while the connection is suspended.
    private static func finish(core: ServerCore, connection: MHDConnection, context: RequestContext) -> MHD_Result {
        context.connection?.requestArrived()  // however long the responder takes
        let request = HTTPRequest(
            method: context.method, target: context.target, headers: context.headers, body: context.body,
            remoteAddress: connection.clientAddress(), requestID: context.requestID, correlationID: context.correlationID)
        context.body = []
        switch core.responder.answer(to: request) {
        case .response(let response):
            return respondOrClose(response, core: core, connection: connection, context: context)
        case .blocking(let work):
            return answerAside(work, for: request.remoteAddress, core: core, connection: connection, context: context)
        }
    }

    /// Suspends the connection and makes the response on a blocking-request thread (once fewer
    /// than ``HTTPServerConfiguration/blockingAnswersPerAddress`` are under way for `address`),
    /// which leaves it in ``RequestContext/readyResponse`` and resumes the connection; the access
    /// handler, which libmicrohttpd calls again once the connection is resumed, queues it on the
    /// worker. The response is never queued from the blocking-request thread: libmicrohttpd's
    /// `MHD_queue_response` then runs the connection's state machine on the calling thread, racing
    /// the worker's clean-up of the same connection (a double close of its socket). With no thread
    /// to spare, the work runs here on the worker instead.
    private static func answerAside(
        _ work: @escaping @Sendable () -> HTTPResponse, for address: String, core: ServerCore,
        connection: MHDConnection, context: RequestContext
    ) -> MHD_Result {
        // Counted before the pool may start it, and refused once the daemon is stopping: a request
        // on a kept-alive connection can still arrive then, and is answered here.
        guard core.beginSuspension() else {
            return respondOrClose(work(), core: core, connection: connection, context: context)
        }
        let submitted = core.blockingPool.submit(
            key: address,
            {
                context.readyResponse = work()
                connection.resume()
                core.endSuspension()
            },
            beforeStart: {
                context.stage = .answering
                connection.suspend()
            })
        guard submitted else {
            core.endSuspension()
            return respondOrClose(work(), core: core, connection: connection, context: context)
        }
        return MHD_Result.YES
    }

    /// Queues `response` (with `Connection: close` when `close` or draining), or closes the
    /// connection if libmicrohttpd refuses it.
    private static func respondOrClose(
        _ response: HTTPResponse, core: ServerCore, connection: MHDConnection, context: RequestContext, close: Bool = false
    ) -> MHD_Result {
        respond(response, core: core, connection: connection, context: context, close: close) ? MHD_Result.YES : MHD_Result.NO
    }

    private static func respond(
        _ response: HTTPResponse, core: ServerCore, connection: MHDConnection, context: RequestContext, close: Bool
    ) -> Bool {
        context.connection?.requestArrived()
        let queued = connection.queue(
            response, context: context, closeConnection: close || core.draining.load(), log: core.errorLog)
        if queued { context.stage = .responded }
        return queued
    }
}
