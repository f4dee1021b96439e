import Foundation

// MARK: - Browser sessions, authorization codes, consents

extension SQLStoreSession {
    func browserSessions(browserHash: String, tenantID: String, at date: Date) throws -> [BrowserSession] {
        try query(
            """
            SELECT * FROM browser_sessions WHERE browser_hash = ? AND tenant_id = ? AND expires_at > ?
            ORDER BY created_at DESC
            """,
            [.text(browserHash), .text(tenantID), SQLValue(date)]
        ).map(decodeBrowserSession)
    }

    func insert(_ session: BrowserSession) throws {
        try run(
            """
            INSERT INTO browser_sessions (id, tenant_id, browser_hash, user_id, amr, auth_time, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(session.id), .text(session.tenantID), .text(session.browserHash), .text(session.userID),
                SQLValue(words: session.amr), SQLValue(session.authTime), SQLValue(session.createdAt),
                SQLValue(session.expiresAt),
            ])
    }

    @discardableResult
    func deleteBrowserSessions(browserHash: String, tenantID: String, userID: String?) throws -> Int {
        if let userID {
            return try query(
                "DELETE FROM browser_sessions WHERE browser_hash = ? AND tenant_id = ? AND user_id = ? RETURNING id",
                [.text(browserHash), .text(tenantID), .text(userID)]
            ).count
        }
        return try query(
            "DELETE FROM browser_sessions WHERE browser_hash = ? AND tenant_id = ? RETURNING id",
            [.text(browserHash), .text(tenantID)]
        ).count
    }

    func moveBrowserSessions(from previousHash: String, to renewedHash: String, tenantID: String) throws {
        try run(
            """
            DELETE FROM browser_sessions WHERE browser_hash = ? AND tenant_id = ?
                AND user_id IN (SELECT user_id FROM browser_sessions WHERE browser_hash = ? AND tenant_id = ?)
            """,
            [.text(previousHash), .text(tenantID), .text(renewedHash), .text(tenantID)])
        try run(
            "UPDATE browser_sessions SET browser_hash = ? WHERE browser_hash = ? AND tenant_id = ?",
            [.text(renewedHash), .text(previousHash), .text(tenantID)])
    }

    func authorizationCode(hash: String) throws -> AuthorizationCode? {
        try queryOne("SELECT * FROM authorization_codes WHERE code_hash = ?", [.text(hash)]).map(decodeAuthorizationCode)
    }

    func insert(_ code: AuthorizationCode) throws {
        try run(
            """
            INSERT INTO authorization_codes
                (code_hash, tenant_id, client_id, redirect_uri, code_challenge, nonce, scopes, user_id, session_id, amr,
                 auth_time, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(code.hash), .text(code.tenantID), .text(code.clientID), .text(code.redirectURI),
                code.codeChallenge.map { .text($0) } ?? .null, code.nonce.map { .text($0) } ?? .null,
                SQLValue(words: code.scopes), .text(code.userID), .text(code.sessionID), SQLValue(words: code.amr),
                SQLValue(code.authTime), SQLValue(code.createdAt), SQLValue(code.expiresAt),
            ])
    }

    func redeemAuthorizationCode(hash: String, familyID: String, at date: Date) throws -> AuthorizationCode? {
        try queryOne(
            """
            UPDATE authorization_codes SET used_at = ?, family_id = ?
            WHERE code_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *
            """,
            [SQLValue(date), .text(familyID), .text(hash), SQLValue(date)]
        ).map(decodeAuthorizationCode)
    }

    func consentedScopes(userID: String, clientID: String, tenantID: String) throws -> [String]? {
        try queryOne(
            "SELECT scopes FROM consents WHERE tenant_id = ? AND user_id = ? AND client_id = ?",
            [.text(tenantID), .text(userID), .text(clientID)]
        ).map { $0.words("scopes") }
    }

    func recordConsent(userID: String, clientID: String, tenantID: String, scopes: [String], at date: Date) throws {
        try run(
            """
            INSERT INTO consents (tenant_id, user_id, client_id, scopes, granted_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (tenant_id, user_id, client_id) DO UPDATE SET scopes = excluded.scopes, granted_at = excluded.granted_at
            """,
            [.text(tenantID), .text(userID), .text(clientID), SQLValue(words: scopes), SQLValue(date)])
    }

    private func decodeBrowserSession(_ row: SQLRow) throws -> BrowserSession {
        BrowserSession(
            id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"),
            browserHash: try row.requiredString("browser_hash"), userID: try row.requiredString("user_id"),
            amr: row.words("amr"), authTime: try row.requiredDate("auth_time"),
            createdAt: try row.requiredDate("created_at"), expiresAt: try row.requiredDate("expires_at"))
    }

    private func decodeAuthorizationCode(_ row: SQLRow) throws -> AuthorizationCode {
        var code = AuthorizationCode(
            hash: try row.requiredString("code_hash"), tenantID: try row.requiredString("tenant_id"),
            clientID: try row.requiredString("client_id"), redirectURI: try row.requiredString("redirect_uri"),
            codeChallenge: row.string("code_challenge"), nonce: row.string("nonce"), scopes: row.words("scopes"),
            userID: try row.requiredString("user_id"), sessionID: try row.requiredString("session_id"),
            amr: row.words("amr"), authTime: try row.requiredDate("auth_time"),
            createdAt: try row.requiredDate("created_at"), expiresAt: try row.requiredDate("expires_at"))
        code.usedAt = row.date("used_at")
        code.familyID = row.string("family_id")
        return code
    }
}
