import Foundation

/// A database as a server at migration `003_flow_code_sends` left it: the flows table with one column
/// per step value, before `004_flow_state_and_successors` folded them into one versioned state.
/// The SQL is a copy of migrations 001-003 of `SQLiteSchema`, frozen here so the test keeps
/// exercising the shipped upgrade path even if the live schema moves on.
enum FlowStateMigrationFixture {
    /// The migration names LatchSQLite's migrator records in `schema_migrations`, in order.
    static let appliedMigrations = ["001_initial", "002_abuse_limits", "003_flow_code_sends"]

    /// Migration `001_initial`.
    static let initial = """
        CREATE TABLE tenants (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            settings TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE clients (
            tenant_id TEXT NOT NULL REFERENCES tenants(id),
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            is_public INTEGER NOT NULL,
            allowed_scopes TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (tenant_id, id)
        );
        CREATE TABLE users (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL REFERENCES tenants(id),
            email TEXT NOT NULL,
            email_verified INTEGER NOT NULL,
            password_hash TEXT,
            display_name TEXT,
            attributes TEXT NOT NULL,
            disabled INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            valid_since INTEGER NOT NULL,
            UNIQUE (tenant_id, email)
        );
        CREATE TABLE flows (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            client_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            step TEXT NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            username TEXT NOT NULL,
            user_id TEXT,
            password_hash TEXT,
            attributes TEXT NOT NULL,
            challenge_types TEXT NOT NULL,
            capabilities TEXT NOT NULL,
            code_hash TEXT,
            code_expires_at INTEGER,
            code_attempts INTEGER NOT NULL,
            email_verified INTEGER NOT NULL,
            amr TEXT NOT NULL,
            expires_at INTEGER NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX flows_expires_at ON flows(expires_at);
        CREATE TABLE token_families (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL,
            client_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            scopes TEXT NOT NULL,
            amr TEXT NOT NULL,
            auth_time INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            revoked_at INTEGER
        );
        CREATE INDEX token_families_user ON token_families(user_id);
        CREATE TABLE refresh_tokens (
            hash TEXT PRIMARY KEY,
            family_id TEXT NOT NULL REFERENCES token_families(id),
            created_at INTEGER NOT NULL,
            rotated_at INTEGER
        ) WITHOUT ROWID;
        CREATE TABLE signing_keys (
            id TEXT PRIMARY KEY,
            tenant_id TEXT NOT NULL REFERENCES tenants(id),
            algorithm TEXT NOT NULL,
            sealed_private_key BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            activates_at INTEGER NOT NULL,
            retired_at INTEGER
        );
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tenant_id TEXT NOT NULL,
            channel TEXT NOT NULL,
            recipient TEXT NOT NULL,
            subject TEXT NOT NULL,
            body TEXT NOT NULL,
            code TEXT,
            created_at INTEGER NOT NULL,
            delivered_at INTEGER
        );
        CREATE INDEX outbox_pending ON outbox(delivered_at) WHERE delivered_at IS NULL;
        CREATE TABLE audit_events (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tenant_id TEXT NOT NULL,
            at INTEGER NOT NULL,
            kind TEXT NOT NULL,
            user_id TEXT,
            client_id TEXT,
            remote_address TEXT,
            detail TEXT
        );
        CREATE INDEX audit_events_tenant ON audit_events(tenant_id, id);
        """

    /// Migration `002_abuse_limits`.
    static let abuseLimits = """
        ALTER TABLE users ADD COLUMN failed_sign_ins INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN sign_in_blocked_until INTEGER;
        ALTER TABLE refresh_tokens ADD COLUMN grace_reissued INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX outbox_recipient ON outbox(tenant_id, recipient, created_at);
        CREATE INDEX outbox_created ON outbox(created_at);
        CREATE INDEX token_families_expires ON token_families(expires_at);
        """

    /// Migration `003_flow_code_sends`.
    static let flowCodeSends = "ALTER TABLE flows ADD COLUMN code_sends INTEGER NOT NULL DEFAULT 0;"

    /// The whole script: the three migrations and their records, the way `SQLiteDatabase.migrate`
    /// writes them (`schema_migrations(name, applied_at)`).
    static var schemaScript: String {
        let records = appliedMigrations.map {
            "INSERT INTO schema_migrations (name, applied_at) VALUES ('\($0)', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));"
        }
        let table = "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL);"
        return ([table, initial, abuseLimits, flowCodeSends] + records).joined(separator: "\n")
    }
}
