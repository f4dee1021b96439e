import LatchSQLite

/// The named, append-only migrations of the SQLite schema. Never edit one that has shipped;
/// append a new one. Times are integer milliseconds since the Unix epoch.
enum SQLiteSchema {
    static let migrations: [SQLiteMigration] = [
        SQLiteMigration(
            "001_initial",
            """
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
            """),
        SQLiteMigration(
            "002_abuse_limits",
            """
            ALTER TABLE users ADD COLUMN failed_sign_ins INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE users ADD COLUMN sign_in_blocked_until INTEGER;
            ALTER TABLE refresh_tokens ADD COLUMN grace_reissued INTEGER NOT NULL DEFAULT 0;
            CREATE INDEX outbox_recipient ON outbox(tenant_id, recipient, created_at);
            CREATE INDEX outbox_created ON outbox(created_at);
            CREATE INDEX token_families_expires ON token_families(expires_at);
            """),
        SQLiteMigration("003_flow_code_sends", "ALTER TABLE flows ADD COLUMN code_sends INTEGER NOT NULL DEFAULT 0;"),
        // A flow's step data becomes one versioned JSON value (`FlowStateCodec`); flows in progress
        // are carried over. Refresh tokens remember their successor, for the strict grace window.
        SQLiteMigration(
            "004_flow_state_and_successors",
            """
            CREATE TABLE flows_v4 (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                step TEXT NOT NULL,
                token_hash TEXT NOT NULL UNIQUE,
                username TEXT NOT NULL,
                user_id TEXT,
                state TEXT NOT NULL,
                expires_at INTEGER NOT NULL,
                created_at INTEGER NOT NULL
            );
            INSERT INTO flows_v4 (id, tenant_id, client_id, kind, step, token_hash, username, user_id, state,
                                  expires_at, created_at)
            SELECT id, tenant_id, client_id, kind, step, token_hash, username, user_id,
                json_object('v', 1, 'state', json_object(
                    'support',
                        (CASE WHEN instr(' ' || challenge_types || ' ', ' password ') > 0 THEN 1 ELSE 0 END)
                        + (CASE WHEN instr(' ' || challenge_types || ' ', ' oob ') > 0 THEN 2 ELSE 0 END)
                        + (CASE WHEN instr(' ' || challenge_types || ' ', ' redirect ') > 0 THEN 4 ELSE 0 END),
                    'capabilities',
                        (CASE WHEN instr(' ' || capabilities || ' ', ' mfa_required ') > 0 THEN 1 ELSE 0 END)
                        + (CASE WHEN instr(' ' || capabilities || ' ', ' registration_required ') > 0 THEN 2 ELSE 0 END),
                    'passwordHash', password_hash,
                    'attributes', json(CASE WHEN json_valid(attributes) THEN attributes ELSE '{}' END),
                    'code', json(CASE WHEN code_hash IS NULL OR code_expires_at IS NULL THEN 'null'
                        ELSE json_object('hash', code_hash, 'expiresAt', code_expires_at, 'attempts', code_attempts) END),
                    'codeSends', code_sends,
                    'passwordAttempts', CASE WHEN step = 'password_requested' THEN code_attempts ELSE 0 END,
                    'emailVerified', json(CASE WHEN email_verified <> 0 THEN 'true' ELSE 'false' END),
                    'amr', json(CASE WHEN amr = '' THEN '[]' ELSE '["' || replace(amr, ' ', '","') || '"]' END))),
                expires_at, created_at
            FROM flows;
            DROP TABLE flows;
            ALTER TABLE flows_v4 RENAME TO flows;
            CREATE INDEX flows_expires_at ON flows(expires_at);
            ALTER TABLE refresh_tokens ADD COLUMN successor_hash TEXT;
            ALTER TABLE refresh_tokens DROP COLUMN grace_reissued;
            """),
        SQLiteMigration("005_signing_key_revocation", "ALTER TABLE signing_keys ADD COLUMN revoked_at INTEGER;"),
        // The send ledger: every code send (decoys included) by recipient, purpose and source.
        SQLiteMigration(
            "006_code_send_ledger",
            """
            CREATE TABLE code_sends (
                tenant_id TEXT NOT NULL,
                recipient TEXT NOT NULL,
                purpose TEXT NOT NULL,
                source TEXT NOT NULL,
                at INTEGER NOT NULL
            );
            CREATE INDEX code_sends_recipient ON code_sends(tenant_id, recipient, purpose, at);
            CREATE INDEX code_sends_at ON code_sends(at);
            """),
        // Failed sign-ins of addresses without an account (decoy flows), keyed by a hash of the address.
        SQLiteMigration(
            "007_address_attempts",
            """
            CREATE TABLE address_attempts (
                tenant_id TEXT NOT NULL,
                address_key TEXT NOT NULL,
                failed INTEGER NOT NULL,
                blocked_until INTEGER,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, address_key)
            ) WITHOUT ROWID;
            CREATE INDEX address_attempts_updated ON address_attempts(updated_at);
            """),
        // No index on full_at: the once-a-minute purge scans the table, which is cheaper than
        // maintaining an index on every take.
        SQLiteMigration(
            "008_rate_buckets",
            """
            CREATE TABLE rate_buckets (
                bucket TEXT PRIMARY KEY,
                tokens REAL NOT NULL,
                updated_at INTEGER NOT NULL,
                full_at INTEGER NOT NULL,
                refusals INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            """),
        // Admin tokens scoped to one tenant: the SHA-256 of each secret, never the secret.
        SQLiteMigration(
            "009_admin_tokens",
            """
            CREATE TABLE admin_tokens (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                label TEXT NOT NULL,
                secret_hash TEXT NOT NULL UNIQUE,
                created_at INTEGER NOT NULL,
                last_used_at INTEGER,
                revoked_at INTEGER
            );
            CREATE INDEX admin_tokens_tenant ON admin_tokens(tenant_id, created_at);
            """),
        // Outbox bodies and their codes arrive sealed by the domain (`MessageSealer`), bound to a
        // random message id. The clear `body` and `code` columns are dropped with what they held:
        // the store has no key to seal them. Messages queued before keep their row without a body;
        // the worker abandons the pending ones (their codes expire within minutes; a resend sends
        // a new one). `secure_delete` zeroes the freed bytes, so no plaintext stays behind in the
        // file once the change is checkpointed (https://sqlite.org/pragma.html#pragma_secure_delete).
        SQLiteMigration(
            "010_sealed_outbox",
            """
            PRAGMA secure_delete = ON;
            ALTER TABLE outbox ADD COLUMN message_id TEXT;
            ALTER TABLE outbox ADD COLUMN sealed_body BLOB;
            ALTER TABLE outbox ADD COLUMN abandoned_at INTEGER;
            UPDATE outbox SET message_id = 'unsealed-' || id;
            ALTER TABLE outbox DROP COLUMN body;
            ALTER TABLE outbox DROP COLUMN code;
            CREATE UNIQUE INDEX outbox_message_id ON outbox(message_id);
            DROP INDEX outbox_pending;
            CREATE INDEX outbox_pending ON outbox(id) WHERE delivered_at IS NULL AND abandoned_at IS NULL;
            """),
        // Delivery attempts: a failed one counts, says why (`last_error`, never the body or code)
        // and waits for `next_attempt_at` (NULL: due now); pending messages are listed due-only.
        SQLiteMigration(
            "011_outbox_attempts",
            """
            ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE outbox ADD COLUMN next_attempt_at INTEGER;
            ALTER TABLE outbox ADD COLUMN last_error TEXT;
            CREATE INDEX outbox_abandoned ON outbox(id) WHERE abandoned_at IS NOT NULL;
            """),
        // Strong authentication methods: one row per user, channel and contact.
        SQLiteMigration(
            "012_auth_methods",
            """
            CREATE TABLE auth_methods (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                channel TEXT NOT NULL,
                target TEXT NOT NULL,
                verified INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                UNIQUE (tenant_id, user_id, channel, target)
            );
            CREATE INDEX auth_methods_user ON auth_methods(tenant_id, user_id, created_at);
            """),
        // A client's protection policy: the app-attestation key ids it accepts (none: no policy).
        SQLiteMigration(
            "013_client_attestation",
            "ALTER TABLE clients ADD COLUMN attestation_key_ids TEXT NOT NULL DEFAULT '';"),
        // The API key a Firebase-shaped client sends as `?key=`: unique across tenants, since the key
        // alone names the client (and so the project). Existing clients get a random one.
        SQLiteMigration(
            "014_client_api_keys",
            """
            ALTER TABLE clients ADD COLUMN api_key TEXT;
            UPDATE clients SET api_key = lower(hex(randomblob(24))) WHERE api_key IS NULL;
            CREATE UNIQUE INDEX clients_api_key ON clients(api_key);
            """),
        // The key pair that signs a tenant's custom tokens (RS256), one per tenant, made on first use;
        // the private key sealed with the master key like the signing keys.
        SQLiteMigration(
            "015_service_account_keys",
            """
            CREATE TABLE service_account_keys (
                tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
                id TEXT NOT NULL UNIQUE,
                sealed_private_key BLOB NOT NULL,
                created_at INTEGER NOT NULL
            );
            """),
        // Out-of-band codes (e-mail verification, address change, password reset, e-mail link
        // sign-in): the SHA-256 of each code, what it is bound to, and its expiry; deleted when used.
        SQLiteMigration(
            "016_oob_codes",
            """
            CREATE TABLE oob_codes (
                code_hash TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                client_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                user_id TEXT,
                email TEXT NOT NULL,
                new_email TEXT,
                continue_url TEXT,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            );
            CREATE INDEX oob_codes_expiry ON oob_codes(expires_at);
            """),
        // A tenant's OIDC identity providers (signInWithIdp / verifyAssertion) and the federated
        // identities linked to its accounts: one account per (tenant, provider, raw id).
        SQLiteMigration(
            "017_identity_providers",
            """
            CREATE TABLE identity_providers (
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                provider_id TEXT NOT NULL,
                issuer TEXT NOT NULL,
                client_id TEXT NOT NULL,
                jwks_url TEXT,
                jwks_json TEXT,
                enabled INTEGER NOT NULL DEFAULT 1,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, provider_id)
            );
            CREATE TABLE federated_identities (
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                provider_id TEXT NOT NULL,
                raw_id TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id),
                email TEXT,
                display_name TEXT,
                photo_url TEXT,
                created_at INTEGER NOT NULL,
                UNIQUE (tenant_id, provider_id, raw_id)
            );
            CREATE INDEX federated_identities_user ON federated_identities(user_id);
            """),
        // Developer claims an administrator sets on an account (a JSON object text, put at the top
        // level of its ID tokens), and when it last signed in and last had an ID token issued.
        SQLiteMigration(
            "018_custom_claims",
            """
            ALTER TABLE users ADD COLUMN custom_claims TEXT;
            ALTER TABLE users ADD COLUMN last_login_at INTEGER;
            ALTER TABLE users ADD COLUMN last_refresh_at INTEGER;
            """),
        // Confidential clients (RFC 6749 § 2.3.1): the SHA-256 of the client secret, never the secret;
        // NULL for public clients.
        SQLiteMigration("019_client_secrets", "ALTER TABLE clients ADD COLUMN client_secret_hash TEXT;"),
        // Browser flows (RFC 6749 § 4.1): each client's redirect URIs, grant types and party; the
        // hosted pages' browser sessions (the SHA-256 of the cookie), authorization codes (their
        // SHA-256; kept after use until expiry, to revoke on a replay) and consents.
        SQLiteMigration(
            "020_browser_flows",
            """
            ALTER TABLE clients ADD COLUMN redirect_uris TEXT NOT NULL DEFAULT '';
            ALTER TABLE clients ADD COLUMN grant_types TEXT NOT NULL DEFAULT '';
            ALTER TABLE clients ADD COLUMN third_party INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE clients ADD COLUMN post_logout_redirect_uris TEXT NOT NULL DEFAULT '';
            ALTER TABLE clients ADD COLUMN any_loopback_redirect INTEGER NOT NULL DEFAULT 0;
            CREATE TABLE browser_sessions (
                id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                browser_hash TEXT NOT NULL,
                user_id TEXT NOT NULL,
                amr TEXT NOT NULL,
                auth_time INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            );
            CREATE INDEX browser_sessions_browser ON browser_sessions(browser_hash, tenant_id);
            CREATE TABLE authorization_codes (
                code_hash TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                client_id TEXT NOT NULL,
                redirect_uri TEXT NOT NULL,
                code_challenge TEXT,
                nonce TEXT,
                scopes TEXT NOT NULL,
                user_id TEXT NOT NULL,
                session_id TEXT NOT NULL,
                amr TEXT NOT NULL,
                auth_time INTEGER NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                used_at INTEGER,
                family_id TEXT
            );
            CREATE TABLE consents (
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                user_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                scopes TEXT NOT NULL,
                granted_at INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, user_id, client_id)
            );
            """),
        // The device authorization grant (RFC 8628): the SHA-256 of the device code and of the
        // normalised user code, never the codes; a user code is unique in its tenant.
        SQLiteMigration(
            "021_device_authorizations",
            """
            CREATE TABLE device_authorizations (
                device_code_hash TEXT PRIMARY KEY,
                user_code_hash TEXT NOT NULL,
                tenant_id TEXT NOT NULL REFERENCES tenants(id),
                client_id TEXT NOT NULL,
                scopes TEXT NOT NULL,
                status TEXT NOT NULL,
                user_id TEXT,
                auth_time INTEGER,
                amr TEXT NOT NULL,
                interval_seconds INTEGER NOT NULL,
                last_polled_at INTEGER,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                UNIQUE (tenant_id, user_code_hash)
            );
            CREATE INDEX device_authorizations_expiry ON device_authorizations(expires_at);
            """),
        // Clients that authenticate with private_key_jwt (OpenID Connect Core § 9): their public JWKS,
        // one row per client beside the clients table; and the SHA-256 of each client assertion's
        // `jti` (with its tenant and client) until the assertion expires, so each is used once
        // (RFC 7523 § 3 item 7).
        SQLiteMigration(
            "022_client_keys",
            """
            CREATE TABLE client_keys (
                tenant_id TEXT NOT NULL,
                client_id TEXT NOT NULL,
                jwks TEXT NOT NULL,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, client_id),
                FOREIGN KEY (tenant_id, client_id) REFERENCES clients(tenant_id, id)
            );
            CREATE TABLE client_assertion_ids (
                jti_hash TEXT PRIMARY KEY,
                expires_at INTEGER NOT NULL
            );
            CREATE INDEX client_assertion_ids_expiry ON client_assertion_ids(expires_at);
            """),
    ]
}
