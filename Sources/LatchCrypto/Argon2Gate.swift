import Dispatch
import Foundation
internal import LatchLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bounds how many Argon2id computations run at once to the number of active cores, shares them
/// fairly between the sources asking for them, and accounts the CPU time they use.
///
/// Each computation fills `m` KiB of memory (19 MiB by default) and keeps one core busy; running
/// more at once than there are cores only adds context switches and evicts each other's memory from
/// the caches, so every hash gets slower. Callers beyond the limit wait, queued by source: a source
/// is an opaque key, such as the client's address. A freed slot goes to the next source in turn
/// (round robin), and within a source to its oldest waiter, so a source that sends many requests
/// cannot push another's to the back; a source that arrives with nothing queued and was not
/// admitted lately goes first (see ``Queue``), so an occasional client waits for the next slot to
/// free at most, however long a flood's queue is.
///
/// Every waiter is a blocked thread, so the waiting places are bounded (``maximumWaiters``). A
/// source waiting alone may take them all; while several sources wait, each may keep its share of
/// the places (divided among the waiting sources), and a source over its share has its newest
/// waiters refused (``Refusal``), so a flood cannot crowd the others out of the queue.
///
/// ```swift
/// let gate = Argon2Gate(slots: 2, maximumWaiters: 64)
/// let tag = try gate.run(source: "203.0.113.7") { computeArgon2id() }
/// ```
public final class Argon2Gate: Sendable {
    /// The gate did not run the computation: its source held more than its share of the waiting
    /// places while another source waited, or all ``maximumWaiters`` places were taken. Ask again
    /// later.
    public struct Refusal: Error, Sendable, Equatable {
        /// Creates the refusal.
        public init() {}
    }

    /// The gate of computations that name no gate of their own.
    public static let shared = Argon2Gate()

    /// How many computations run at once.
    public let slots: Int
    /// How many callers may wait at once, over all sources.
    public let maximumWaiters: Int

    private let state: Locked<Queue<Waiter>>

    private static let cpuNanoseconds = Locked<UInt64>(0)
    private static let computations = Locked<UInt64>(0)

    /// Creates a gate.
    /// - Parameters:
    ///   - slots: computations at once; by default one per active core.
    ///   - maximumWaiters: callers that may wait at once (the waiting places); by default 64 per slot.
    public init(slots: Int = ProcessInfo.processInfo.activeProcessorCount, maximumWaiters: Int? = nil) {
        self.slots = max(1, slots)
        self.maximumWaiters = max(1, maximumWaiters ?? 64 * max(1, slots))
        state = Locked(Queue<Waiter>(slots: self.slots))
    }

    /// Runs `body` once a slot is free and it is `source`'s turn, adding its thread CPU time to
    /// ``statistics``.
    /// - Parameter source: who asks, e.g. the client's address; the gate only compares keys.
    /// - Throws: ``Refusal`` when the gate refuses the call; `body` has not run then.
    public func run<T>(source: String, _ body: () -> T) throws(Refusal) -> T {
        try acquire(source: source)
        defer { release() }
        let start = Self.threadCPUNanoseconds()
        defer {
            Self.cpuNanoseconds.add(Self.threadCPUNanoseconds() &- start)
            Self.computations.add(1)
        }
        return body()
    }

    /// Callers waiting now, over all sources.
    var waiting: Int { state.withLock { $0.waiting } }

    /// Hashes and verifications run so far in this process, through every gate, and their CPU seconds.
    public static var statistics: (count: UInt64, cpuSeconds: Double) {
        (computations.load(), Double(cpuNanoseconds.load()) / 1e9)
    }

    /// Takes a slot at once if one is free and nobody waits, else waits for one in `source`'s queue.
    private func acquire(source: String) throws(Refusal) {
        let queued: (waiter: Waiter, refused: [Waiter])? = state.withLock { queue in
            if queue.running < slots && queue.waiting == 0 {
                queue.running += 1
                queue.admitted(source)
                return nil
            }
            let waiter = Waiter()
            return (waiter, queue.enqueue(waiter, source: source, maximumWaiters: maximumWaiters))
        }
        guard let (waiter, refused) = queued else { return }
        for other in refused where other !== waiter { other.wake(admitted: false) }
        guard !refused.contains(where: { $0 === waiter }), waiter.wait() else { throw Refusal() }
    }

    /// Hands the slot to the next waiter in turn, or frees it.
    private func release() {
        let next = state.withLock { queue in
            guard let next = queue.dequeue() else {
                queue.running -= 1
                return Waiter?.none
            }
            return next
        }
        next?.wake(admitted: true)
    }

    /// CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`, POSIX clock_gettime(2)).
    private static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}

extension Argon2Gate {
    /// One blocked caller: woken once, admitted to a slot or refused.
    final class Waiter: Sendable {
        private let signal = DispatchSemaphore(value: 0)
        private let verdict = Locked<Bool>(false)

        func wake(admitted: Bool) {
            verdict.store(admitted)
            signal.signal()
        }

        /// Blocks until woken; `true` if admitted.
        func wait() -> Bool {
            signal.wait()
            return verdict.load()
        }
    }
}
