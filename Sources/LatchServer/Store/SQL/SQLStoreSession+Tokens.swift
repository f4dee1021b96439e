import Foundation

// MARK: - Token families, refresh tokens, signing keys

extension SQLStoreSession {
    func refreshToken(hash: String) throws -> RefreshTokenRecord? {
        try queryOne("SELECT * FROM refresh_tokens WHERE hash = ?", [.text(hash)]).map { row in
            RefreshTokenRecord(
                hash: try row.requiredString("hash"), familyID: try row.requiredString("family_id"),
                createdAt: try row.requiredDate("created_at"), rotatedAt: row.date("rotated_at"),
                successorHash: row.string("successor_hash"))
        }
    }

    func insert(_ token: RefreshTokenRecord) throws {
        try run(
            "INSERT INTO refresh_tokens (hash, family_id, created_at, rotated_at, successor_hash) VALUES (?, ?, ?, ?, ?)",
            [
                .text(token.hash), .text(token.familyID), SQLValue(token.createdAt), SQLValue(token.rotatedAt),
                token.successorHash.map { .text($0) } ?? .null,
            ])
    }

    func rotateRefreshToken(hash: String, successorHash: String, at date: Date) throws -> Bool {
        try run(
            "UPDATE refresh_tokens SET rotated_at = ?, successor_hash = ? WHERE hash = ? AND rotated_at IS NULL",
            [SQLValue(date), .text(successorHash), .text(hash)])
        return connection.changes == 1
    }

    func replaceUnusedSuccessor(of hash: String, current currentSuccessorHash: String, with newSuccessorHash: String)
        throws -> Bool
    {
        // The delete is the condition: it applies only while `current` is still `hash`'s successor
        // and unused, so a call that does not apply changes nothing.
        try run(
            """
            DELETE FROM refresh_tokens
            WHERE hash = ? AND rotated_at IS NULL
              AND EXISTS (SELECT 1 FROM refresh_tokens AS parent WHERE parent.hash = ? AND parent.successor_hash = ?)
            """,
            [.text(currentSuccessorHash), .text(hash), .text(currentSuccessorHash)])
        guard connection.changes == 1 else { return false }
        try run(
            "UPDATE refresh_tokens SET successor_hash = ? WHERE hash = ? AND successor_hash = ?",
            [.text(newSuccessorHash), .text(hash), .text(currentSuccessorHash)])
        return connection.changes == 1
    }

    func tokenFamily(id: String) throws -> TokenFamily? {
        try queryOne("SELECT * FROM token_families WHERE id = ?", [.text(id)]).map { row in
            TokenFamily(
                id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"),
                clientID: try row.requiredString("client_id"), userID: try row.requiredString("user_id"),
                scopes: row.words("scopes"), amr: row.words("amr"), authTime: try row.requiredDate("auth_time"),
                createdAt: try row.requiredDate("created_at"), expiresAt: try row.requiredDate("expires_at"),
                revokedAt: row.date("revoked_at"))
        }
    }

    func insert(_ family: TokenFamily) throws {
        try run(
            """
            INSERT INTO token_families (id, tenant_id, client_id, user_id, scopes, amr, auth_time, created_at,
                                        expires_at, revoked_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(family.id), .text(family.tenantID), .text(family.clientID), .text(family.userID),
                SQLValue(words: family.scopes), SQLValue(words: family.amr), SQLValue(family.authTime),
                SQLValue(family.createdAt), SQLValue(family.expiresAt), SQLValue(family.revokedAt),
            ])
    }

    func revokeFamily(id: String, at date: Date) throws {
        try run(
            "UPDATE token_families SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            [SQLValue(date), .text(id)])
    }

    func updateFamilyAuthentication(id: String, amr: [String], authTime: Date) throws {
        try run(
            "UPDATE token_families SET amr = ?, auth_time = ? WHERE id = ?",
            [SQLValue(words: amr), SQLValue(authTime), .text(id)])
    }

    func revokeFamilies(userID: String, at date: Date) throws {
        try run(
            "UPDATE token_families SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
            [SQLValue(date), .text(userID)])
    }

    func signingKeys(tenantID: String) throws -> [StoredSigningKey] {
        try query(
            "SELECT * FROM signing_keys WHERE tenant_id = ? ORDER BY activates_at DESC, created_at DESC, id", [.text(tenantID)]
        ).map { row in
            guard let sealed = row.blob("sealed_private_key") else { throw StoreError.corrupt("signing_keys") }
            return StoredSigningKey(
                id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"),
                algorithm: try row.requiredString("algorithm"), sealedPrivateKey: sealed,
                createdAt: try row.requiredDate("created_at"), activatesAt: try row.requiredDate("activates_at"),
                retiredAt: row.date("retired_at"), revokedAt: row.date("revoked_at"))
        }
    }

    func insert(_ key: StoredSigningKey) throws {
        try run(
            """
            INSERT INTO signing_keys (id, tenant_id, algorithm, sealed_private_key, created_at, activates_at, retired_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(key.id), .text(key.tenantID), .text(key.algorithm), .blob(key.sealedPrivateKey),
                SQLValue(key.createdAt), SQLValue(key.activatesAt), SQLValue(key.retiredAt),
            ])
    }

    func revokeSigningKey(id: String, tenantID: String, at date: Date) throws -> Bool {
        try run(
            "UPDATE signing_keys SET revoked_at = ? WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL",
            [SQLValue(date), .text(id), .text(tenantID)])
        return connection.changes == 1
    }

    func retireSigningKeys(tenantID: String, except keepID: String, at date: Date) throws {
        try run(
            "UPDATE signing_keys SET retired_at = ? WHERE tenant_id = ? AND id <> ? AND retired_at IS NULL",
            [SQLValue(date), .text(tenantID), .text(keepID)])
    }
}
