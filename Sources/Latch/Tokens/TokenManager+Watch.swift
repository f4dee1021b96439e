import Foundation
internal import LatchLocking

extension TokenManager {
    /// What the watcher last saw of the store.
    enum WatchMark: Sendable {
        /// Nothing yet.
        case none
        /// The store's change stamp.
        case revision(CredentialStoreRevision)
        /// The snapshot itself, for stores without a change stamp.
        case snapshot(CredentialSnapshot)
    }

    /// Starts the store watcher when someone listens to auth state, and stops it when nobody does.
    func updateWatcher() {
        watcher.withLock { task in
            if authState.isObserved {
                guard task == nil else { return }
                task = Task { [weak self] in
                    var mark = WatchMark.none
                    while !Task.isCancelled {
                        guard let interval = await self?.watchStep(&mark) else { return }
                        try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
                    }
                }
            } else {
                task?.cancel()
                task = nil
            }
        }
    }

    /// One look at the store. The first reads it without the lock (so a new listener's first
    /// element never waits behind a refresh in flight) and sets the listeners' starting view.
    /// Later ones compare the store's change stamp, or its content when it has none, and on a
    /// change read it under the lock and publish what changed: a sign-in, refresh or sign-out
    /// another client or process made.
    /// - Returns: the seconds until the next look.
    func watchStep(_ mark: inout WatchMark) async -> TimeInterval {
        let interval = max(0.05, configuration.credentialStoreWatchInterval)
        let store = configuration.credentialStore
        do {
            let revision = try await store.revision()
            if !authState.hasView {
                let snapshot = try await readStore()
                authState.publishFirst(view(snapshot))
                mark = revision.map(WatchMark.revision) ?? .snapshot(snapshot)
                return interval
            }
            switch (revision, mark) {
            case (let revision?, .revision(let last)) where revision == last:
                return interval
            case (nil, .snapshot(let last)):
                if try await readStore() == last { return interval }
            default:
                break
            }
            let snapshot = try await storeCall {
                try await store.withExclusiveLock { [self] in
                    let snapshot = try await store.read()
                    var merged = snapshot
                    merged.accounts = merge(snapshot.accounts)
                    publish(before: merged, after: merged)
                    return snapshot
                }
            }
            mark = revision.map(WatchMark.revision) ?? .snapshot(snapshot)
        } catch {
            configuration.logger.log(.warning, "could not check the credential store for changes: \(error)")
        }
        return interval
    }
}

/// A weak reference to the token manager, for the callbacks of the hub it owns.
final class WeakTokenManager: Sendable {
    private struct Reference {
        weak var value: TokenManager?
    }

    private let reference = Locked(Reference())

    var value: TokenManager? {
        get { reference.withLock { $0.value } }
        set { reference.withLock { $0.value = newValue } }
    }
}
