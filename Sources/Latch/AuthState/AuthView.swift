import Foundation

/// What one client knows about its sessions at one moment: the accounts of its server, tenant
/// and client id in a credential snapshot, and which of them is current. Two views differ by the
/// events that lead from one to the other (``events(to:)``), so every path that learns a new
/// snapshot (its own write, or a change another process made) reports it the same way.
struct AuthView: Sendable {
    /// One stored session.
    struct Session: Sendable {
        let account: LatchAccount
        let sessionID: String?
        /// Tokens are still held (an ended session keeps the account, without tokens).
        let isLive: Bool
        /// Changes when the tokens do (a hash, so no token is kept here).
        let tokens: Int
        let endReason: String?
    }

    /// Sessions by account key.
    let sessions: [String: Session]
    /// The key of the current account, if any.
    let currentKey: String?

    init(_ snapshot: CredentialSnapshot, client: String) {
        var sessions: [String: Session] = [:]
        for (key, record) in snapshot.accounts
        where StoredAccount.clientKey(server: record.server, tenant: record.tenant, clientID: record.clientID) == client {
            sessions[key] = Session(
                account: LatchAccount(record), sessionID: record.sessionID,
                isLive: record.refreshToken != nil || record.accessToken != nil,
                tokens: Self.stamp(record), endReason: record.sessionEndReason)
        }
        self.sessions = sessions
        currentKey = snapshot.currentAccountKey(client: client).flatMap { sessions[$0] == nil ? nil : $0 }
    }

    private static func stamp(_ record: StoredAccount) -> Int {
        var hasher = Hasher()
        hasher.combine(record.accessToken)
        hasher.combine(record.refreshToken)
        return hasher.finalize()
    }

    /// The current account.
    var current: LatchAccount? { currentKey.flatMap { sessions[$0]?.account } }

    /// What ``LatchClient/authStateChanges`` reports: which account is current and whether its
    /// session is live. A refresh changes neither.
    var currentState: CurrentState? {
        current.map { CurrentState(id: $0.id, sessionState: $0.sessionState) }
    }

    /// The part of the current account that ``LatchClient/authStateChanges`` compares.
    struct CurrentState: Equatable {
        let id: String
        let sessionState: LatchAccount.SessionState
    }

    /// The events that lead from this view to `new`, in account-key order.
    func events(to new: AuthView) -> [LatchAuthEvent] {
        var events: [LatchAuthEvent] = []
        for key in Set(sessions.keys).union(new.sessions.keys).sorted() {
            switch (sessions[key], new.sessions[key]) {
            case (let old?, nil):
                events.append(.signedOut(old.account))
            case (nil, let added?):
                events.append(.signedIn(added.account))
            case (let old?, let now?):
                if old.sessionID != now.sessionID {
                    events.append(.signedIn(now.account))
                } else if old.isLive && !now.isLive {
                    let reason = now.endReason.map(LatchAuthEvent.SessionEndReason.init(rawValue:)) ?? .unknown
                    events.append(.sessionEnded(now.account, reason: reason))
                } else if !old.isLive && now.isLive {
                    events.append(.signedIn(now.account))
                } else if now.isLive && now.tokens != old.tokens {
                    events.append(.tokenRefreshed(now.account))
                }
            case (nil, nil):
                break
            }
        }
        return events
    }
}
