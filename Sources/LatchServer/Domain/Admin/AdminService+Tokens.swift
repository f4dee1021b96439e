import Foundation
import LatchCrypto

// MARK: - Admin tokens scoped to one tenant

extension AdminService {
    /// Makes an admin token that opens only `tenant`'s `/{tenant}/admin/*` endpoints (RFC 6750
    /// bearer token), and records it in the tenant's audit trail.
    /// - Parameters:
    ///   - tenant: the one tenant it opens.
    ///   - label: free text for the operator, at most ``AdminToken/maximumLabelLength`` characters.
    /// - Returns: the stored record and the secret: ``AdminToken/secretPrefix`` and 32 random bytes
    ///   in base64url (RFC 4648 § 5). Only its SHA-256 is stored, so this is the one time it exists.
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` (``AuthParameter/adminTokenLabel``) for a long label.
    public func createAdminToken(tenant: Tenant, label: String) throws -> (token: AdminToken, secret: String) {
        guard label.count <= AdminToken.maximumLabelLength else {
            throw AuthFailure.invalidParameter(.adminTokenLabel)
        }
        let secret = AdminToken.secretPrefix + SecureRandom.token(byteCount: 32)
        let token = AdminToken(
            id: SecureRandom.hex(byteCount: 8), tenantID: tenant.id, label: label,
            secretHash: Digest.sha256Hex(secret), createdAt: clock.now())
        try store.write { tx in
            try tx.insert(token)
            try tx.insert(
                AuditEvent(tenantID: tenant.id, at: token.createdAt, kind: .adminTokenCreated, detail: "id=\(token.id)"))
        }
        return (token, secret)
    }

    /// The admin tokens of `tenant`, or of every tenant when `nil`, oldest first (revoked ones too).
    public func adminTokens(tenant: Tenant?) throws -> [AdminToken] {
        try store.read { try $0.adminTokens(tenantID: tenant?.id) }
    }

    /// Revokes the admin token `id`: from the next request on it opens nothing, in every server
    /// sharing the store.
    /// - Returns: the token as stored afterwards, and whether this call revoked it (`false`: it was
    ///   revoked already).
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` (``AuthParameter/adminTokenID``) for an unknown id.
    @discardableResult
    public func revokeAdminToken(id: String) throws -> (token: AdminToken, revokedNow: Bool) {
        let now = clock.now()
        return try store.write { tx in
            guard var token = try tx.adminToken(id: id) else { throw AuthFailure.invalidParameter(.adminTokenID) }
            guard try tx.revokeAdminToken(id: id, at: now) else { return (token, false) }
            token.revokedAt = now
            try tx.insert(AuditEvent(tenantID: token.tenantID, at: now, kind: .adminTokenRevoked, detail: "id=\(id)"))
            return (token, true)
        }
    }
}
