import Foundation

/// Runs blocking work on a dedicated thread. Dispatch's global queues would share their few threads
/// with the Swift concurrency pool that runs the tests, which blocking work can starve on 2 cores.
enum Background {
    /// Starts `work` on a new thread; the returned semaphore is signalled when it returns.
    @discardableResult
    static func run(_ work: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.start()
        return done
    }

    /// Runs `work(index)` for every index on `threads` threads and waits for all of them.
    static func concurrentPerform(iterations: Int, threads: Int, _ work: @escaping @Sendable (Int) -> Void) {
        let next = NSLock()
        nonisolated(unsafe) var counter = 0
        let semaphores = (0..<threads).map { _ in
            run {
                while true {
                    next.lock()
                    let index = counter
                    counter += 1
                    next.unlock()
                    guard index < iterations else { return }
                    work(index)
                }
            }
        }
        semaphores.forEach { $0.wait() }
    }
}
