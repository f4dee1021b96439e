import Foundation
import LatchCrypto

/// The browser sessions of the hosted pages (``BrowserSession``): which accounts a browser is
/// signed in with, and signing it out (OpenID Connect RP-Initiated Logout 1.0 § 2).
public struct BrowserSessionService: Sendable {
    let store: any Store
    let clock: any ServerClock

    /// The unexpired sessions of the browser holding `browserCookie`, newest first, each with its
    /// account (one per account: the newest), without accounts deleted since.
    public func accounts(browserCookie: String, tenant: Tenant) throws -> [SignedInAccount] {
        let hash = Digest.sha256Hex(browserCookie)
        return try store.read { tx in
            var seen: Set<String> = []
            var accounts: [SignedInAccount] = []
            for session in try tx.browserSessions(browserHash: hash, tenantID: tenant.id, at: clock.now())
            where seen.insert(session.userID).inserted {
                guard let user = try tx.user(id: session.userID, tenantID: tenant.id) else { continue }
                // A password change or administrator revocation since the sign-in ends it too.
                // Compared in whole seconds, as ID tokens' `iat` is.
                if Int(session.authTime.timeIntervalSince1970) < Int(user.validSince.timeIntervalSince1970) { continue }
                accounts.append(SignedInAccount(session: session, user: user))
            }
            return accounts
        }
    }

    /// Moves the sessions of the browser cookie `previous` to `renewed` (a sign-in renews the
    /// cookie), except the accounts `renewed` has sessions of already.
    public func move(from previous: String, to renewed: String, tenant: Tenant) throws {
        try store.write { tx in
            try tx.moveBrowserSessions(
                from: Digest.sha256Hex(previous), to: Digest.sha256Hex(renewed), tenantID: tenant.id)
        }
    }

    /// Ends every session of the browser holding `browserCookie` and returns the accounts that
    /// were signed in.
    @discardableResult
    public func signOut(browserCookie: String, tenant: Tenant, remoteAddress: String) throws -> [String] {
        let hash = Digest.sha256Hex(browserCookie)
        let now = clock.now()
        return try store.write { tx in
            let users = Array(Set(try tx.browserSessions(browserHash: hash, tenantID: tenant.id, at: now).map(\.userID)))
            try tx.deleteBrowserSessions(browserHash: hash, tenantID: tenant.id, userID: nil)
            for user in users.sorted() {
                try tx.insert(
                    AuditEvent(
                        tenantID: tenant.id, at: now, kind: .browserSignedOut, userID: user, remoteAddress: remoteAddress))
            }
            return users
        }
    }
}
