import Foundation

/// A value behind an `NSLock`: cheap when uncontended and available on every platform the SDK
/// supports (Synchronization.Mutex needs macOS 15). Package-visible, so the SDK's test support
/// uses the same box.
package final class Locked<Value>: @unchecked Sendable {  // `value` is only touched while `lock` is held
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
