import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bounds how many Argon2id computations run at once to the number of active cores, and accounts
/// the CPU time they use.
///
/// Each computation fills `m` KiB of memory (19 MiB by default) and keeps one core busy; running
/// more at once than there are cores only adds context switches and evicts each other's memory from
/// the caches, so every hash gets slower. Callers beyond the limit wait (they are blocking worker
/// threads), which also leaves the remaining HTTP workers free for cheap requests.
enum Argon2Gate {
    private static let slots = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))
    private static let cpuNanoseconds = Atomic<UInt64>(0)
    private static let computations = Atomic<UInt64>(0)

    /// Runs `body` once a slot is free, adding its thread CPU time to ``statistics``.
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        slots.wait()
        defer { slots.signal() }
        let start = threadCPUNanoseconds()
        defer {
            cpuNanoseconds.add(threadCPUNanoseconds() &- start, ordering: .relaxed)
            computations.add(1, ordering: .relaxed)
        }
        return try body()
    }

    /// Hashes and verifications run so far in this process, and their CPU seconds.
    static var statistics: (count: UInt64, cpuSeconds: Double) {
        (computations.load(ordering: .relaxed), Double(cpuNanoseconds.load(ordering: .relaxed)) / 1e9)
    }

    /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`, POSIX clock_gettime(2)).
    private static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
