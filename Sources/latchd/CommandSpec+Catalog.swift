/// Every `latchd` command, with the options it declares.
extension CommandSpec {
    /// `latchd serve`.
    static let serve = CommandSpec(
        words: ["serve"],
        summary: "Run the server until SIGINT or SIGTERM, then finish the requests in flight.",
        options: [
            .valued("listen", "HOST:PORT", "Address to listen on; port 0 picks a free one (default 127.0.0.1:8080)."),
            .valued(
                "admin-listen", "HOST:PORT",
                "Serve the admin endpoints and /metrics on this separate listener (plain HTTP) instead."),
            .valued("data-dir", "DIR", "Database, master key and admin token (default ./latch-data)."),
            .valued("config", "FILE", "JSON file of settings (listen, data_dir, public_url, dev, durable, ...)."),
            .valued(
                "database-url", "URL",
                "PostgreSQL to store in (postgres://user@host/db?sslmode=verify-full; LATCH_DATABASE_URL); "
                    + "the password from the URL, PGPASSWORD or PGPASSFILE. Default: SQLite in the data directory."),
            .valued("database-connections", "N", "Most PostgreSQL connections this instance opens (default 16)."),
            .valued("public-url", "URL", "Public origin for 'iss' and discovery (default: from --listen)."),
            .valued("durability", "full|normal", "full: answer a write once it is on disk (default); normal: crash-safe."),
            .valued("http-threads", "N", "HTTP worker threads (default: from the core count)."),
            .valued(
                "max-connections", "N",
                "Most simultaneous connections (default 4096; lowered to fit the open-file limit)."),
            .valued(
                "max-connections-per-ip", "N",
                "Most simultaneous connections from one address (default 64; raise it behind a proxy)."),
            .valued(
                "header-timeout", "SECONDS", "Time a client has to send a request, head and body (default 10)."),
            .valued("idle-timeout", "SECONDS", "Longest silence on a connection, as between requests (default 30)."),
            .valued(
                "trusted-proxy", "CIDR",
                "A reverse proxy whose Forwarded/X-Forwarded-For names the client (default none).",
                repeatable: true),
            .flag("dev", "Development mode: the latch-dev client exists and codes are logged."),
            .flag(
                "emulator",
                "Firebase Auth emulator mode: its endpoints, unsigned custom tokens, Bearer owner as admin (implies --dev)."),
            .flag("tls", "With --dev: serve HTTPS with a local development CA made once in the data directory."),
            .valued("tls-cert", "FILE", "PEM certificate chain for HTTPS; needs --tls-key. SIGHUP re-reads both."),
            .valued("tls-key", "FILE", "PEM private key of --tls-cert; needs --tls-cert."),
            .valued("log-format", "text|json", "Log lines as text (default) or one JSON object per line."),
            .valued(
                "sms-webhook-url", "URL",
                "POST each SMS message, signed, to this http(s) URL (default: none; --dev logs SMS codes)."),
            .valued(
                "sms-webhook-secret-file", "PATH",
                "File holding the shared secret that signs webhook requests (Latch-Signature); needs --sms-webhook-url."),
            .valued(
                "outbox-max-attempts", "N",
                "Failed deliveries of a message before it is abandoned (default 8; retried after 5 s doubling to 10 min)."),
            .valued(
                "outbox-retry-base-seconds", "N", "Wait after a message's first failed delivery, doubling each time (default 5)."),
            .valued(
                "smtp-url", "URL",
                "Send e-mail through this SMTP server: smtp://[user@]host[:port] (STARTTLS) or smtps://... (implicit TLS); "
                    + "no password in it (LATCH_SMTP_URL). With --dev the code is logged too."),
            .valued(
                "smtp-password-file", "FILE",
                "File holding the SMTP password (LATCH_SMTP_PASSWORD_FILE; or the password in LATCH_SMTP_PASSWORD)."),
            .valued(
                "smtp-starttls", "required|opportunistic|off",
                "STARTTLS for smtp:// URLs (default required; a password is never sent without certain TLS off loopback)."),
            .valued(
                "smtp-from", "ADDRESS",
                "Default sender, addr or 'Name <addr>' (default no-reply@ the --public-url host); tenants may set their own."),
            .valued("smtp-ca-file", "FILE", "PEM certificate authorities to check the SMTP server's certificate against."),
        ])

    /// `latchd tenant create`.
    static let tenantCreate = CommandSpec(
        words: ["tenant", "create"], operands: ["NAME"],
        summary: "Create a tenant called NAME.",
        options: [
            .valued("name", "NAME", "The tenant name, instead of the NAME operand."),
            .flag("enumeration-protection", "An unknown address and a wrong password get the same answer."),
            .flag("require-password", "Require a password on sign-up."),
            .valued("require-attribute", "NAME", "Require user attribute NAME on sign-up.", repeatable: true),
            .valued(
                "refresh-grace-seconds", "N",
                "Re-exchange a rotated refresh token whose successor is unused within N seconds (0 to 300; default 5)."),
            .valued(
                "rate-limit", "KIND=N/PERIOD",
                "Per-source limit, e.g. flow-starts=30/5m; KIND is flow-starts, code-sends, password-attempts, "
                    + "token-requests or user-code-guesses; N=0 turns it off.", repeatable: true),
        ] + firebaseOptions + MFAOptions.specs + [dataDirectory, databaseURL])

    /// `latchd tenant update`.
    static let tenantUpdate = CommandSpec(
        words: ["tenant", "update"], operands: ["NAME"],
        summary: "Change the settings of tenant NAME; running servers apply them within 2 seconds.",
        options: [
            .valued("brand-name", "NAME", "The name the hosted sign-in pages show (default: the tenant name)."),
            .valued(
                "email-from", "ADDRESS",
                "The sender of the tenant's e-mail, addr or 'Name <addr>' (default: --smtp-from, named after the tenant); "
                    + "'' resets it."),
            .valued("brand-color", "#RRGGBB", "The accent colour of the hosted pages' buttons and links."),
            .valued("logo-url", "URL", "An https URL of the logo the hosted pages show."),
            .valued(
                "browser-session-seconds", "N",
                "How long a hosted-page sign-in keeps the browser signed in (single sign-on; default 1209600, 14 days)."),
            .valued(
                "refresh-grace-seconds", "N",
                "Re-exchange a rotated refresh token whose successor is unused within N seconds (0 to 300)."),
            .valued(
                "rate-limit", "KIND=N/PERIOD",
                "Per-source limit, e.g. flow-starts=30/5m; KIND is flow-starts, code-sends, password-attempts, "
                    + "token-requests or user-code-guesses; N=0 turns it off.", repeatable: true),
        ] + firebaseOptions + MFAOptions.specs + [dataDirectory, databaseURL])

    /// `latchd tenant list`.
    static let tenantList = CommandSpec(
        words: ["tenant", "list"], summary: "List the tenants.", options: [dataDirectory, databaseURL])

    /// `latchd client create`.
    static let clientCreate = CommandSpec(
        words: ["client", "create"],
        summary: "Create a public client, or with --confidential one with a secret, or with --jwks one with keys.",
        options: [
            .valued("id", "ID", "The client id.", required: true),
            .flag(
                "confidential",
                "A confidential client: prints a new client secret once (only its hash is stored)."),
            .valued(
                "redirect-uri", "URI",
                "A redirect URI of the code flow: https, http on 127.0.0.1/[::1] (any port matches), "
                    + "or a private-use scheme like com.example.app:/cb.",
                repeatable: true),
            .valued(
                "grant-type", "GRANT",
                "A grant the client may use: authorization_code, refresh_token, client_credentials, "
                    + "urn:ietf:params:oauth:grant-type:device_code, password, oob, continuation_token, mfa_oob "
                    + "(default: all of its kind).",
                repeatable: true),
            .flag("third-party", "A third-party client: users consent on the hosted page; no native-auth grants."),
            .valued(
                "post-logout-redirect-uri", "URI", "Where RP-initiated logout may send the browser back to.",
                repeatable: true),
            .valued(
                "jwks", "FILE",
                "A confidential client authenticating with private_key_jwt: JWTs signed by a key of this JWKS "
                    + "(RS256 or ES256 public keys); no secret."),
            tenant,
            .valued("name", "NAME", "Display name (default: the id)."),
            .valued("scope", "SCOPE", "A scope the client may request; others are declined.", repeatable: true),
            .valued(
                "attestation-key", "KEYID",
                "Require the Latch-App-Attestation header to name this key id on every request.",
                repeatable: true),
            .valued(
                "api-key", "KEY",
                "The API key Firebase-shaped clients send as ?key= (16-128 of A-Z a-z 0-9 - _ .; default: random)."),
            dataDirectory, databaseURL,
        ])

    /// `latchd client rotate-secret`.
    static let clientRotateSecret = CommandSpec(
        words: ["client", "rotate-secret"],
        summary: "Give a confidential client a new secret, printed once; the old one stops working.",
        options: [.valued("id", "ID", "The client id.", required: true), tenant, dataDirectory, databaseURL])

    /// `latchd client set-jwks`.
    static let clientSetJWKS = CommandSpec(
        words: ["client", "set-jwks"],
        summary: "Replace the private_key_jwt keys of a confidential client; assertions signed by others stop working.",
        options: [
            .valued("id", "ID", "The client id.", required: true),
            .valued("jwks", "FILE", "The new JWKS (RS256 or ES256 public keys).", required: true),
            tenant, dataDirectory, databaseURL,
        ])

    /// `latchd client list`.
    static let clientList = CommandSpec(
        words: ["client", "list"], summary: "List the clients of a tenant.", options: [tenant, dataDirectory, databaseURL])

    /// `latchd user create`.
    static let userCreate = CommandSpec(
        words: ["user", "create"],
        summary: "Create a user.",
        options: [
            .valued("email", "ADDRESS", "The e-mail address.", required: true),
            tenant,
            .valued("name", "NAME", "Display name."),
            .flag("password-stdin", "Read the password as one line from standard input (else none is set)."),
            dataDirectory, databaseURL,
        ])

    /// `latchd user list`.
    static let userList = CommandSpec(
        words: ["user", "list"], summary: "List the users of a tenant.", options: [tenant, dataDirectory, databaseURL])

    /// `latchd keys list`.
    static let keysList = CommandSpec(
        words: ["keys", "list"], summary: "List the signing keys of a tenant.", options: [tenant, dataDirectory, databaseURL])

    /// `latchd keys rotate`.
    static let keysRotate = CommandSpec(
        words: ["keys", "rotate"],
        summary: "Publish a new signing key; earlier keys stay published until their tokens expire.",
        options: [
            tenant,
            .valued("algorithm", "ES256|RS256", "Algorithm of the new key (default ES256)."),
            .flag("now", "Sign with the new key at once (e.g. the old one leaked), not after a delay."),
            dataDirectory, databaseURL,
        ])

    /// `latchd keys revoke`.
    static let keysRevoke = CommandSpec(
        words: ["keys", "revoke"], operands: ["KID"],
        summary:
            "Revoke a leaked signing key: it leaves the JWKS and verification at once (running servers within 5 s); "
            + "a fresh key signs if it was the signing one.",
        options: [tenant, dataDirectory, databaseURL])

    /// `latchd custom-token mint`.
    static let customTokenMint = CommandSpec(
        words: ["custom-token", "mint"],
        summary:
            "Print a custom token for account UID of tenant T, valid for an hour, signed RS256 with the tenant's "
            + "service-account key (made on first use): signInWithCustomToken / verifyCustomToken take it.",
        options: [
            .valued("tenant", "T", "The tenant (default: default)."),
            .valued("uid", "UID", "The account id (1-128 characters); a new one is created at sign-in.", required: true),
            .valued(
                "claims", "JSON",
                "A JSON object of developer claims for the top level of the ID token (no reserved names such as "
                    + "iss, sub, aud, exp, firebase)."),
            dataDirectory, databaseURL,
        ])

    /// `latchd idp add`.
    static let idpAdd = CommandSpec(
        words: ["idp", "add"],
        summary:
            "Add an OpenID Connect identity provider to tenant T: apps sign in with its ID tokens at signInWithIdp / "
            + "verifyAssertion (postBody providerId=oidc.x&id_token=...), verified against its JWKS.",
        options: [
            .valued("tenant", "T", "The tenant.", required: true),
            .valued(
                "provider-id", "oidc.NAME", "The provider id apps send: oidc. then letters, digits, '.', '_' or '-'.",
                required: true),
            .valued(
                "issuer", "URL", "The 'iss' of its ID tokens: an https URL (http only on a loopback host).",
                required: true),
            .valued("client-id", "AUD", "The client id its ID tokens are issued to: their 'aud' must name it.", required: true),
            .valued("jwks-file", "PATH", "A JWKS document (RS256 / ES256 keys) to verify with; or --jwks-url."),
            .valued(
                "jwks-url", "URL",
                "Where its JWKS is served (https; http only on a loopback host), fetched and kept 10 minutes."),
            .flag("disabled", "Add it turned off: its sign-ins answer OPERATION_NOT_ALLOWED."),
            dataDirectory, databaseURL,
        ])

    /// `latchd idp list`.
    static let idpList = CommandSpec(
        words: ["idp", "list"],
        summary: "List the identity providers of tenant T: provider id, issuer, client id, keys, state.",
        options: [.valued("tenant", "T", "The tenant.", required: true), dataDirectory, databaseURL])

    /// `latchd idp remove`.
    static let idpRemove = CommandSpec(
        words: ["idp", "remove"],
        summary:
            "Remove identity provider oidc.NAME of tenant T: its sign-ins stop; linked identities stay and work again "
            + "if it is added back.",
        options: [
            .valued("tenant", "T", "The tenant.", required: true),
            .valued("provider-id", "oidc.NAME", "The provider to remove.", required: true),
            dataDirectory, databaseURL,
        ])

    /// `latchd outbox`.
    static let outbox = CommandSpec(
        words: ["outbox"],
        summary:
            "Print the latest outgoing messages (e-mail and SMS), newest first, with their delivery attempts and last "
            + "error; their one-time codes only with --dev.",
        options: [
            .flag("dev", "Show the one-time codes (a development server; elsewhere codes are for their recipients only)."),
            .flag("failed", "Only the dead letters: messages abandoned after their last attempt or for want of a transport."),
            .valued("tenant", "T", "Only messages of tenant T (default: every tenant)."),
            .valued("to", "ADDRESS", "Only messages to ADDRESS."),
            .valued("limit", "N", "At most N messages (default 10)."),
            dataDirectory, databaseURL,
        ])

    /// `latchd audit`.
    static let audit = CommandSpec(
        words: ["audit"],
        summary: "Print the latest audit events of a tenant, newest first.",
        options: [tenant, .valued("limit", "N", "At most N events (default 20)."), dataDirectory, databaseURL])

    /// `latchd admin-token create`.
    static let adminTokenCreate = CommandSpec(
        words: ["admin-token", "create"],
        summary:
            "Make a bearer token for the admin endpoints of tenant T only, and print it: it is shown once, "
            + "only its SHA-256 is kept.",
        options: [
            .valued("tenant", "T", "The one tenant whose /T/admin/* endpoints the token opens.", required: true),
            .valued("name", "LABEL", "A label to tell tokens apart in 'admin-token list' (at most 100 characters)."),
            dataDirectory, databaseURL,
        ])

    /// `latchd admin-token list`.
    static let adminTokenList = CommandSpec(
        words: ["admin-token", "list"],
        summary: "List the scoped admin tokens, oldest first: id, tenant, created, last used, state, label (never the secret).",
        options: [.valued("tenant", "T", "Only the tokens of tenant T (default: every tenant)."), dataDirectory, databaseURL])

    /// `latchd admin-token revoke`.
    static let adminTokenRevoke = CommandSpec(
        words: ["admin-token", "revoke"], operands: ["ID"],
        summary: "Revoke the scoped admin token ID: it opens nothing from the next request on, in running servers too.",
        options: [dataDirectory, databaseURL])

    /// Every command, in the order the help lists them.
    static let all: [CommandSpec] = [
        serve, tenantCreate, tenantUpdate, tenantList, clientCreate, clientRotateSecret, clientSetJWKS, clientList, userCreate,
        userList,
        keysList, keysRotate,
        keysRevoke, adminTokenCreate, adminTokenList, adminTokenRevoke, customTokenMint, idpAdd, idpList,
        idpRemove, outbox, audit,
    ]

    /// The commands whose first word is `group`.
    static func commands(in group: String) -> [CommandSpec] {
        all.filter { $0.words.first == group }
    }

    /// The account API (Firebase-shaped) settings `tenant create` and `tenant update` take.
    private static let firebaseOptions: [Option] = [
        .valued(
            "anonymous-sign-in", "on|off", "Whether the account API may create anonymous accounts (default on)."),
        .valued(
            "recent-sign-in-seconds", "N",
            "How recent a sign-in an e-mail or password change, or a deletion, needs (1 to 86400; default 300)."),
    ]
    private static let tenant = Option.valued("tenant", "T", "The tenant (default: default).")
    private static let dataDirectory = Option.valued("data-dir", "DIR", "The server's data directory (default ./latch-data).")
    private static let databaseURL = Option.valued(
        "database-url", "URL",
        "The server's PostgreSQL database (postgres://...; LATCH_DATABASE_URL), instead of the data directory's SQLite file.")
}
