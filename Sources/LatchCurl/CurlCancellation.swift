internal import LatchLocking

/// The cancel flag of one transfer: set by the task's cancellation handler on any thread, read by
/// libcurl's progress callback on the transfer's thread, which then aborts the transfer.
final class CurlCancellation: Sendable {
    private let flag = Locked<Bool>(false)

    /// Asks the transfer to stop.
    func cancel() { flag.store(true) }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { flag.load() }
}
