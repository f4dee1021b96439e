/// The text of `latch --help`.
enum HelpText {
    /// The full help, ending with the exit-status table.
    static var full: String {
        let exits = ExitCode.allCases.map { "  \($0.rawValue)    \($0.summary)" }.joined(separator: "\n")
        return """
            USAGE: latch [--server URL] [--tenant T] [--client-id ID] [OPTIONS] SUBCOMMAND [OPTIONS]

            Sign up, sign in and get tokens from a Latch server (latchd).

            SUBCOMMANDS:
              signup           Create an account: e-mail, password, the e-mailed code (and any
                               attributes the server asks for); then signs in.
              signin           Sign in: e-mail, then the password or an e-mailed code, as the server decides.
              reset-password   E-mail, the e-mailed code, a new password; then signs in.
              token            Print an access token for the account, refreshing it silently when needed.
              whoami           Print the claims of the account's ID token.
              accounts         List stored accounts and their session state.
              signout          Remove the account and its tokens from this machine.
              help             Show this help.

            GLOBAL OPTIONS:
              --server URL       Server origin (env LATCH_SERVER; default \(ClientSettings.defaultServer)).
              --tenant T         Tenant (env LATCH_TENANT; default \(ClientSettings.defaultTenant)).
              --client-id ID     Client id (env LATCH_CLIENT_ID; default \(ClientSettings.defaultClientID)).
              --config FILE      JSON file {"server": ..., "tenant": ..., "client_id": ...}
                                 (default $XDG_CONFIG_HOME/latch/config.json or ~/.config/latch/config.json).
                                 Options beat the environment, which beats the file.
              --cache FILE       Credential file (env LATCH_CACHE; default $XDG_DATA_HOME/latch/credentials.json
                                 or ~/.local/share/latch/credentials.json).
              --json             Print one JSON object per result on stdout; errors as {"error": {"code",
                                 "name", "message", "recovery", ...}} on stdout too.
              -h, --help         Show this help.

            SIGNUP / SIGNIN / RESET-PASSWORD OPTIONS:
              --email E          The e-mail address (else env LATCH_EMAIL, else a prompt).
              --password-stdin   Read the password as one line from standard input.
              --scope S          Request scope S (repeatable; default openid offline_access).
              --attribute K=V    signup only: a user attribute (repeatable).
              Env LATCH_PASSWORD and LATCH_CODE answer the password and code prompts.

            TOKEN / WHOAMI / SIGNOUT OPTIONS:
              --account EMAIL    The account (default: the only one, else the most recently used).
              --scope S          token only: request scope S (repeatable).
              --force-refresh    token only: refresh even when the cached token is still valid.

            INPUT:
              Prompts are written to stderr. Passwords typed at a terminal are not echoed. When
              standard input is not a terminal, every prompt reads its answer as one line from
              standard input, in order (signup: e-mail, password, code; signin: e-mail, then
              password or code; reset-password: e-mail, code, new password), skipping answers
              given by options or the environment.

            EXIT STATUS:
            \(exits)
            """
    }
}
