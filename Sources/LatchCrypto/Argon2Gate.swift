import Dispatch
import Foundation

/// Bounds how many Argon2id computations run at once to the number of active cores.
///
/// Each computation fills `m` KiB of memory (19 MiB by default) and keeps one core busy; running
/// more at once than there are cores only adds context switches and evicts each other's memory from
/// the caches, so every hash gets slower. Callers beyond the limit wait (they are blocking worker
/// threads), which also leaves the remaining HTTP workers free for cheap requests.
enum Argon2Gate {
    private static let slots = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Runs `body` once a slot is free.
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        slots.wait()
        defer { slots.signal() }
        return try body()
    }
}
