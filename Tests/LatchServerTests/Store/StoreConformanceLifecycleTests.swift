import Foundation
import LatchServer
import Testing

/// ``Store/close()``: calling it twice is harmless, and every later call fails with
/// ``StoreError/unavailable(_:)``.
@Suite("Store conformance: closing")
struct StoreConformanceLifecycleTests {
    typealias Fixture = StoreConformance

    @Test(
        "after close, reads and writes fail with StoreError.unavailable; closing twice is harmless",
        arguments: StoreConformance.implementations)
    func closedStoreIsUnavailable(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        try Fixture.seed(store)
        store.close()
        store.close()

        Self.expectUnavailable("read") { _ = try store.read { try $0.tenants() } }
        Self.expectUnavailable("write") { try store.write { try $0.insert(Fixture.message()) } }
        Self.expectUnavailable("writeRelaxed") { try store.writeRelaxed { try $0.insert(Fixture.message()) } }
    }

    private static func expectUnavailable(
        _ operation: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("\(operation) on a closed store succeeded", sourceLocation: sourceLocation)
        } catch StoreError.unavailable {
        } catch {
            Issue.record(
                "\(operation) on a closed store threw \(error), not StoreError.unavailable", sourceLocation: sourceLocation)
        }
    }
}
