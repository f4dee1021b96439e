import Foundation

/// Waits for a task's outcome, but returns as soon as the waiting task is cancelled.
///
/// Awaiting `task.value` does not forward the waiter's cancellation, and a transport may ignore
/// cancellation altogether; either way a cancelled caller would wait for an answer it no longer
/// wants. Here the waiter gets `CancellationError` at once. Whether `task` is cancelled too is the
/// caller's choice: a request nobody waits for may stop, but a token refresh other callers share
/// (and whose rotated refresh token must be stored) must not.
enum CancellationRace {
    /// The value of `task`, or `CancellationError` as soon as the calling task is cancelled.
    /// - Parameter cancelsTask: whether the caller's cancellation also cancels `task`. It is
    ///   cancelled from a Dispatch thread, not from the cancellation handler: the handler runs
    ///   while the runtime holds the cancelled task's status lock, and cancelling a `URLSession`
    ///   task there can deadlock against FoundationNetworking's work queue on Linux.
    static func value<Value: Sendable>(of task: Task<Value, any Error>, cancelsTask: Bool) async throws -> Value {
        let gate = ResumeOnce<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard gate.install(continuation) else { return }
                Task { gate.resume(with: await task.result) }
            }
        } onCancel: {
            gate.resume(with: .failure(CancellationError()))
            if cancelsTask { DispatchQueue.global().async { task.cancel() } }
        }
    }
}
