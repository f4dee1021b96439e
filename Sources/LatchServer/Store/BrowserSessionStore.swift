import Foundation

/// Hosted-page sign-ins (``BrowserSession``), the authorization codes they issue
/// (``AuthorizationCode``) and the consents users gave third-party clients.
public protocol BrowserSessionReading {
    /// The unexpired sessions of the browser whose cookie hashes to `browserHash`, newest first.
    func browserSessions(browserHash: String, tenantID: String, at date: Date) throws -> [BrowserSession]
    /// The authorization code whose SHA-256 is `hash`, used or not.
    func authorizationCode(hash: String) throws -> AuthorizationCode?
    /// The scopes `userID` consented to for `clientID`, or `nil` when never asked.
    func consentedScopes(userID: String, clientID: String, tenantID: String) throws -> [String]?
}

/// Changes to browser sessions, codes and consents.
public protocol BrowserSessionWriting: BrowserSessionReading {
    /// Adds a session.
    func insert(_ session: BrowserSession) throws
    /// Ends the sessions of `browserHash` (all of them, or only `userID`'s) and returns how many.
    @discardableResult
    func deleteBrowserSessions(browserHash: String, tenantID: String, userID: String?) throws -> Int
    /// Gives the sessions of `previousHash` to `renewedHash`, dropping those of accounts
    /// `renewedHash` has a session of already.
    func moveBrowserSessions(from previousHash: String, to renewedHash: String, tenantID: String) throws
    /// Adds a code; ``StoreError/conflict`` if its hash is taken.
    func insert(_ code: AuthorizationCode) throws
    /// Marks the unused, unexpired code `hash` used by `familyID` in one conditional statement, and
    /// returns it; `nil` when it is unknown, expired, or was used already (by this request's
    /// competitor too): of two concurrent exchanges exactly one gets it.
    func redeemAuthorizationCode(hash: String, familyID: String, at date: Date) throws -> AuthorizationCode?
    /// Records that `userID` consents to `scopes` for `clientID` (replacing an earlier consent).
    func recordConsent(userID: String, clientID: String, tenantID: String, scopes: [String], at date: Date) throws
}
