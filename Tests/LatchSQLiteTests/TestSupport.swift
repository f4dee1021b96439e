import Foundation
import LatchSQLite

/// A fresh directory under the system temp dir, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("latch-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Opens a database in a new temporary directory, passes it to `body`, then closes and deletes everything.
func withDatabase<T>(
    configuration: SQLiteConfiguration = .init(),
    schema: String? = nil,
    _ body: (SQLiteDatabase, TemporaryDirectory) throws -> T
) throws -> T {
    let dir = try TemporaryDirectory()
    defer { dir.remove() }
    let db = try SQLiteDatabase(path: dir.path("test.db"), configuration: configuration)
    defer { db.close() }
    if let schema { try db.write { try $0.execute(schema) } }
    return try body(db, dir)
}

/// Runs `body(i)` for i in 0..<count, each on its own OS thread (like the HTTP workers), and waits for all.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        let thread = Thread {
            body(i)
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// An error type of the test's own, to check errors are rethrown unchanged.
struct Boom: Error, Equatable {
    let id: Int
}

/// A value behind an NSLock. Used instead of `Synchronization.Mutex` so that
/// ThreadSanitizer (which does not see Mutex's futex) can check these tests.
// @unchecked Sendable: `value` is only accessed with `lock` held.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
