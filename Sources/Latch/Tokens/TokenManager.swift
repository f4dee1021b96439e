import Foundation
internal import LatchLocking

/// Keeps tokens: an in-memory copy of the credential store for the fast path, the store for
/// persistence, one refresh in flight per account, and a throttle after `429` answers.
///
/// Every refresh is bound to the session generation of its account when it was asked for: a
/// sign-out (or a new sign-in) in between makes it write nothing, emit nothing and send nothing
/// more. Every change it learns, its own or one another process made to the store, is published
/// to ``authState``.
final class TokenManager: Sendable {
    let configuration: LatchConfiguration
    let channel: NativeAuthChannel
    /// Accounts by key; `nil` until first loaded from the store.
    let memory = Locked<[String: StoredAccount]?>(nil)
    /// Ready-made results of the accounts in `memory` that hold an access token, so a cache hit
    /// decodes nothing.
    let results = Locked<[String: LatchTokenResult]>([:])
    private let throttle = Locked<[String: Date]>([:])
    let inFlight = Locked<[String: Task<StoredAccount, any Error>]>([:])
    /// Session generations by account key: a sign-in or sign-out through this client starts a new
    /// one. Locked before `memory`, `results` and the hub when taken together.
    let generations = Locked<[String: SessionGeneration]>([:])
    /// The listeners of ``LatchClient/authStateChanges`` and ``LatchClient/authEvents``.
    let authState: AuthStateHub
    /// Polls the store for changes made elsewhere while anyone listens.
    let watcher = Locked<Task<Void, Never>?>(nil)

    init(configuration: LatchConfiguration, channel: NativeAuthChannel) {
        self.configuration = configuration
        self.channel = channel
        let owner = WeakTokenManager()
        authState = AuthStateHub { owner.value?.updateWatcher() }
        owner.value = self
    }

    deinit {
        watcher.withLock { $0?.cancel() }
        authState.finish()
    }

    /// This client's key in ``CredentialSnapshot/currentAccounts``.
    var clientKey: String {
        StoredAccount.clientKey(
            server: configuration.serverKey, tenant: configuration.tenant, clientID: configuration.clientID)
    }

    // MARK: - Reading

    /// Every stored account of this server, tenant and client, as the store holds them now: another
    /// client or process sharing the store may have refreshed, revoked or removed one since this
    /// client last looked. The in-memory copy is brought up to date too (keeping only records this
    /// client wrote after the read).
    func accounts() async throws -> [StoredAccount] {
        let merged = merge(try await readStore().accounts)
        return merged.values.filter(belongsHere).sorted { $0.username < $1.username }
    }

    /// The current account: the one this client's latest sign-in stored, while it is stored.
    func currentAccount() async throws -> LatchAccount? {
        let snapshot = try await readStore()
        let merged = merge(snapshot.accounts)
        guard let key = snapshot.currentAccountKey(client: clientKey), let record = merged[key] else { return nil }
        return LatchAccount(record)
    }

    /// The store's accounts, with this client's newer in-memory records in place of older stored
    /// ones (a refresh whose store write failed), remembered as the in-memory view.
    func merge(_ stored: [String: StoredAccount]) -> [String: StoredAccount] {
        var merged = stored
        let current = memory.withLock { $0 } ?? [:]
        for (key, record) in current {
            if let stored = merged[key], stored.updatedAt < record.updatedAt { merged[key] = record }
        }
        remember(merged)
        return merged
    }

    private func belongsHere(_ record: StoredAccount) -> Bool {
        record.server == configuration.serverKey && record.tenant == configuration.tenant
            && record.clientID == configuration.clientID
    }

    private func loadedAccounts() async throws -> [String: StoredAccount] {
        if let loaded = memory.withLock({ $0 }) { return loaded }
        let snapshot = try await readStore()
        if memory.withLock({ $0 == nil }) { remember(snapshot.accounts) }
        return memory.withLock { $0 ?? [:] }
    }

    /// The refresh token stored for `account` (this client's newer in-memory one, if a store
    /// write failed), or `nil` when it is not signed in.
    func refreshToken(for account: LatchAccount) async throws -> String? {
        merge(try await readStore().accounts)[key(for: account)]?.refreshToken
    }

    func key(for account: LatchAccount) -> String {
        StoredAccount.key(
            server: configuration.serverKey, tenant: configuration.tenant, clientID: configuration.clientID,
            accountID: account.id)
    }

    // MARK: - Silent acquisition

    /// A valid access token for `account`, from memory when it is valid for more than the margin,
    /// else refreshed (one refresh per account at a time, across tasks and, through the store's
    /// lock, across processes). Each decision is logged at debug level with the call's correlation
    /// id (`correlationID`, or a new one), which any refresh sends and any error carries. A cancelled
    /// caller stops waiting at once; the refresh it joined goes on for the others, and its rotated
    /// refresh token is stored.
    func acquire(account: LatchAccount, scopes: [String]?, forceRefresh: Bool, correlationID: UUID?) async throws
        -> LatchTokenResult
    {
        let key = key(for: account)
        let now = configuration.clock()
        if !forceRefresh, let hit = results.withLock({ $0[key] }), isFresh(hit, scopes: scopes, now: now) {
            // The fast path makes no id unless the line is written.
            log(
                "cache_hit", account, "expires_in=\(Int(hit.expiresOn.timeIntervalSince(now)))s",
                (correlationID ?? UUID()).correlationValue)
            return hit
        }
        let id = (correlationID ?? UUID()).correlationValue
        do {
            if let until = throttle.withLock({ $0[key] }), until > now {
                log("throttled", account, "retry_after=\(Int(until.timeIntervalSince(now).rounded(.up)))s", id)
                throw LatchError(
                    code: .tooManyRequests,
                    message: "Silent token requests for this account are throttled: the server asked to retry later.",
                    retryAfter: until.timeIntervalSince(now))
            }
            if memory.withLock({ $0 }) == nil { _ = try await loadedAccounts() }
            let record = try await refreshOnce(
                key: key, scopes: scopes, forceRefresh: forceRefresh, correlationID: id, account: account)
            guard let result = LatchTokenResult(record) else {
                throw LatchError(code: .unexpectedResponse, message: "The refreshed account holds no access token.")
            }
            return result
        } catch let error as LatchError {
            var error = error.correlated(with: id)
            // What an interactive sign-in needs to recover as the same account (the claims
            // challenge, if any, is already on the error).
            if error.code == .interactionRequired, error.loginHint == nil { error.loginHint = account.username }
            throw error
        }
    }

    private func isFresh(_ result: LatchTokenResult, scopes: [String]?, now: Date) -> Bool {
        guard result.expiresOn.timeIntervalSince(now) > configuration.minimumValidity else { return false }
        guard let scopes else { return true }
        return scopes.allSatisfy(result.scopes.contains)
    }

    /// Records `accounts` as the in-memory view and rebuilds the ready-made results.
    func remember(_ accounts: [String: StoredAccount]) {
        memory.withLock { $0 = accounts }
        let built = accounts.compactMapValues(LatchTokenResult.init)
        results.withLock { $0 = built }
    }

    /// Records one account.
    func remember(_ record: StoredAccount, key: String) {
        memory.withLock { $0?[key] = record }
        let result = LatchTokenResult(record)
        results.withLock { $0[key] = result }
    }

    private func usable(_ record: StoredAccount, scopes: [String]?, now: Date) -> LatchTokenResult? {
        guard let expiry = record.accessTokenExpiresAt, expiry.timeIntervalSince(now) > configuration.minimumValidity,
            record.refreshToken != nil || record.accessToken != nil
        else { return nil }
        if let scopes, !Set(scopes).isSubset(of: Set(record.scopes)) { return nil }
        return LatchTokenResult(record)
    }

    /// Joins the refresh in flight for the same account, scopes and force flag, or starts one;
    /// callers asking for something else queue behind it on the store lock and reuse its result
    /// when it fits them.
    private func refreshOnce(
        key: String, scopes: [String]?, forceRefresh: Bool, correlationID: String, account: LatchAccount
    ) async throws -> StoredAccount {
        let flightKey = "\(key)|\(scopes?.sorted().joined(separator: " ") ?? "*")|\(forceRefresh)"
        let (task, joined): (Task<StoredAccount, any Error>, Bool) = inFlight.withLock { running in
            if let existing = running[flightKey] { return (existing, true) }
            let generation = generation(of: key)
            let task = Task { [self] in
                defer { _ = inFlight.withLock { $0.removeValue(forKey: flightKey) } }
                do {
                    return try await refreshUnderLock(
                        key: key, scopes: scopes, forceRefresh: forceRefresh, generation: generation,
                        correlationID: correlationID, account: account)
                } catch {
                    if signedOut(key, since: generation) { throw Self.signedOutDuringRefresh() }
                    throw error
                }
            }
            running[flightKey] = task
            return (task, false)
        }
        if joined { log("refresh_joined", account, "reason=in_flight", correlationID) }
        do {
            return try await CancellationRace.value(of: task, cancelsTask: false)
        } catch is CancellationError {
            throw ServerErrorMapping.cancelled(nil, correlationID: correlationID)
        }
    }

    /// Writes one debug line about a silent-acquisition decision (never a token).
    private func log(
        _ decision: String, _ account: LatchAccount, _ detail: @autoclosure () -> String,
        _ correlationID: @autoclosure () -> String
    ) {
        configuration.logger.log(
            .debug, "token decision=\(decision) account=\(account.id) \(detail()) correlation_id=\(correlationID())")
    }

    private func refreshUnderLock(
        key: String, scopes: [String]?, forceRefresh: Bool, generation: SessionGeneration, correlationID: String,
        account: LatchAccount
    ) async throws -> StoredAccount {
        let store = configuration.credentialStore
        let startedAt = configuration.clock()
        return try await storeCall {
            try await store.withExclusiveLock { [self] in
                var generation = generation
                let latest = self.generation(of: key)
                if latest.number != generation.number {
                    // Signed out while this refresh waited for the lock: send nothing.
                    guard !latest.isSignedOut else { throw Self.signedOutDuringRefresh() }
                    generation = latest  // signed in again meanwhile: this refresh serves the new session
                }
                var snapshot = try await readStore()
                guard var record = snapshot.accounts[key] else {
                    log("not_signed_in", account, "reason=not_stored", correlationID)
                    results.withLock { _ = $0.removeValue(forKey: key) }
                    memory.withLock { _ = $0?.removeValue(forKey: key) }
                    publish(before: snapshot, after: snapshot)
                    throw LatchError(code: .interactionRequired, message: "No account is signed in; sign in first.")
                }
                // A refresh whose store write failed is only in memory: its refresh token is the live one.
                if let newer = memory.withLock({ $0?[key] }), newer.updatedAt > record.updatedAt {
                    record = newer
                    snapshot.accounts[key] = newer
                }
                // Another process may have refreshed while this one waited for the lock.
                if record.updatedAt > startedAt || !forceRefresh,
                    usable(record, scopes: scopes, now: configuration.clock()) != nil
                {
                    log("from_store", account, "reason=fresh_in_store", correlationID)
                    remember(record, key: key)
                    publish(before: snapshot, after: snapshot)
                    return record
                }
                guard let refreshToken = record.refreshToken else {
                    log("not_signed_in", account, "reason=no_refresh_token", correlationID)
                    remember(record, key: key)
                    throw LatchError(code: .interactionRequired, message: "The session ended; sign in again.")
                }
                log(
                    "refresh", account, "reason=\(refreshReason(record, scopes: scopes, forceRefresh: forceRefresh))",
                    correlationID)
                let reply: NativeAuthReply
                do {
                    // Retried only when the server provably did not process it (no connection, 429,
                    // 503), within the retry policy's bounds; the store lock is held meanwhile. A
                    // sign-out cancels it, retries included.
                    if record.firebaseUser != nil {
                        // A Firebase-style session refreshes at securetoken, sent once.
                        reply = try await FirebaseChannel(configuration: configuration).refresh(
                            refreshToken, correlationID: correlationID)
                    } else {
                        reply = try await channel.post(
                            "oauth2/v2.0/token",
                            [
                                "grant_type": "refresh_token", "refresh_token": refreshToken,
                                "scope": scopes?.joined(separator: " "),
                            ], .stateChanging, correlationID: correlationID)
                    }
                } catch let error as LatchError {
                    try await settle(
                        error, record: record, key: key, snapshot: snapshot, generation: generation,
                        correlationID: correlationID, account: account)
                    throw error
                }
                let before = snapshot
                record.apply(reply, now: configuration.clock())
                snapshot.accounts[key] = record
                guard commit(record, key: key, generation: generation, before: before, after: snapshot) else {
                    throw Self.signedOutDuringRefresh()
                }
                await persist(snapshot, what: "refreshed tokens", correlationID: correlationID)
                if let scopes {
                    // Stored all the same: a later call for the granted scopes is a cache hit.
                    try DeclinedScopes.check(requested: scopes, granted: reply.scope)
                }
                return record
            }
        }
    }

    /// Acts on a failed refresh. Only an authoritative answer ends the session (the refresh token
    /// revoked, reused, expired or unknown; the user disabled or deleted): the tokens are dropped
    /// and the account kept. A network failure, a timeout or a 5xx changes nothing stored; a
    /// network failure is reported as offline. After a 429, or a 5xx that says when to come back,
    /// silent calls are answered locally until then.
    /// - Throws: the sign-out error when the session was signed out meanwhile (nothing is written).
    private func settle(
        _ error: LatchError, record: StoredAccount, key: String, snapshot: CredentialSnapshot, generation: SessionGeneration,
        correlationID: String, account: LatchAccount
    ) async throws {
        guard self.generation(of: key).number == generation.number else { throw Self.signedOutDuringRefresh() }
        if let reason = LatchAuthEvent.SessionEndReason.ending(error) {
            log("session_ended", account, "error=\(error.code.name) reason=\(reason.rawValue)", correlationID)
            var ended = record
            ended.refreshToken = nil
            ended.accessToken = nil
            ended.accessTokenExpiresAt = nil
            ended.sessionEndReason = reason.rawValue
            ended.updatedAt = configuration.clock()
            var after = snapshot
            after.accounts[key] = ended
            guard commit(ended, key: key, generation: generation, before: snapshot, after: after) else {
                throw Self.signedOutDuringRefresh()
            }
            await persist(after, what: "the ended session", correlationID: correlationID)
        } else if error.code == .tooManyRequests || (error.code == .serverError && error.retryAfter != nil) {
            // As MSAL does: after a 429, or a 5xx that says when to come back, answer silent calls
            // locally until then (default 60 s, at most an hour).
            let seconds = min(error.retryAfter ?? 60, 3600)
            log("throttle", account, "for=\(Int(seconds.rounded(.up)))s error=\(error.code.name)", correlationID)
            throttle.withLock { $0[key] = configuration.clock().addingTimeInterval(seconds) }
        } else if error.code == .networkError {
            log("offline", account, "error=\(error.code.name)", correlationID)
            authState.offline(LatchAccount(record))
        }
    }

    /// Records a refresh's outcome in memory and tells the listeners, if the session it started
    /// under is still this client's: checked and applied under one lock, so a sign-out either
    /// comes before (and the refresh changes nothing) or after.
    private func commit(
        _ record: StoredAccount, key: String, generation: SessionGeneration, before: CredentialSnapshot,
        after: CredentialSnapshot
    ) -> Bool {
        generations.withLock { generations in
            guard (generations[key] ?? SessionGeneration()).number == generation.number else { return false }
            remember(record, key: key)
            publish(before: before, after: after)
            return true
        }
    }

    // MARK: - Writing

    /// The key of `username`'s device token in ``CredentialSnapshot``: server, tenant and username.
    func deviceTokenKey(username: String) -> String {
        "\(configuration.serverKey)|\(configuration.tenant)|\(username)"
    }

    /// The device token kept for `username` on this server and tenant; `nil` when there is none or
    /// the store cannot be read (the sign-in then goes ahead without it).
    func deviceToken(username: String) async -> String? {
        let store = configuration.credentialStore
        return try? await store.read().deviceTokens?[deviceTokenKey(username: username)]
    }

    /// Stores the tokens of a finished sign-in, and the device token that came with them, as a new
    /// session that becomes the current account, and returns the result.
    /// - Parameter firebaseUser: the profile of a Firebase-style sign-in, kept with the account.
    func save(_ reply: NativeAuthReply, username: String, firebaseUser: FirebaseWire.UserRecord? = nil) async throws
        -> LatchTokenResult
    {
        guard let idToken = reply.idToken ?? reply.accessToken, let claims = LatchClaims(token: idToken) else {
            throw LatchError(code: .malformedJWT, message: "The server's token could not be decoded.")
        }
        var record = StoredAccount(
            accountID: claims.subject, username: claims.preferredUsername ?? claims.email ?? username,
            server: configuration.serverKey, tenant: configuration.tenant, clientID: configuration.clientID,
            idToken: nil, accessToken: nil, accessTokenExpiresAt: nil, scopes: [], refreshToken: nil,
            updatedAt: configuration.clock())
        record.apply(reply, now: configuration.clock())
        record.sessionID = UUID().uuidString.lowercased()
        record.firebaseUser = firebaseUser
        let key = record.key
        let store = configuration.credentialStore
        let saved = record
        let client = clientKey
        let device = reply.deviceToken.map { (key: deviceTokenKey(username: username), token: $0) }
        try await storeCall {
            try await store.withExclusiveLock { [self] in
                var snapshot = try await readStore()
                let before = snapshot
                snapshot.accounts[key] = saved
                snapshot.setCurrentAccount(key, client: client)
                if let device {
                    snapshot.deviceTokens = (snapshot.deviceTokens ?? [:]).merging([device.key: device.token]) { $1 }
                }
                try await store.write(snapshot)
                generations.withLock { generations in
                    generations[key] = SessionGeneration(number: (generations[key]?.number ?? 0) &+ 1, isSignedOut: false)
                    remember(snapshot.accounts)
                    publish(before: before, after: snapshot)
                }
            }
        }
        throttle.withLock { _ = $0.removeValue(forKey: key) }
        guard let result = LatchTokenResult(record) else {
            throw LatchError(code: .unexpectedResponse, message: "The token response held no access token.")
        }
        return result
    }

    /// Signs `account` out on this device: a refresh of it in flight is cancelled and will write
    /// nothing, then the account and its tokens are removed from the store (its device token
    /// stays: it marks the device, not the session). Does not wait for the refresh's answer.
    /// - Returns: the record removed (its tokens are what a revocation sends), or `nil` when none
    ///   was stored.
    func signOut(_ account: LatchAccount) async throws -> StoredAccount? {
        let key = key(for: account)
        generations.withLock { generations in
            generations[key] = SessionGeneration(number: (generations[key]?.number ?? 0) &+ 1, isSignedOut: true)
        }
        let refreshes = inFlight.withLock { running in running.filter { $0.key.hasPrefix(key + "|") }.map(\.value) }
        for refresh in refreshes { refresh.cancel() }
        let store = configuration.credentialStore
        let client = clientKey
        return try await storeCall {
            try await store.withExclusiveLock { [self] in
                var snapshot = try await readStore()
                let before = snapshot
                let stored = snapshot.accounts.removeValue(forKey: key)
                if before.currentAccountKey(client: client) == key { snapshot.setCurrentAccount(nil, client: client) }
                try await store.write(snapshot)
                let kept = memory.withLock { $0?[key] }
                remember(snapshot.accounts)
                publish(before: before, after: snapshot)
                guard let stored else { return kept }
                // A refresh whose store write failed left the live refresh token in memory only.
                if let kept, kept.updatedAt > stored.updatedAt { return kept }
                return stored
            }
        }
    }

    /// Writes a snapshot whose change the server has already made (a rotated refresh token, an
    /// ended session). A failure is logged, not thrown: the in-memory copy stays authoritative and
    /// the next write under the lock carries it, so the live refresh token is never lost.
    private func persist(_ snapshot: CredentialSnapshot, what: String, correlationID: String) async {
        do {
            try await configuration.credentialStore.write(snapshot)
        } catch {
            configuration.logger.log(.error, "could not store \(what); kept in memory: \(error) correlation_id=\(correlationID)")
        }
    }

    /// Why a refresh is needed, for the log: forced, missing or expiring access token, or scopes
    /// the cached one lacks.
    private func refreshReason(_ record: StoredAccount, scopes: [String]?, forceRefresh: Bool) -> String {
        if forceRefresh { return "forced" }
        guard let expiry = record.accessTokenExpiresAt, record.accessToken != nil else { return "no_access_token" }
        if expiry.timeIntervalSince(configuration.clock()) <= configuration.minimumValidity { return "expiring" }
        return "scopes"
    }

    func readStore() async throws -> CredentialSnapshot {
        let store = configuration.credentialStore
        return try await storeCall { try await store.read() }
    }

    /// Runs a store operation, turning ``CredentialStoreError`` into ``LatchError/Code/credentialStoreError``.
    func storeCall<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as CredentialStoreError {
            throw LatchError(
                code: .credentialStoreError, message: "The credential store failed: \(error.message)",
                underlyingError: error)
        } catch let error as CancellationError {
            throw ServerErrorMapping.cancelled(error, correlationID: nil)
        }
    }
}

extension StoredAccount {
    /// Updates the tokens from a token response (RFC 6749 § 5.1); a missing refresh token keeps the old one.
    mutating func apply(_ reply: NativeAuthReply, now: Date) {
        if let idToken = reply.idToken { self.idToken = idToken }
        accessToken = reply.accessToken
        accessTokenExpiresAt = reply.expiresIn.map { now.addingTimeInterval(TimeInterval($0)) }
        if let scope = reply.scope { scopes = scope.split(separator: " ").map(String.init) }
        if let refreshToken = reply.refreshToken { self.refreshToken = refreshToken }
        updatedAt = now
    }
}
