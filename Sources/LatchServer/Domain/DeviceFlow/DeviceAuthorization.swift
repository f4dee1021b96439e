import Foundation

/// One device authorization request of the device authorization grant (RFC 8628 § 3.1–3.5): the
/// device polls with its device code while the user, on another device, enters the user code and
/// approves or denies. Only the SHA-256 of each code is stored.
public struct DeviceAuthorization: Sendable, Equatable {
    /// Where the request stands (RFC 8628 § 3.5: pending, then approved or denied).
    public enum Status: String, Sendable, CaseIterable {
        /// The user has not decided yet; polls answer `authorization_pending`.
        case pending
        /// The user approved; the next poll gets tokens and consumes the request.
        case approved
        /// The user denied; polls answer `access_denied`.
        case denied
    }

    /// The user's decision, applied only to a pending, unexpired request.
    public enum Decision: Sendable, Equatable {
        /// Approved by `userID`, who signed in at `authTime` with the methods `amr` (OIDC Core § 2).
        case approved(userID: String, authTime: Date, amr: [String])
        /// Denied.
        case denied
    }

    /// Hex SHA-256 of the device code.
    public var deviceCodeHash: String
    /// Hex SHA-256 of the normalised user code (``UserCode``).
    public var userCodeHash: String
    /// The tenant it belongs to.
    public var tenantID: String
    /// The client that started it; only this client may poll it.
    public var clientID: String
    /// The granted scopes (RFC 6749 § 3.3), validated at the start.
    public var scopes: [String]
    /// Pending, approved or denied.
    public var status: Status
    /// The approving user, once approved.
    public var userID: String?
    /// When the approving user signed in (the tokens' `auth_time`), once approved.
    public var authTime: Date?
    /// How the approving user signed in (the tokens' `amr`), once approved.
    public var amr: [String]
    /// The minimum seconds between polls (RFC 8628 § 3.2 `interval`); grows by 5 on `slow_down`.
    public var interval: Int
    /// The last poll, for `slow_down` (RFC 8628 § 3.5).
    public var lastPolledAt: Date?
    /// When it was started.
    public var createdAt: Date
    /// When both codes stop working (RFC 8628 § 3.2 `expires_in`).
    public var expiresAt: Date

    /// Creates a record.
    public init(
        deviceCodeHash: String, userCodeHash: String, tenantID: String, clientID: String, scopes: [String],
        status: Status = .pending, userID: String? = nil, authTime: Date? = nil, amr: [String] = [], interval: Int,
        lastPolledAt: Date? = nil, createdAt: Date, expiresAt: Date
    ) {
        self.deviceCodeHash = deviceCodeHash
        self.userCodeHash = userCodeHash
        self.tenantID = tenantID
        self.clientID = clientID
        self.scopes = scopes
        self.status = status
        self.userID = userID
        self.authTime = authTime
        self.amr = amr
        self.interval = interval
        self.lastPolledAt = lastPolledAt
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
