import Foundation

/// One account of an import (`accounts:batchCreate`, `reference/firebase-auth-protocol.md` § 6),
/// as firebase-admin's `ImportUserRecord` describes it.
public struct ImportedAccount: Sendable {
    /// The account id (`localId`), required.
    public var id: String?
    /// The e-mail address.
    public var email: String?
    /// Whether the address counts as verified.
    public var emailVerified = false
    /// The display name.
    public var displayName: String?
    /// The photo URL.
    public var photoURL: String?
    /// Whether the account is disabled.
    public var disabled = false
    /// Developer claims as JSON text (``CustomClaims``).
    public var customClaims: String?
    /// When the account was created elsewhere.
    public var createdAt: Date?
    /// When it last signed in elsewhere.
    public var lastLoginAt: Date?
    /// The password hash made elsewhere (decoded from base64), under the request's ``ImportHashOptions``.
    public var passwordHash: [UInt8]?
    /// Its salt.
    public var salt: [UInt8]?

    /// An empty account.
    public init() {}

    /// Why one account of an import was not imported; the others are imported regardless.
    public enum Problem: Error, Sendable, Equatable {
        /// No `localId`, or one longer than 128 characters.
        case invalidID
        /// An account with this id exists.
        case duplicateID
        /// The id appears earlier in the same request.
        case repeatedID
        /// The e-mail address is malformed.
        case invalidEmail
        /// Another account has this e-mail address.
        case emailExists
        /// The custom claims are refused; carries why.
        case claims(AccountAdminFailure)
        /// The password hash cannot be imported (its algorithm or parameters are not supported, or
        /// it has no salt where one is needed); carries why, without any secret or hash byte.
        case unsupportedHash(String)
    }

    /// One refused account: its index in the request and why.
    public struct Failure: Sendable, Equatable {
        /// The index in the request's `users`.
        public var index: Int
        /// Why it was refused.
        public var problem: Problem
    }
}
