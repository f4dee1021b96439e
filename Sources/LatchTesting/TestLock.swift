import Foundation

/// A value behind an `NSLock`, available on every platform the package declares
/// (`Synchronization.Mutex` needs macOS 15 and iOS 18).
final class TestLock<Value>: @unchecked Sendable {  // `value` is only touched while `lock` is held
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
