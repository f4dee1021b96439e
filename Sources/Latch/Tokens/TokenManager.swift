import Foundation

/// Keeps tokens: an in-memory copy of the credential store for the fast path, the store for
/// persistence, one refresh in flight per account, and a throttle after `429` answers.
final class TokenManager: Sendable {
    private let configuration: LatchConfiguration
    private let channel: NativeAuthChannel
    /// Accounts by key; `nil` until first loaded from the store.
    private let memory = Locked<[String: StoredAccount]?>(nil)
    /// Ready-made results of the accounts in `memory` that hold an access token, so a cache hit
    /// decodes nothing.
    private let results = Locked<[String: LatchTokenResult]>([:])
    private let throttle = Locked<[String: Date]>([:])
    private let inFlight = Locked<[String: Task<StoredAccount, any Error>]>([:])

    init(configuration: LatchConfiguration, channel: NativeAuthChannel) {
        self.configuration = configuration
        self.channel = channel
    }

    // MARK: - Reading

    /// Every stored account of this server, tenant and client, as the store holds them now: another
    /// client or process sharing the store may have refreshed, revoked or removed one since this
    /// client last looked. The in-memory copy is brought up to date too (keeping only records this
    /// client wrote after the read).
    func accounts() async throws -> [StoredAccount] {
        let snapshot = try await readStore()
        var merged = snapshot.accounts
        let current = memory.withLock { $0 } ?? [:]
        for (key, record) in current {
            if let stored = merged[key], stored.updatedAt < record.updatedAt { merged[key] = record }
        }
        remember(merged)
        return merged.values.filter(belongsHere).sorted { $0.username < $1.username }
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

    func key(for account: LatchAccount) -> String {
        StoredAccount.key(
            server: configuration.serverKey, tenant: configuration.tenant, clientID: configuration.clientID,
            accountID: account.id)
    }

    // MARK: - Silent acquisition

    /// A valid access token for `account`, from memory when it is valid for more than the margin,
    /// else refreshed (one refresh per account at a time, across tasks and, through the store's
    /// lock, across processes). Each decision is logged at debug level with the call's correlation
    /// id (`correlationID`, or a new one), which any refresh sends and any error carries.
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
            throw error.correlated(with: id)
        }
    }

    private func isFresh(_ result: LatchTokenResult, scopes: [String]?, now: Date) -> Bool {
        guard result.expiresOn.timeIntervalSince(now) > configuration.minimumValidity else { return false }
        guard let scopes else { return true }
        return scopes.allSatisfy(result.scopes.contains)
    }

    /// Records `accounts` as the in-memory view and rebuilds the ready-made results.
    private func remember(_ accounts: [String: StoredAccount]) {
        memory.withLock { $0 = accounts }
        let built = accounts.compactMapValues(LatchTokenResult.init)
        results.withLock { $0 = built }
    }

    /// Records one account.
    private func remember(_ record: StoredAccount, key: String) {
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
            let task = Task { [self] in
                defer { _ = inFlight.withLock { $0.removeValue(forKey: flightKey) } }
                return try await refreshUnderLock(
                    key: key, scopes: scopes, forceRefresh: forceRefresh, correlationID: correlationID, account: account)
            }
            running[flightKey] = task
            return (task, false)
        }
        if joined { log("refresh_joined", account, "reason=in_flight", correlationID) }
        return try await task.value
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
        key: String, scopes: [String]?, forceRefresh: Bool, correlationID: String, account: LatchAccount
    ) async throws -> StoredAccount {
        let store = configuration.credentialStore
        let startedAt = configuration.clock()
        return try await storeCall {
            try await store.withExclusiveLock { [self] in
                var snapshot = try await readStore()
                guard var record = snapshot.accounts[key] else {
                    log("not_signed_in", account, "reason=not_stored", correlationID)
                    results.withLock { _ = $0.removeValue(forKey: key) }
                    memory.withLock { _ = $0?.removeValue(forKey: key) }
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
                    // 503), within the retry policy's bounds; the store lock is held meanwhile.
                    reply = try await channel.post(
                        "oauth2/v2.0/token",
                        ["grant_type": "refresh_token", "refresh_token": refreshToken, "scope": scopes?.joined(separator: " ")],
                        .stateChanging, correlationID: correlationID)
                } catch let error as LatchError {
                    if error.code == .interactionRequired {
                        log("session_ended", account, "error=\(error.code.name)", correlationID)
                        record.refreshToken = nil
                        record.accessToken = nil
                        record.accessTokenExpiresAt = nil
                        record.updatedAt = configuration.clock()
                        snapshot.accounts[key] = record
                        remember(record, key: key)
                        await persist(snapshot, what: "the ended session", correlationID: correlationID)
                    } else if error.code == .tooManyRequests || (error.code == .serverError && error.retryAfter != nil) {
                        // As MSAL does: after a 429, or a 5xx that says when to come back, answer
                        // silent calls locally until then (default 60 s, at most an hour).
                        let seconds = min(error.retryAfter ?? 60, 3600)
                        log("throttle", account, "for=\(Int(seconds.rounded(.up)))s error=\(error.code.name)", correlationID)
                        let until = configuration.clock().addingTimeInterval(seconds)
                        throttle.withLock { $0[key] = until }
                    }
                    throw error
                }
                record.apply(reply, now: configuration.clock())
                snapshot.accounts[key] = record
                remember(record, key: key)
                await persist(snapshot, what: "refreshed tokens", correlationID: correlationID)
                return record
            }
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

    /// Stores the tokens of a finished sign-in, and the device token that came with them, and
    /// returns the result.
    func save(_ reply: NativeAuthReply, username: String) async throws -> LatchTokenResult {
        guard let idToken = reply.idToken ?? reply.accessToken, let claims = LatchClaims(token: idToken) else {
            throw LatchError(code: .malformedJWT, message: "The server's token could not be decoded.")
        }
        var record = StoredAccount(
            accountID: claims.subject, username: claims.preferredUsername ?? claims.email ?? username,
            server: configuration.serverKey, tenant: configuration.tenant, clientID: configuration.clientID,
            idToken: nil, accessToken: nil, accessTokenExpiresAt: nil, scopes: [], refreshToken: nil,
            updatedAt: configuration.clock())
        record.apply(reply, now: configuration.clock())
        let key = record.key
        let store = configuration.credentialStore
        let saved = record
        let device = reply.deviceToken.map { (key: deviceTokenKey(username: username), token: $0) }
        try await storeCall {
            try await store.withExclusiveLock { [self] in
                var snapshot = try await readStore()
                snapshot.accounts[key] = saved
                if let device {
                    snapshot.deviceTokens = (snapshot.deviceTokens ?? [:]).merging([device.key: device.token]) { $1 }
                }
                try await store.write(snapshot)
                remember(snapshot.accounts)
            }
        }
        throttle.withLock { _ = $0.removeValue(forKey: key) }
        guard let result = LatchTokenResult(record) else {
            throw LatchError(code: .unexpectedResponse, message: "The token response held no access token.")
        }
        return result
    }

    /// Removes an account and its tokens; its device token stays (it marks the device, not the
    /// session).
    func remove(_ account: LatchAccount) async throws {
        let key = key(for: account)
        let store = configuration.credentialStore
        try await storeCall {
            try await store.withExclusiveLock { [self] in
                var snapshot = try await readStore()
                snapshot.accounts.removeValue(forKey: key)
                try await store.write(snapshot)
                remember(snapshot.accounts)
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

    private func readStore() async throws -> CredentialSnapshot {
        let store = configuration.credentialStore
        return try await storeCall { try await store.read() }
    }

    /// Runs a store operation, turning ``CredentialStoreError`` into ``LatchError/Code/credentialStoreError``.
    private func storeCall<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as CredentialStoreError {
            throw LatchError(
                code: .credentialStoreError, message: "The credential store failed: \(error.message)",
                underlyingError: error)
        } catch let error as CancellationError {
            throw LatchError(code: .userCanceled, message: "The operation was cancelled.", underlyingError: error)
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
