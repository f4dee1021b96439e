import Foundation
internal import LatchLocking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the SDK sends HTTP requests: a value holding one async function, so tests and apps can
/// inject their own (a stub, a pinned `URLSession`, a proxy).
///
/// A transport should end a request whose task is cancelled by throwing `CancellationError` or
/// `URLError(.cancelled)`; the SDK reports either as ``LatchError/Code/userCanceled``. It does not
/// wait for a transport that ignores cancellation: the cancelled call returns at once.
public struct HTTPTransport: Sendable {
    /// Sends a request and returns the body and response; throws `URLError` on network failure.
    public let send: @Sendable (URLRequest) async throws -> (Data, URLResponse)

    /// Wraps a send function.
    public init(send: @escaping @Sendable (URLRequest) async throws -> (Data, URLResponse)) {
        self.send = send
    }

    /// `URLSession.shared`, cancellable: see ``urlSession(_:)``.
    public static let urlSession = urlSession(.shared)

    /// Sends through `session` with a data task. Cancelling the calling task ends the call at once
    /// with `URLError(.cancelled)` and cancels the data task from a Dispatch thread. (`URLSession`'s
    /// own async `data(for:)` cancels it inside the task's cancellation handler, which on Linux can
    /// deadlock with FoundationNetworking's work queue when the response completes at that moment.)
    public static func urlSession(_ session: URLSession) -> HTTPTransport {
        HTTPTransport { request in try await CancellableDataTask.send(request, on: session) }
    }
}

/// One `URLSession` data task raced against the cancellation of the task awaiting it.
private final class CancellableDataTask: Sendable {
    private enum State {
        case pending
        case running(SendableDataTask)
        case cancelled
    }

    /// `URLSessionDataTask` is thread-safe but not marked `Sendable` in every Foundation.
    private struct SendableDataTask: @unchecked Sendable {
        let task: URLSessionDataTask
    }

    private let state = Locked(State.pending)
    private let gate = ResumeOnce<(Data, URLResponse)>()

    static func send(_ request: URLRequest, on session: URLSession) async throws -> (Data, URLResponse) {
        let call = CancellableDataTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard call.gate.install(continuation) else { return }
                call.start(request, on: session)
            }
        } onCancel: {
            call.cancel()
        }
    }

    private func start(_ request: URLRequest, on session: URLSession) {
        let task = session.dataTask(with: request) { [gate] data, response, error in
            if let error {
                gate.resume(with: .failure(error))
            } else if let response {
                gate.resume(with: .success((data ?? Data(), response)))
            } else {
                gate.resume(with: .failure(URLError(.badServerResponse)))
            }
        }
        let started = state.withLock { state in
            guard case .pending = state else { return false }
            state = .running(SendableDataTask(task: task))
            return true
        }
        if started { task.resume() }
    }

    private func cancel() {
        gate.resume(with: .failure(URLError(.cancelled)))
        let running = state.withLock { state -> SendableDataTask? in
            defer { state = .cancelled }
            if case .running(let task) = state { return task }
            return nil
        }
        if let running { DispatchQueue.global().async { running.task.cancel() } }
    }
}
