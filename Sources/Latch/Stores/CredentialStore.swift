import Foundation

/// Where the SDK keeps accounts and their tokens between launches.
///
/// Implementations: ``KeychainCredentialStore`` (Apple platforms), ``FileCredentialStore``
/// (Linux: a 0600 file under `~/.local/share/latch`, replaced atomically, guarded by an advisory
/// lock shared with other processes) and ``InMemoryCredentialStore`` (tests).
public protocol CredentialStore: Sendable {
    /// The stored snapshot; empty when nothing is stored yet.
    /// - Throws: ``CredentialStoreError`` when the store cannot be read.
    func read() async throws -> CredentialSnapshot

    /// Replaces the stored snapshot atomically: a reader sees the old or the new one, never a mix.
    /// - Throws: ``CredentialStoreError``.
    func write(_ snapshot: CredentialSnapshot) async throws

    /// Runs `body` while holding the store's exclusive lock. For stores shared between processes
    /// the lock is shared too, so two processes never refresh the same account at once.
    /// - Throws: ``CredentialStoreError`` when the lock cannot be taken, or what `body` throws.
    func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T

    /// A cheap stamp of the stored snapshot that changes whenever it is replaced, by this process
    /// or another. Clients observing auth state poll it to notice a sign-in, refresh or sign-out
    /// made elsewhere. `nil` (the default) means the store cannot tell without being read; the
    /// SDK then reads the snapshot and compares.
    /// - Throws: ``CredentialStoreError`` when the store cannot be examined.
    func revision() async throws -> CredentialStoreRevision?
}

extension CredentialStore {
    /// `nil`: the store has no cheaper change stamp than its content.
    public func revision() async throws -> CredentialStoreRevision? { nil }
}

/// A change stamp of a ``CredentialStore`` (``CredentialStore/revision()``): equal stamps mean the
/// stored snapshot did not change in between.
public struct CredentialStoreRevision: Hashable, Sendable {
    /// The stamp, opaque outside its store.
    public let rawValue: String

    /// Wraps a store's stamp.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

/// A credential-store failure, with the underlying cause (an `errno`, an `OSStatus`, a decoding error).
public struct CredentialStoreError: Error, Sendable, CustomStringConvertible {
    /// What failed, without secrets.
    public let message: String
    /// The underlying cause.
    public let underlyingError: (any Error)?

    /// Creates an error.
    public init(_ message: String, underlyingError: (any Error)? = nil) {
        self.message = message
        self.underlyingError = underlyingError
    }

    /// The message, followed by the underlying error when there is one.
    public var description: String {
        underlyingError.map { "\(message): \($0)" } ?? message
    }
}

/// Everything a credential store holds: the signed-in accounts of one or more clients, and the
/// device tokens the server gave this device.
public struct CredentialSnapshot: Codable, Sendable, Equatable {
    /// Format version of the stored document.
    public var version: Int
    /// Accounts by ``StoredAccount/key``.
    public var accounts: [String: StoredAccount]
    /// Device tokens by server, tenant and username (``TokenManager/deviceTokenKey(username:)``):
    /// the server's mark that this device signed in as that user before, sent with later sign-ins
    /// so a stranger's wrong passwords do not delay them (OWASP "Slow Down Online Guessing Attacks
    /// with Device Cookies"). They mark the device, not a session, so signing out keeps them.
    /// Absent in documents written before device tokens.
    var deviceTokens: [String: String]?
    /// The current account of each client (``StoredAccount/clientKey(server:tenant:clientID:)``):
    /// the account key of its latest sign-in, or `""` once that account signed out. A client
    /// without an entry (documents written before it existed) takes its most recently updated
    /// account.
    var currentAccounts: [String: String]?

    /// An empty snapshot.
    public init(accounts: [String: StoredAccount] = [:]) {
        version = 1
        self.accounts = accounts
    }
}

/// One account's tokens as stored.
public struct StoredAccount: Codable, Sendable, Equatable {
    /// The account id (`sub`).
    public var accountID: String
    /// The username (e-mail).
    public var username: String
    /// The server origin, e.g. `https://id.example.com`.
    public var server: String
    /// The tenant.
    public var tenant: String
    /// The client id the tokens were issued to.
    public var clientID: String
    /// The latest ID token.
    public var idToken: String?
    /// The latest access token.
    public var accessToken: String?
    /// When the access token expires.
    public var accessTokenExpiresAt: Date?
    /// Scopes granted with the access token.
    public var scopes: [String]
    /// The refresh token; `nil` once the session ended.
    public var refreshToken: String?
    /// When these tokens were stored.
    public var updatedAt: Date
    /// A random id of the sign-in these tokens come from: a new sign-in starts a new session, a
    /// refresh keeps it. Absent in documents written before it existed.
    var sessionID: String?
    /// Why the session ended (a ``LatchAuthEvent/SessionEndReason`` raw value), once it has.
    var sessionEndReason: String?
    /// The Identity Toolkit profile of an account signed in through ``LatchClient/firebase``
    /// (`accounts:lookup`); `nil` for a native sign-in. Its presence also sends the account's
    /// refreshes to securetoken rather than the native token endpoint.
    var firebaseUser: FirebaseWire.UserRecord?

    /// The key of this account in ``CredentialSnapshot/accounts``: one entry per server, tenant,
    /// client and account.
    public var key: String { Self.key(server: server, tenant: tenant, clientID: clientID, accountID: accountID) }

    /// Builds an account key.
    public static func key(server: String, tenant: String, clientID: String, accountID: String) -> String {
        "\(clientKey(server: server, tenant: tenant, clientID: clientID))|\(accountID)"
    }

    /// The key of one client (server, tenant and client id) in ``CredentialSnapshot/currentAccounts``.
    static func clientKey(server: String, tenant: String, clientID: String) -> String {
        "\(server)|\(tenant)|\(clientID)"
    }

    /// Creates a record.
    public init(
        accountID: String, username: String, server: String, tenant: String, clientID: String, idToken: String?,
        accessToken: String?, accessTokenExpiresAt: Date?, scopes: [String], refreshToken: String?, updatedAt: Date
    ) {
        self.accountID = accountID
        self.username = username
        self.server = server
        self.tenant = tenant
        self.clientID = clientID
        self.idToken = idToken
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.scopes = scopes
        self.refreshToken = refreshToken
        self.updatedAt = updatedAt
    }
}
