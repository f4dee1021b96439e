import Foundation

/// What an out-of-band code does once applied (`reference/firebase-auth-protocol.md` § 2,
/// `accounts:sendOobCode`); the account API names them by its `requestType` values.
public enum OobCodeKind: String, Sendable, CaseIterable, Codable {
    /// Proves the account's current address: applying it marks the address verified.
    case verifyEmail = "verify_email"
    /// Sets a new password for the account of the address.
    case passwordReset = "password_reset"
    /// Proves a new address: applying it makes it the account's address, verified.
    case verifyAndChangeEmail = "verify_and_change_email"
    /// Signs in with the address alone (e-mail link sign-in), creating the account when missing.
    case emailSignIn = "email_sign_in"
}

/// A stored out-of-band code: only the SHA-256 of the random code is kept, with what it is bound
/// to (tenant, request kind, account, address and, for an address change, the new address).
/// A code is single use: applying it deletes it in the same write.
public struct OobCode: Sendable, Equatable {
    /// Hex SHA-256 of the code.
    public var codeHash: String
    /// The tenant it belongs to; it is refused in any other.
    public var tenantID: String
    /// The client whose request issued it (for audit; any client of the tenant may apply it).
    public var clientID: String
    /// What applying it does.
    public var kind: OobCodeKind
    /// The account it is for; `nil` for an e-mail sign-in code to an address without an account.
    public var userID: String?
    /// The address it was issued for (the account's current address, or the sign-in address).
    public var email: String
    /// The address an address change moves the account to.
    public var newEmail: String?
    /// Where the app wants the user to land afterwards (`continueUrl`), if given.
    public var continueURL: String?
    /// When it was issued.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date

    /// Creates a record.
    public init(
        codeHash: String, tenantID: String, clientID: String, kind: OobCodeKind, userID: String?, email: String,
        newEmail: String?, continueURL: String?, createdAt: Date, expiresAt: Date
    ) {
        self.codeHash = codeHash
        self.tenantID = tenantID
        self.clientID = clientID
        self.kind = kind
        self.userID = userID
        self.email = email
        self.newEmail = newEmail
        self.continueURL = continueURL
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
