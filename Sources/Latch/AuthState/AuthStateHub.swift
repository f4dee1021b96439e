import Foundation
internal import LatchLocking

/// The listeners of one client's auth state: ``LatchClient/authStateChanges`` and
/// ``LatchClient/authEvents`` streams, and the view they were last told about.
///
/// Views are published by the token manager under the credential store's lock, so they arrive in
/// the order the store changed; a view that equals the last one publishes nothing. While nobody
/// listens nothing is kept: the first listener starts from the store as it is then.
final class AuthStateHub: Sendable {
    private struct State {
        var view: AuthView?
        var isOffline = false
        var stateListeners: [UInt64: AsyncStream<LatchAccount?>.Continuation] = [:]
        /// State listeners that have not had their first element yet.
        var awaitingFirst: Set<UInt64> = []
        var eventListeners: [UInt64: AsyncStream<LatchAuthEvent>.Continuation] = [:]
        var nextID: UInt64 = 0

        var isObserved: Bool { !stateListeners.isEmpty || !eventListeners.isEmpty }

        mutating func makeID() -> UInt64 {
            defer { nextID += 1 }
            return nextID
        }

        /// Forgets the view once nobody listens, so the next listener starts from the store.
        /// - Returns: whether nobody listens now.
        mutating func resetIfIdle() -> Bool {
            guard !isObserved else { return false }
            view = nil
            isOffline = false
            return true
        }

        /// Gives each listener still waiting for it its first element: the current account.
        mutating func deliverFirst() {
            guard let view else { return }
            for id in awaitingFirst { stateListeners[id]?.yield(view.current) }
            awaitingFirst.removeAll()
        }
    }

    private let state = Locked(State())
    /// Called, outside the hub's lock, whenever the first listener arrived or the last one left.
    private let observersChanged: @Sendable () -> Void

    init(observersChanged: @escaping @Sendable () -> Void) {
        self.observersChanged = observersChanged
    }

    /// Whether anyone listens.
    var isObserved: Bool { state.withLock { $0.isObserved } }

    /// Whether the hub has a view to diff against (it has none while nobody listens).
    var hasView: Bool { state.withLock { $0.view != nil } }

    /// How many streams are open (for tests).
    var listenerCount: Int { state.withLock { $0.stateListeners.count + $0.eventListeners.count } }

    // MARK: - Streams

    /// A stream of the current account: first the current value, then each change.
    func stateChanges() -> AsyncStream<LatchAccount?> {
        let (stream, continuation) = AsyncStream.makeStream(of: LatchAccount?.self)
        let (id, first) = state.withLock { state in
            let id = state.makeID()
            let first = !state.isObserved
            state.stateListeners[id] = continuation
            if let view = state.view {
                continuation.yield(view.current)
            } else {
                state.awaitingFirst.insert(id)
            }
            return (id, first)
        }
        continuation.onTermination = { [weak self] _ in self?.remove(stateListener: id) }
        if first { observersChanged() }
        return stream
    }

    /// A stream of events from now on.
    func events() -> AsyncStream<LatchAuthEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LatchAuthEvent.self)
        let (id, first) = state.withLock { state in
            let id = state.makeID()
            let first = !state.isObserved
            state.eventListeners[id] = continuation
            return (id, first)
        }
        continuation.onTermination = { [weak self] _ in self?.remove(eventListener: id) }
        if first { observersChanged() }
        return stream
    }

    private func remove(stateListener id: UInt64) {
        let idle = state.withLock { state in
            state.stateListeners.removeValue(forKey: id)
            state.awaitingFirst.remove(id)
            return state.resetIfIdle()
        }
        if idle { observersChanged() }
    }

    private func remove(eventListener id: UInt64) {
        let idle = state.withLock { state in
            state.eventListeners.removeValue(forKey: id)
            return state.resetIfIdle()
        }
        if idle { observersChanged() }
    }

    /// Ends every stream (the client is gone).
    func finish() {
        let (states, events) = state.withLock { state in
            defer {
                state.stateListeners.removeAll()
                state.eventListeners.removeAll()
                state.awaitingFirst.removeAll()
                state.view = nil
            }
            return (Array(state.stateListeners.values), Array(state.eventListeners.values))
        }
        for continuation in states { continuation.finish() }
        for continuation in events { continuation.finish() }
    }

    // MARK: - Publishing

    /// Sets the first view when there is none yet (the store as it was when the first listener
    /// arrived), without events.
    func publishFirst(_ view: AuthView) {
        state.withLock { state in
            guard state.isObserved, state.view == nil else { return }
            state.view = view
            state.deliverFirst()
        }
    }

    /// Reports the change to `after`: the events from the last view (or, without one, from
    /// `before`, the snapshot the change was made to), and the current account if it changed.
    func publish(before: @autoclosure () -> AuthView, after: @autoclosure () -> AuthView) {
        state.withLock { state in
            guard state.isObserved else { return }
            if state.view == nil {
                state.view = before()
                state.deliverFirst()
            }
            guard let old = state.view else { return }
            let new = after()
            let events = old.events(to: new)
            state.view = new
            for event in events {
                switch event {
                case .signedIn, .tokenRefreshed, .signedOut: state.isOffline = false
                default: break
                }
                for listener in state.eventListeners.values { listener.yield(event) }
            }
            if old.currentState != new.currentState {
                for listener in state.stateListeners.values { listener.yield(new.current) }
            }
        }
    }

    /// Reports that a refresh of `account` could not reach the server, once per spell.
    func offline(_ account: LatchAccount) {
        state.withLock { state in
            guard state.isObserved, !state.isOffline else { return }
            state.isOffline = true
            for listener in state.eventListeners.values { listener.yield(.offline(account)) }
        }
    }
}
