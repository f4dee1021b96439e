/// The options as `latch --help` and `latch SUBCOMMAND --help` document them.
extension HelpText {
    /// One documented option.
    struct Option: Sendable {
        /// The spelling, `--email`.
        let name: String
        /// The placeholder of its value, or `nil` for a flag.
        var value: String?
        /// Whether it may be given more than once.
        var repeatable = false
        /// What it does; may span lines.
        let summary: String

        /// `--email E`.
        var spelling: String { name + (value.map { " \($0)" } ?? "") }
    }

    /// The options every subcommand takes, in help order.
    static let globalOptions: [Option] = [
        Option(
            name: "--server", value: "URL",
            summary: """
                Server origin, or the tenant URL latchd prints (…/default)
                (env LATCH_SERVER; default \(ClientSettings.defaultServer)).
                """),
        Option(name: "--tenant", value: "T", summary: "Tenant (env LATCH_TENANT; default \(ClientSettings.defaultTenant))."),
        Option(
            name: "--client-id", value: "ID",
            summary: "Client id (env LATCH_CLIENT_ID; default \(ClientSettings.defaultClientID))."),
        Option(
            name: "--config", value: "FILE",
            summary: """
                JSON file {"server": ..., "tenant": ..., "client_id": ..., "minimum_validity": seconds}
                (default $XDG_CONFIG_HOME/latch/config.json or ~/.config/latch/config.json);
                env LATCH_MINIMUM_VALIDITY overrides "minimum_validity".
                Options beat the environment, which beats the file.
                """),
        Option(
            name: "--cache", value: "FILE",
            summary: """
                Credential file (env LATCH_CACHE; default $XDG_DATA_HOME/latch/credentials.json
                or ~/.local/share/latch/credentials.json).
                """),
        Option(
            name: "--ca-file", value: "FILE",
            summary: """
                PEM file of certificate authorities to trust for https, in addition to the
                system store, e.g. the development CA 'latchd serve --dev --tls' prints
                (<data-dir>/dev-ca.pem). Requests then go through libcurl (Linux only).
                """),
        Option(
            name: "--api-key", value: "K",
            summary: """
                The client's API key, for signin --anonymous / --custom-token / --email-link
                and 'latch account' (env LATCH_API_KEY; 'latchd client create --api-key').
                """),
        Option(
            name: "--json",
            summary: """
                Print one JSON object per result on stdout; errors as {"error": {"code",
                "name", "message", "recovery", ...}} on stdout too.
                """),
        Option(name: "-h, --help", summary: "Show the help and do nothing else."),
    ]

    /// The options only some subcommands take (``Subcommand/allowedOptions``), in help order.
    static let subcommandOptions: [Option] = [
        Option(name: "--email", value: "E", summary: "The e-mail address (else env LATCH_EMAIL, else a prompt)."),
        Option(name: "--password-stdin", summary: "Read the password as one line from standard input."),
        Option(name: "--account", value: "EMAIL", summary: "The account (default: the only one, else the most recently used)."),
        Option(
            name: "--scope", value: "S", repeatable: true,
            summary: "Request scope S (repeatable; default openid offline_access)."),
        Option(name: "--attribute", value: "K=V", repeatable: true, summary: "A user attribute (repeatable)."),
        Option(name: "--force-refresh", summary: "Refresh even when the cached token is still valid."),
        Option(name: "--global", summary: "Also revoke the session on the server (RFC 7009 token revocation)."),
        Option(
            name: "--mfa-method", value: "M",
            summary: """
                The second factor's method: its id, or email or sms (the first of that
                channel). Default: asked at a terminal, else the first method.
                """),
        Option(
            name: "--register-email", value: "ADDRESS",
            summary: "The e-mail address to register when the tenant requires a second factor\nthe account lacks."),
        Option(name: "--anonymous", summary: "Sign in as a new anonymous user (the tenant must allow it)."),
        Option(
            name: "--custom-token", value: "T",
            summary: "Sign in with a custom token ('latchd custom-token mint', or firebase-admin)."),
        Option(
            name: "--email-link",
            summary: """
                Send a sign-in link to the e-mail address, then ask for the link (env
                LATCH_EMAIL_LINK answers the prompt).
                """),
        Option(
            name: "--browser",
            summary: """
                Sign in in the system browser: the authorization code flow with PKCE, the
                redirect coming back to 127.0.0.1 on a random port.
                """),
        Option(
            name: "--browser-command", value: "CMD",
            summary: """
                The command that opens the sign-in page (%s is the URL, else it is appended);
                default env BROWSER, else xdg-open.
                """),
        Option(
            name: "--device",
            summary: """
                Sign in with a device code: prints the verification page and the code to
                enter there on another device, then waits for the approval.
                """),
        Option(
            name: "--provider-id", value: "P",
            summary: "account link / unlink: the provider, e.g. password or oidc.example."),
        Option(
            name: "--id-token", value: "T",
            summary: "account link: the ID token the OpenID Connect provider --provider-id issued."),
        Option(
            name: "--register-phone", value: "+E164",
            summary: "The phone number to register (for SMS codes) when the tenant requires a\nsecond factor the account lacks."),
    ]

    /// `rows` as two aligned columns under a two-space indent, the second at column 21 or right of
    /// the widest first cell; summaries continue below themselves.
    static func table(_ rows: [(String, String)]) -> String {
        let column = max((rows.map(\.0.count).max() ?? 0) + 3, 19)
        return rows.map { left, right in
            let lines = right.split(separator: "\n", omittingEmptySubsequences: false)
            let continuation = "\n" + String(repeating: " ", count: column + 2)
            return "  " + left + String(repeating: " ", count: column - left.count) + lines.joined(separator: continuation)
        }.joined(separator: "\n")
    }
}
