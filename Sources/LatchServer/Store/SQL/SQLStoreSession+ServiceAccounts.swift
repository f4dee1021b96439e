import Foundation

extension SQLStoreSession {
    func serviceAccountKey(tenantID: String) throws -> StoredServiceAccountKey? {
        try queryOne("SELECT * FROM service_account_keys WHERE tenant_id = ?", [.text(tenantID)]).map(serviceAccountKey)
    }

    func serviceAccountKey(id: String) throws -> StoredServiceAccountKey? {
        try queryOne("SELECT * FROM service_account_keys WHERE id = ?", [.text(id)]).map(serviceAccountKey)
    }

    func insert(_ key: StoredServiceAccountKey) throws {
        try run(
            "INSERT INTO service_account_keys (tenant_id, id, sealed_private_key, created_at) VALUES (?, ?, ?, ?)",
            [.text(key.tenantID), .text(key.id), .blob(key.sealedPrivateKey), SQLValue(key.createdAt)])
    }

    private func serviceAccountKey(_ row: SQLRow) throws -> StoredServiceAccountKey {
        guard let sealed = row.blob("sealed_private_key") else { throw StoreError.corrupt("service_account_keys") }
        return StoredServiceAccountKey(
            id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"), sealedPrivateKey: sealed,
            createdAt: try row.requiredDate("created_at"))
    }
}
