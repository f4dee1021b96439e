import Foundation

/// One user as the administration calls answer it: the `UserRecord` fields firebase-admin reads
/// (`reference/firebase-auth-protocol.md` § 6): `validSince` in seconds and `createdAt` /
/// `lastLoginAt` in milliseconds, as strings; `lastRefreshAt` in RFC 3339; `customAttributes` as
/// JSON text; `passwordHash` and `salt` only as markers that a password exists.
enum FirebaseUserRecord {
    /// The marker sent in place of a password hash or salt.
    static let redacted = "UkVEQUNURUQ="

    /// The record of `user`; `tenantID` is set on tenant-scoped paths.
    static func record(_ user: User, tenantID: String? = nil) -> [String: any Sendable] {
        var record = FirebaseAPI.userInfo(user)
        if let lastLogin = user.lastLoginAt {
            record["lastLoginAt"] = String(Int(lastLogin.timeIntervalSince1970 * 1000))
        }
        if let lastRefresh = user.lastRefreshAt {
            record["lastRefreshAt"] = lastRefresh.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        }
        if let claims = user.customClaims { record["customAttributes"] = claims }
        if user.passwordHash != nil {
            record["passwordHash"] = redacted
            record["salt"] = redacted
        }
        if let tenantID { record["tenantId"] = tenantID }
        return record
    }
}
