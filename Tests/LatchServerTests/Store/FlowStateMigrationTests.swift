import Foundation
import LatchSQLite
import Testing

@testable import LatchServer

/// Migration `004_flow_state_and_successors` on a database an older server left at `003`: flows in
/// progress come through as the equivalent ``FlowState`` (challenge types, capabilities, pending
/// code, attempts, amr and attributes), and refresh tokens keep working without a successor.
@Suite("SQLite flow state migration")
struct FlowStateMigrationTests {
    typealias Fixture = StoreConformance

    /// A flow waiting for its sign-up code, in the old one-column-per-value shape.
    static let codeFlow = """
        INSERT INTO flows (id, tenant_id, client_id, kind, step, token_hash, username, user_id, password_hash, attributes,
                           challenge_types, capabilities, code_hash, code_expires_at, code_attempts, email_verified, amr,
                           expires_at, created_at, code_sends)
        VALUES ('flow-code', 'tid-acme', 'app', 'sign_up', 'code_sent', 'hash-code', 'ada@example.com', NULL,
                '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$b2xk', '{"displayName":"Ada"}', 'oob password redirect',
                'mfa_required', 'code-hash', 1700000600321, 2, 0, 'pwd otp', 1700000600999, 1700000000123, 1);
        """

    /// A sign-in waiting for a password, with nothing optional set and unreadable attributes.
    static let passwordFlow = """
        INSERT INTO flows (id, tenant_id, client_id, kind, step, token_hash, username, user_id, password_hash, attributes,
                           challenge_types, capabilities, code_hash, code_expires_at, code_attempts, email_verified, amr,
                           expires_at, created_at)
        VALUES ('flow-password', 'tid-acme', 'app', 'sign_in', 'password_requested', 'hash-password', 'ada@example.com',
                'user-1', NULL, 'not json', 'password', '', NULL, NULL, 3, 1, '', 1700000600999, 1700000000123);
        """

    /// A session whose token was re-issued in the old grace window.
    static let session = """
        INSERT INTO token_families (id, tenant_id, client_id, user_id, scopes, amr, auth_time, created_at, expires_at)
        VALUES ('family-1', 'tid-acme', 'app', 'user-1', 'openid offline_access', 'pwd', 1700000000000, 1700000000000,
                1707776000000);
        INSERT INTO refresh_tokens (hash, family_id, created_at, rotated_at, grace_reissued)
        VALUES ('rt-old', 'family-1', 1700000000000, 1700000001000, 1), ('rt-head', 'family-1', 1700000001000, NULL, 0);
        """

    @Test("a flow in progress at migration 003 reads back as the equivalent flow state")
    func flowsInProgressSurviveTheMigration() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("latch.sqlite").path
        try SQLiteShell.execute(
            [MigrationFixture.schemaScript(through: "003_flow_code_sends"), Self.codeFlow, Self.passwordFlow, Self.session]
                .joined(separator: "\n"),
            on: path)

        let store = try SQLiteStore(path: path)
        defer { store.close() }

        let codeFlow = Flow(
            id: "flow-code", tenantID: "tid-acme", clientID: "app", kind: .signUp, step: .codeSent, tokenHash: "hash-code",
            username: "ada@example.com", userID: nil,
            state: FlowState(
                support: [.password, .oneTimeCode, .browser], capabilities: [.mfa],
                passwordHash: "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$b2xk", attributes: ["displayName": "Ada"],
                code: FlowState.PendingCode(hash: "code-hash", expiresAt: Fixture.date(1_700_000_600_321), attempts: 2),
                codeSends: 1, passwordAttempts: 0, emailVerified: false, amr: ["pwd", "otp"]),
            expiresAt: Fixture.date(1_700_000_600_999), createdAt: Fixture.now)
        let passwordFlow = Flow(
            id: "flow-password", tenantID: "tid-acme", clientID: "app", kind: .signIn, step: .passwordRequested,
            tokenHash: "hash-password", username: "ada@example.com", userID: "user-1",
            state: FlowState(support: [.password], passwordAttempts: 3, emailVerified: true),
            expiresAt: Fixture.date(1_700_000_600_999), createdAt: Fixture.now)
        try store.read { tx throws in
            #expect(try tx.flow(tokenHash: "hash-code") == codeFlow)
            #expect(try tx.flow(tokenHash: "hash-password") == passwordFlow)
            #expect(
                try tx.refreshToken(hash: "rt-old")
                    == RefreshTokenRecord(
                        hash: "rt-old", familyID: "family-1", createdAt: Fixture.date(1_700_000_000_000),
                        rotatedAt: Fixture.date(1_700_000_001_000)))
            #expect(try tx.refreshToken(hash: "rt-head")?.rotatedAt == nil)
        }

        // The migrated flow advances like a new one, and the migration is recorded.
        var advanced = codeFlow
        advanced.tokenHash = "hash-verified"
        advanced.step = .verified
        advanced.state.code = nil
        advanced.state.emailVerified = true
        #expect(try store.write { try $0.replace(advanced, expectingTokenHash: "hash-code") })
        #expect(try store.read { try $0.flow(tokenHash: "hash-verified") } == advanced)
        #expect(try store.write { try $0.rotateRefreshToken(hash: "rt-head", successorHash: "rt-new", at: Fixture.now) })
        let recorded = try SQLiteShell.execute("SELECT name FROM schema_migrations ORDER BY rowid;", on: path)
        // Every later migration ran too, in order, after the ones the old server had.
        let names = recorded.split(separator: "\n").map(String.init)
        #expect(names == SQLiteSchema.migrations.map(\.name))
    }
}
