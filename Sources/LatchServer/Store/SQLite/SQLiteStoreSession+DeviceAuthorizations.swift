import Foundation
import LatchSQLite

// MARK: - Device authorizations

extension SQLiteStoreSession {
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
                .text(authorization.clientID), SQLiteValue(words: authorization.scopes),
                .text(authorization.status.rawValue), authorization.userID.map { .text($0) } ?? .null,
                SQLiteValue(authorization.authTime), SQLiteValue(words: authorization.amr),
                .integer(Int64(authorization.interval)), SQLiteValue(authorization.lastPolledAt),
                SQLiteValue(authorization.createdAt), SQLiteValue(authorization.expiresAt),
            ])
    }

    func decideDeviceAuthorization(
        userCodeHash: String, tenantID: String, decision: DeviceAuthorization.Decision, at date: Date
    ) throws -> Bool {
        let status: DeviceAuthorization.Status
        var userID = SQLiteValue.null
        var authTime = SQLiteValue.null
        var amr = SQLiteValue(words: [])
        switch decision {
        case .approved(let user, let time, let methods):
            status = .approved
            userID = .text(user)
            authTime = SQLiteValue(time)
            amr = SQLiteValue(words: methods)
        case .denied:
            status = .denied
        }
        return try queryOne(
            """
            UPDATE device_authorizations SET status = ?, user_id = ?, auth_time = ?, amr = ?
            WHERE tenant_id = ? AND user_code_hash = ? AND status = 'pending' AND expires_at > ?
            RETURNING device_code_hash
            """,
            [.text(status.rawValue), userID, authTime, amr, .text(tenantID), .text(userCodeHash), SQLiteValue(date)])
            != nil
    }

    func recordDevicePoll(deviceCodeHash: String, at date: Date, interval: Int) throws {
        try run(
            "UPDATE device_authorizations SET last_polled_at = ?, interval_seconds = ? WHERE device_code_hash = ?",
            [SQLiteValue(date), .integer(Int64(interval)), .text(deviceCodeHash)])
    }

    func consumeApprovedDeviceAuthorization(deviceCodeHash: String) throws -> DeviceAuthorization? {
        try queryOne(
            "DELETE FROM device_authorizations WHERE device_code_hash = ? AND status = 'approved' RETURNING *",
            [.text(deviceCodeHash)]
        ).map(decodeDeviceAuthorization)
    }

    private func decodeDeviceAuthorization(_ row: SQLiteRow) throws -> DeviceAuthorization {
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
