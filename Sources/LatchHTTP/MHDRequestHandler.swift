internal import CMicroHTTPD
import Synchronization

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
/// 1. the URI log callback, once the request line is read: a ``RequestContext`` is created,
///    retained in `*req_cls`, and counted in flight;
/// 2. the access handler with `*upload_data_size == 0`: the head is checked (431, 413 by
///    `Content-Length`);
/// 3. the access handler with body chunks: appended, or counted and dropped past the limit;
/// 4. the access handler with `*upload_data_size == 0` again: the responder runs and the response
///    is queued;
/// 5. the request-completed callback (always, because the URI callback made the request
///    "client aware"): the context is released and the in-flight count drops.
///
/// The callbacks are closures without captures in a non-main file, so they are nonisolated C
/// function pointers; they never trap on any input (lossy UTF-8, checked arithmetic, no force
/// unwraps) and turn impossible states into closing the connection.
enum MHDRequestHandler {
    /// Bytes of an over-limit body that are read and dropped before the connection is simply
    /// closed, so a client slightly over the limit still gets its 413.
    static let discardAllowance = 1 << 20

    static let uriLog:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            cls, uri, _ in
            guard let cls else { return nil }
            let context = RequestContext(target: uri.map { String(cString: $0) } ?? "/")
            Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
                _ = core.inFlight.wrappingAdd(1, ordering: .relaxed)
            }
            return Unmanaged.passRetained(context).toOpaque()
        }

    static let completed: MHD_RequestCompletedCallback = { cls, _, slot, _ in
        guard let cls, let slot, let raw = slot.pointee else { return }
        slot.pointee = nil
        Unmanaged<RequestContext>.fromOpaque(raw).release()
        Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
            _ = core.inFlight.wrappingSubtract(1, ordering: .relaxed)
        }
    }

    static let access: MHD_AccessHandlerCallback = { cls, connection, _, method, _, uploadData, uploadSize, slot in
        guard let cls, let connection, let slot else { return MHD_Result.NO }
        return Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
            MHDRequestHandler.handle(
                core: core, connection: MHDConnection(handle: connection), method: method,
                uploadData: uploadData, uploadSize: uploadSize, slot: slot)
        }
    }

    static let logger: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let line = buffer.withUnsafeBufferPointer { pointer in
            pointer.baseAddress.map { String(cString: $0) } ?? ""
        }
        Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef { core in
            core.errorLog("libmicrohttpd: " + line.trimmingASCIISpaces().replacingNewlines())
        }
    }

    // MARK: - Life cycle

    private static func handle(
        core: ServerCore, connection: MHDConnection, method: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = slot.pointee else { return MHD_Result.NO }  // the URI callback always sets it
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        let size = uploadSize?.pointee ?? 0
        switch context.stage {
        case .started:
            return begin(core: core, connection: connection, context: context, method: method)
        case .receivingBody:
            guard size > 0, let uploadData, let uploadSize else {
                return finish(core: core, connection: connection, context: context)
            }
            uploadSize.pointee = 0
            if context.body.count + size > core.maxBodyBytes {
                context.stage = .discardingBody
                context.discardedBytes = context.body.count + size
                context.body = []
                // libmicrohttpd 0.9.75 refuses to queue a response while the body is still being
                // received, so the 413 goes out when the body ends (or the connection is closed).
                return MHD_Result.YES
            }
            context.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: size))
            return MHD_Result.YES
        case .discardingBody:
            guard size > 0, let uploadSize else {
                return respond(
                    refused(
                        HTTPError.payloadTooLarge(limit: core.maxBodyBytes), core: core, connection: connection, context: context),
                    core: core, connection: connection, context: context)
                    ? MHD_Result.YES : MHD_Result.NO
            }
            uploadSize.pointee = 0
            context.discardedBytes += size
            return context.discardedBytes - core.maxBodyBytes > discardAllowance ? MHD_Result.NO : MHD_Result.YES
        case .responded:
            uploadSize?.pointee = 0
            return MHD_Result.YES
        }
    }

    /// First call: the head is complete. Checks head size and declared body size.
    private static func begin(core: ServerCore, connection: MHDConnection, context: RequestContext, method: UnsafePointer<CChar>?)
        -> MHD_Result
    {
        context.method = method.map { String(cString: $0) } ?? "GET"
        let headSize = connection.collectHeaders(into: context) + context.method.utf8.count + context.target.utf8.count + 12
        context.clientRequestID = HTTPRequest.saneClientRequestID(context.headers["client-request-id"])
        context.stage = .receivingBody
        if headSize > core.maxHeaderBytes {
            return respondOrClose(
                refused(
                    HTTPError.headerFieldsTooLarge(limit: core.maxHeaderBytes), core: core, connection: connection,
                    context: context), core: core, connection: connection, context: context)
        }
        if let declared = context.headers["content-length"], let length = UInt64(declared.trimmingASCIISpaces()),
            length > UInt64(core.maxBodyBytes)
        {
            return respondOrClose(
                refused(
                    HTTPError.payloadTooLarge(limit: core.maxBodyBytes), core: core, connection: connection, context: context),
                core: core, connection: connection, context: context)
        }
        return MHD_Result.YES
    }

    /// The responder's rendering of a limit error, for a body-less copy of the request.
    private static func refused(_ error: HTTPError, core: ServerCore, connection: MHDConnection, context: RequestContext)
        -> HTTPResponse
    {
        let request = HTTPRequest(
            method: context.method, target: context.target, headers: context.headers, body: [],
            remoteAddress: connection.clientAddress(), requestID: context.requestID)
        return core.responder.respond(to: request, refusedWith: error)
    }

    /// Final call: the whole body is here. Runs the responder and queues its response.
    private static func finish(core: ServerCore, connection: MHDConnection, context: RequestContext) -> MHD_Result {
        let request = HTTPRequest(
            method: context.method, target: context.target, headers: context.headers, body: context.body,
            remoteAddress: connection.clientAddress(), requestID: context.requestID)
        context.body = []
        let response = core.responder.respond(to: request)
        return respondOrClose(response, core: core, connection: connection, context: context)
    }

    private static func respondOrClose(
        _ response: HTTPResponse, core: ServerCore, connection: MHDConnection, context: RequestContext
    ) -> MHD_Result {
        respond(response, core: core, connection: connection, context: context) ? MHD_Result.YES : MHD_Result.NO
    }

    private static func respond(_ response: HTTPResponse, core: ServerCore, connection: MHDConnection, context: RequestContext)
        -> Bool
    {
        let queued = connection.queue(
            response, context: context, closeConnection: core.draining.load(ordering: .relaxed), log: core.errorLog)
        if queued { context.stage = .responded }
        return queued
    }
}
