#if canImport(Observation)
    import Foundation
    import Latch
    import Observation

    /// A client's auth state for SwiftUI: an `@Observable` model that follows
    /// ``Latch/LatchClient/authStateChanges`` and ``Latch/LatchClient/authEvents`` on the main actor.
    ///
    /// ```swift
    /// @State private var auth = LatchAuthModel(client: client)
    ///
    /// var body: some View {
    ///     if auth.isSignedIn { HomeView() } else { SignInView() }
    /// }
    /// ```
    ///
    /// It observes from creation until it is deallocated. Its own product, so the `Latch` core
    /// stays Foundation-only; compiled where the Observation module exists.
    @MainActor
    @Observable
    public final class LatchAuthModel {
        /// The current account (``Latch/LatchClient/currentAccount``); `nil` until ``isLoaded`` and
        /// while nobody is signed in.
        public private(set) var account: LatchAccount?
        /// Whether the first value has arrived from the credential store.
        public private(set) var isLoaded = false
        /// Whether a refresh last failed for want of a network (``Latch/LatchAuthEvent/offline(_:)``),
        /// until the next successful refresh or sign-in.
        public private(set) var isOffline = false
        /// The latest event.
        public private(set) var lastEvent: LatchAuthEvent?

        /// Whether the current account's session is live.
        public var isSignedIn: Bool { account?.sessionState == .signedIn }

        @ObservationIgnored private nonisolated let observers = Observers()

        /// Starts following `client`.
        public init(client: LatchClient) {
            let states = client.authStateChanges
            let events = client.authEvents
            observers.add(
                Task { [weak self] in
                    for await account in states {
                        guard let self else { return }
                        self.account = account
                        self.isLoaded = true
                    }
                })
            observers.add(
                Task { [weak self] in
                    for await event in events {
                        guard let self else { return }
                        self.apply(event)
                    }
                })
        }

        deinit {
            observers.cancel()
        }

        private func apply(_ event: LatchAuthEvent) {
            lastEvent = event
            switch event {
            case .offline: isOffline = true
            case .tokenRefreshed, .signedIn, .signedOut: isOffline = false
            default: break
            }
        }
    }

    /// The tasks a model observes with, cancelled from its (nonisolated) `deinit`.
    final class Observers: @unchecked Sendable {  // `tasks` is only touched while `lock` is held
        private let lock = NSLock()
        private var tasks: [Task<Void, Never>] = []

        func add(_ task: Task<Void, Never>) {
            lock.lock()
            defer { lock.unlock() }
            tasks.append(task)
        }

        func cancel() {
            lock.lock()
            let running = tasks
            tasks = []
            lock.unlock()
            for task in running { task.cancel() }
        }
    }
#endif
