import Foundation

/// Admin tokens scoped to one tenant: hashes of their secrets, never the secrets.
public protocol AdminTokenReading {
    /// The token whose secret hashes to `secretHash` (revoked or not).
    func adminToken(secretHash: String) throws -> AdminToken?
    /// The token with this id (revoked or not).
    func adminToken(id: String) throws -> AdminToken?
    /// The tokens of a tenant, or of every tenant when `tenantID` is `nil`, oldest first.
    func adminTokens(tenantID: String?) throws -> [AdminToken]
}

/// Changes to admin tokens.
public protocol AdminTokenWriting: AdminTokenReading {
    /// Adds a token; ``StoreError/conflict`` if its id or secret hash is taken.
    func insert(_ token: AdminToken) throws
    /// Revokes the token `id` at `date`, if it is not revoked already.
    /// - Returns: whether it applied.
    func revokeAdminToken(id: String, at date: Date) throws -> Bool
    /// Records that the token `id` opened an endpoint at `date`, unless it is revoked or a use at
    /// or after `recordedBefore` is stored already (so concurrent requests write it once).
    func recordAdminTokenUse(id: String, at date: Date, ifLastUseBefore recordedBefore: Date) throws
}
