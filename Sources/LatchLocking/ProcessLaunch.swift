/// One lock for starting child processes, for the package's tests and tools: Foundation's
/// `Process.run()` on Linux has crashed (a `memcpy` inside `run()`) when several threads of one
/// process launch children at once, so every launch in the package goes through this lock.
package enum ProcessLaunch {
    /// Held while `Process.run()` starts a child; not while the child runs.
    package static let lock = Locked(())
}
