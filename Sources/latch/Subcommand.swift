/// The subcommands of `latch`, by their command-line spelling.
enum Subcommand: String, CaseIterable, Sendable {
    /// Create an account, then sign in.
    case signup
    /// Sign in with a password or an e-mail code.
    case signin
    /// Reset a forgotten password, then sign in.
    case resetPassword = "reset-password"
    /// Print an access token for a stored account.
    case token
    /// Print the ID-token claims of a stored account.
    case whoami
    /// List stored accounts.
    case accounts
    /// Remove a stored account.
    case signout
    /// List the account's second-factor methods (`latch mfa list`).
    case mfa
    /// Show or change the account through the Firebase-style account API (`latch account ACTION`).
    case account
    /// Print the help text.
    case help

    /// What the subcommand does, for the help; may span lines.
    var summary: String {
        switch self {
        case .signup:
            "Create an account: e-mail, password, the e-mailed code (and any\nattributes the server asks for); then signs in."
        case .signin:
            "Sign in: e-mail, then the password or an e-mailed code, as the server decides;\n"
                + "then a second factor, or registering one, when the tenant asks for it.\n"
                + "--browser signs in in the system browser instead (a loopback redirect);\n"
                + "--device with a code approved on another device (the verification page).\n"
                + "--anonymous, --custom-token T and --email-link sign in through the\n"
                + "Firebase-style account API instead (they need the client's API key)."
        case .resetPassword: "E-mail, the e-mailed code, a new password; then signs in."
        case .token:
            "Print an access token for the account, refreshing it silently when needed\n"
                + "(with a second factor first when a conditional-access rule asks for one;\n"
                + "in the browser when the session ended and stdin is a terminal)."
        case .whoami: "Print the claims of the account's ID token."
        case .accounts: "List stored accounts and their session state."
        case .signout: "Remove the account and its tokens from this machine (--global: and end the\nsession on the server)."
        case .mfa: "List the account's second-factor methods, contacts masked ('latch mfa list')."
        case .account:
            "Show or change the account through the Firebase-style account API (needs the\n"
                + "client's API key): show, update-email, update-password, verify-email, delete,\n"
                + "link, unlink."
        case .help: "Show the help, or the help of SUBCOMMAND."
        }
    }

    /// The subcommand-specific options this subcommand accepts (global options are always accepted).
    var allowedOptions: Set<String> {
        switch self {
        case .signup: Self.secondStepOptions.union(["--email", "--password-stdin", "--scope", "--attribute"])
        case .signin:
            Self.secondStepOptions.union([
                "--email", "--password-stdin", "--scope", "--anonymous", "--custom-token", "--email-link", "--browser",
                "--browser-command", "--device",
            ])
        case .resetPassword: Self.secondStepOptions.union(["--email", "--password-stdin", "--scope"])
        case .account: ["--account", "--email", "--password-stdin", "--provider-id", "--id-token"]
        case .token: ["--account", "--scope", "--force-refresh", "--mfa-method", "--browser-command"]
        case .whoami, .mfa: ["--account"]
        case .signout: ["--account", "--global"]
        case .accounts, .help: []
        }
    }

    /// The options that answer a sign-in's second steps: the second factor and the registration
    /// of a strong method.
    private static let secondStepOptions: Set<String> = ["--mfa-method", "--register-email", "--register-phone"]
}
