import Foundation

/// The keys of clients that authenticate with `private_key_jwt` (OpenID Connect Core § 9).
public protocol ClientKeyReading {
    /// The registered keys of client `clientID` of `tenantID`, or `nil` when it has none.
    func clientKeys(clientID: String, tenantID: String) throws -> ClientKeys?
}

/// Changes to client keys, and the single-use record of client assertions (RFC 7523 § 3 item 7).
public protocol ClientKeyWriting: ClientKeyReading {
    /// Registers `keys` for their client, replacing any it had.
    func upsert(_ keys: ClientKeys) throws
    /// Records the use of an assertion's `jti`, given as `hash` (the caller hashes it with the
    /// tenant and client), until `expiresAt`; entries expired by `now` are forgotten first.
    /// - Returns: `false`, with nothing changed, when `hash` is recorded already and unexpired
    ///   (a replay). One conditional statement, so of two concurrent uses only one applies.
    func recordAssertionID(_ hash: String, expiresAt: Date, at now: Date) throws -> Bool
}
