import Foundation
import Latch
import LatchLocking
import Testing

/// Collects the elements of an `AsyncStream` on a background task, for tests that check a whole
/// sequence: wait for the expected number, then check nothing more arrives.
final class StreamRecorder<Element: Sendable>: Sendable {
    private let elements = Locked<[Element]>([])
    private let consumer = Locked<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<Element>) {
        let task = Task { [weak self] in
            for await element in stream { self?.elements.withLock { $0.append(element) } }
        }
        consumer.withLock { $0 = task }
    }

    /// Everything received so far.
    var values: [Element] { elements.withLock { $0 } }

    /// Waits until at least `count` elements arrived (or `timeout` seconds passed), then returns
    /// them all.
    func wait(for count: Int, timeout: Double = 10) async -> [Element] {
        let deadline = Date().addingTimeInterval(timeout)
        while elements.withLock({ $0.count }) < count && Date() < deadline {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return values
    }

    /// Waits `seconds`, so that anything extra has time to arrive, then returns everything.
    func settle(_ seconds: Double = 0.5) async -> [Element] {
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        return values
    }

    /// Stops consuming: the stream terminates.
    func cancel() {
        consumer.withLock { $0?.cancel() }
    }

    deinit { consumer.withLock { $0?.cancel() } }
}

/// Short, comparable descriptions of auth states and events (`LatchAccount` compares more than
/// the identity these tests are about).
enum AuthStateText {
    /// `nil`, or `username:signedIn` / `username:interactionRequired`.
    static func state(_ account: LatchAccount?) -> String {
        guard let account else { return "nil" }
        return "\(account.username):\(account.sessionState == .signedIn ? "signedIn" : "interactionRequired")"
    }

    /// `signedIn username`, `sessionEnded username revoked`, …
    static func event(_ event: LatchAuthEvent) -> String {
        switch event {
        case .signedIn(let account): "signedIn \(account.username)"
        case .signedOut(let account): "signedOut \(account.username)"
        case .tokenRefreshed(let account): "tokenRefreshed \(account.username)"
        case .sessionEnded(let account, let reason): "sessionEnded \(account.username) \(reason)"
        case .offline(let account): "offline \(account.username)"
        @unknown default: "unknown \(event.account.username)"
        }
    }

    static func states(_ values: [LatchAccount?]) -> [String] { values.map(state) }
    static func events(_ values: [LatchAuthEvent]) -> [String] { values.map(event) }
}
