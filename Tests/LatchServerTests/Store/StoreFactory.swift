import Foundation
import LatchServer
import Testing

/// One ``Store`` implementation the conformance suite runs against: a name for the test report and
/// a way to open a fresh, empty instance of it.
struct StoreFactory: Sendable, CustomTestStringConvertible {
    /// The implementation's name, shown as the test argument.
    let name: String
    private let open: @Sendable () throws -> StoreUnderTest

    /// A factory called `name` whose `open` returns a new, empty store each time.
    init(name: String, open: @escaping @Sendable () throws -> StoreUnderTest) {
        self.name = name
        self.open = open
    }

    /// Opens a fresh, empty store; the caller closes it with ``StoreUnderTest/close()``.
    func make() throws -> StoreUnderTest { try open() }

    var testDescription: String { name }
}

/// A store opened for one test, with the engine-specific hooks the suite needs and its cleanup.
final class StoreUnderTest: Sendable {
    /// The store, reached only through the ``Store`` protocol.
    let store: any Store
    private let overwriteFlowState: @Sendable (_ flowID: String, _ text: String) throws -> Void
    private let cleanup: @Sendable () -> Void

    /// Wraps `store`.
    /// - Parameters:
    ///   - overwriteFlowState: stores `text` as the raw state of a flow behind the store's back, as a
    ///     newer server would.
    ///   - cleanup: deletes whatever the store kept (files, a database), after it was closed.
    init(
        store: any Store, overwriteFlowState: @escaping @Sendable (_ flowID: String, _ text: String) throws -> Void,
        cleanup: @escaping @Sendable () -> Void
    ) {
        self.store = store
        self.overwriteFlowState = overwriteFlowState
        self.cleanup = cleanup
    }

    /// Replaces the stored state of flow `flowID` with the raw `text`, bypassing the store.
    func overwriteFlowState(flowID: String, with text: String) throws {
        try overwriteFlowState(flowID, text)
    }

    /// Closes the store and removes what it stored.
    func close() {
        store.close()
        cleanup()
    }
}
