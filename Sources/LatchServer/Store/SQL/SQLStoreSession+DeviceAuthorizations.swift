import Foundation

// MARK: - Device authorizations

extension SQLStoreSession {
    func deviceAuthorization(deviceCodeHash: String) throws -> DeviceAuthorization? {
        try queryOne("SELECT * FROM device_authorizations WHERE device_code_hash = ?", [.text(deviceCodeHash)])
            .map(decodeDeviceAuthorization)
    }

    func deviceAuthorization(userCodeHash: String, tenantID: String) throws -> DeviceAuthorization? {
        try queryOne(
            "SELECT * FROM device_authorizations WHERE tenant_id = ? AND user_code_hash = ?",
            [.text(tenantID), .text(userCodeHash)]
        ).map(decodeDeviceAuthorization)
    }

    func insert(_ authorization: DeviceAuthorization) throws {
        try run(
            """
            INSERT INTO device_authorizations
                (device_code_hash, user_code_hash, tenant_id, client_id, scopes, status, user_id, auth_time, amr,
                 interval_seconds, last_polled_at, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(authorization.deviceCodeHash), .text(authorization.userCodeHash), .text(authorization.tenantID),
                .text(authorization.clientID), SQLValue(words: authorization.scopes),
                .text(authorization.status.rawValue), authorization.userID.map { .text($0) } ?? .null,
                SQLValue(authorization.authTime), SQLValue(words: authorization.amr),
                .integer(Int64(authorization.interval)), SQLValue(authorization.lastPolledAt),
                SQLValue(authorization.createdAt), SQLValue(authorization.expiresAt),
            ])
    }

    func decideDeviceAuthorization(
        userCodeHash: String, tenantID: String, decision: DeviceAuthorization.Decision, at date: Date
    ) throws -> Bool {
        let status: DeviceAuthorization.Status
        var userID = SQLValue.null
        var authTime = SQLValue.null
        var amr = SQLValue(words: [])
        switch decision {
        case .approved(let user, let time, let methods):
            status = .approved
            userID = .text(user)
            authTime = SQLValue(time)
            amr = SQLValue(words: methods)
        case .denied:
            status = .denied
        }
        return try queryOne(
            """
            UPDATE device_authorizations SET status = ?, user_id = ?, auth_time = ?, amr = ?
            WHERE tenant_id = ? AND user_code_hash = ? AND status = 'pending' AND expires_at > ?
            RETURNING device_code_hash
            """,
            [.text(status.rawValue), userID, authTime, amr, .text(tenantID), .text(userCodeHash), SQLValue(date)])
            != nil
    }

    func recordDevicePoll(deviceCodeHash: String, at date: Date, interval: Int) throws {
        try run(
            "UPDATE device_authorizations SET last_polled_at = ?, interval_seconds = ? WHERE device_code_hash = ?",
            [SQLValue(date), .integer(Int64(interval)), .text(deviceCodeHash)])
    }

    func consumeApprovedDeviceAuthorization(deviceCodeHash: String) throws -> DeviceAuthorization? {
        try queryOne(
            "DELETE FROM device_authorizations WHERE device_code_hash = ? AND status = 'approved' RETURNING *",
            [.text(deviceCodeHash)]
        ).map(decodeDeviceAuthorization)
    }

    private func decodeDeviceAuthorization(_ row: SQLRow) throws -> DeviceAuthorization {
        guard let status = DeviceAuthorization.Status(rawValue: try row.requiredString("status")),
            let interval = row.int("interval_seconds")
        else { throw StoreError.corrupt("device_authorizations") }
        return DeviceAuthorization(
            deviceCodeHash: try row.requiredString("device_code_hash"),
            userCodeHash: try row.requiredString("user_code_hash"), tenantID: try row.requiredString("tenant_id"),
            clientID: try row.requiredString("client_id"), scopes: row.words("scopes"), status: status,
            userID: row.string("user_id"), authTime: row.date("auth_time"), amr: row.words("amr"),
            interval: Int(interval), lastPolledAt: row.date("last_polled_at"),
            createdAt: try row.requiredDate("created_at"), expiresAt: try row.requiredDate("expires_at"))
    }
}
