import Foundation

// MARK: - Users

extension SQLStoreSession {
    func user(email: String, tenantID: String) throws -> User? {
        try queryOne("SELECT * FROM users WHERE tenant_id = ? AND email = ?", [.text(tenantID), .text(email)])
            .map(decodeUser)
    }

    func user(id: String, tenantID: String) throws -> User? {
        try queryOne("SELECT * FROM users WHERE id = ? AND tenant_id = ?", [.text(id), .text(tenantID)])
            .map(decodeUser)
    }

    func users(tenantID: String, limit: Int) throws -> [User] {
        try query(
            "SELECT * FROM users WHERE tenant_id = ? ORDER BY created_at, id LIMIT ?",
            [.text(tenantID), .integer(Int64(limit))]
        ).map(decodeUser)
    }

    func userCount(tenantID: String) throws -> Int {
        let row = try queryOne("SELECT count(*) AS n FROM users WHERE tenant_id = ?", [.text(tenantID)])
        return Int(row?.int("n") ?? 0)
    }

    func passwordlessUserCount(tenantID: String) throws -> Int {
        let row = try queryOne(
            "SELECT count(*) AS n FROM users WHERE tenant_id = ? AND password_hash IS NULL", [.text(tenantID)])
        return Int(row?.int("n") ?? 0)
    }

    func insert(_ user: User) throws {
        try run(
            """
            INSERT INTO users (id, tenant_id, email, email_verified, password_hash, display_name, attributes,
                               disabled, created_at, valid_since, failed_sign_ins, sign_in_blocked_until,
                               custom_claims, last_login_at, last_refresh_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(user.id), .text(user.tenantID), .text(user.email), .integer(user.emailVerified ? 1 : 0),
                user.passwordHash.map { .text($0) } ?? .null, user.displayName.map { .text($0) } ?? .null,
                SQLValue(json: user.attributes), .integer(user.disabled ? 1 : 0), SQLValue(user.createdAt),
                SQLValue(user.validSince), .integer(Int64(user.failedSignIns)), SQLValue(user.signInBlockedUntil),
                user.customClaims.map { .text($0) } ?? .null, SQLValue(user.lastLoginAt), SQLValue(user.lastRefreshAt),
            ])
    }

    func deleteUser(id: String, tenantID: String) throws -> Bool {
        try run("DELETE FROM auth_methods WHERE user_id = ? AND tenant_id = ?", [.text(id), .text(tenantID)])
        try run("DELETE FROM federated_identities WHERE user_id = ? AND tenant_id = ?", [.text(id), .text(tenantID)])
        return try queryOne("DELETE FROM users WHERE id = ? AND tenant_id = ? RETURNING id", [.text(id), .text(tenantID)])
            != nil
    }

    func update(_ user: User) throws {
        // A new address may be another account's: the domain answers that conflict and goes on.
        try runAllowingConflict(
            """
            UPDATE users SET email = ?, email_verified = ?, password_hash = ?, display_name = ?, attributes = ?,
                             disabled = ?, valid_since = ?, custom_claims = ?
            WHERE id = ? AND tenant_id = ?
            """,
            [
                .text(user.email), .integer(user.emailVerified ? 1 : 0), user.passwordHash.map { .text($0) } ?? .null,
                user.displayName.map { .text($0) } ?? .null, SQLValue(json: user.attributes),
                .integer(user.disabled ? 1 : 0), SQLValue(user.validSince), user.customClaims.map { .text($0) } ?? .null,
                .text(user.id), .text(user.tenantID),
            ])
    }

    func users(tenantID: String, after id: String?, limit: Int) throws -> [User] {
        try query(
            "SELECT * FROM users WHERE tenant_id = ? AND id > ? ORDER BY id LIMIT ?",
            [.text(tenantID), .text(id ?? ""), .integer(Int64(limit))]
        ).map(decodeUser)
    }

    func recordTokenIssue(userID: String, at date: Date, signIn: Bool) throws {
        try run(
            signIn
                ? "UPDATE users SET last_login_at = ?1, last_refresh_at = ?1 WHERE id = ?2"
                : "UPDATE users SET last_refresh_at = ?1 WHERE id = ?2",
            [SQLValue(date), .text(userID)])
    }

    func deleteUsers(tenantID: String) throws -> Int {
        try run("DELETE FROM auth_methods WHERE tenant_id = ?", [.text(tenantID)])
        try run("DELETE FROM federated_identities WHERE tenant_id = ?", [.text(tenantID)])
        try run("DELETE FROM oob_codes WHERE tenant_id = ?", [.text(tenantID)])
        return try query("DELETE FROM users WHERE tenant_id = ? RETURNING id", [.text(tenantID)]).count
    }

    func recordSignInFailure(userID: String) throws -> Int? {
        try queryOne(
            "UPDATE users SET failed_sign_ins = failed_sign_ins + 1 WHERE id = ? RETURNING failed_sign_ins",
            [.text(userID)]
        ).flatMap { $0.int("failed_sign_ins") }.map { Int($0) }
    }

    func reserveSignInAttempt(userID: String, at date: Date) throws -> Int? {
        try queryOne(
            """
            UPDATE users SET failed_sign_ins = failed_sign_ins + 1
            WHERE id = ? AND (sign_in_blocked_until IS NULL OR sign_in_blocked_until <= ?)
            RETURNING failed_sign_ins
            """,
            [.text(userID), SQLValue(date)]
        ).flatMap { $0.int("failed_sign_ins") }.map { Int($0) }
    }

    func addressDelay(tenantID: String, addressKey: String) throws -> Date? {
        try queryOne(
            "SELECT blocked_until FROM address_attempts WHERE tenant_id = ? AND address_key = ?",
            [.text(tenantID), .text(addressKey)]
        )?.date("blocked_until")
    }

    func reserveAddressAttempt(tenantID: String, addressKey: String, at date: Date) throws -> Int? {
        try queryOne(
            """
            INSERT INTO address_attempts (tenant_id, address_key, failed, blocked_until, updated_at)
            VALUES (?1, ?2, 1, NULL, ?3)
            ON CONFLICT (tenant_id, address_key) DO UPDATE SET failed = address_attempts.failed + 1, updated_at = ?3
            WHERE address_attempts.blocked_until IS NULL OR address_attempts.blocked_until <= ?3
            RETURNING failed
            """,
            [.text(tenantID), .text(addressKey), SQLValue(date)]
        ).flatMap { $0.int("failed") }.map { Int($0) }
    }

    func delayAddress(tenantID: String, addressKey: String, until date: Date) throws {
        try run(
            """
            UPDATE address_attempts SET blocked_until = \(dialect.greatest("coalesce(blocked_until, 0)", "?"))
            WHERE tenant_id = ? AND address_key = ?
            """,
            [SQLValue(date), .text(tenantID), .text(addressKey)])
    }

    func clearAddressAttempts(tenantID: String, addressKey: String) throws {
        try run(
            "DELETE FROM address_attempts WHERE tenant_id = ? AND address_key = ?", [.text(tenantID), .text(addressKey)])
    }

    func delaySignIn(userID: String, until date: Date) throws {
        try run(
            "UPDATE users SET sign_in_blocked_until = \(dialect.greatest("coalesce(sign_in_blocked_until, 0)", "?")) WHERE id = ?",
            [SQLValue(date), .text(userID)])
    }

    func clearSignInFailures(userID: String) throws {
        try run(
            """
            UPDATE users SET failed_sign_ins = 0, sign_in_blocked_until = NULL
            WHERE id = ? AND (failed_sign_ins <> 0 OR sign_in_blocked_until IS NOT NULL)
            """,
            [.text(userID)])
    }

    private func decodeUser(_ row: SQLRow) throws -> User {
        User(
            id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"),
            email: try row.requiredString("email"), emailVerified: row.flag("email_verified"),
            passwordHash: row.string("password_hash"), displayName: row.string("display_name"),
            attributes: row.stringDictionary("attributes"), disabled: row.flag("disabled"),
            createdAt: try row.requiredDate("created_at"), validSince: try row.requiredDate("valid_since"),
            failedSignIns: Int(row.int("failed_sign_ins") ?? 0), signInBlockedUntil: row.date("sign_in_blocked_until"),
            customClaims: row.string("custom_claims"), lastLoginAt: row.date("last_login_at"),
            lastRefreshAt: row.date("last_refresh_at"))
    }
}
