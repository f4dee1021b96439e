internal import LatchLocking

/// A checked continuation that is resumed exactly once, whichever comes first: the work it waits
/// for, or the cancellation of the task waiting. Later resumptions are ignored, and a resumption
/// that arrives before the continuation is installed is kept and delivered on installation.
final class ResumeOnce<Value: Sendable>: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Value, any Error>)
        case early(Result<Value, any Error>)
        case done
    }

    private let state = Locked(State.idle)

    /// Installs `continuation`; resumes it at once when the outcome arrived first.
    /// - Returns: `false` when it was resumed at once (the work need not be started).
    @discardableResult
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let early: Result<Value, any Error>? = state.withLock { state in
            switch state {
            case .idle:
                state = .waiting(continuation)
                return nil
            case .early(let result):
                state = .done
                return result
            case .waiting, .done:
                preconditionFailure("a ResumeOnce takes one continuation")
            }
        }
        guard let early else { return true }
        continuation.resume(with: early)
        return false
    }

    /// Resumes the continuation with `result`, unless it was resumed already.
    func resume(with result: Result<Value, any Error>) {
        let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
            switch state {
            case .idle:
                state = .early(result)
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .early, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
