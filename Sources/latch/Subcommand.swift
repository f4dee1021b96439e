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
    /// Print the help text.
    case help

    /// The subcommand-specific options this subcommand accepts (global options are always accepted).
    var allowedOptions: Set<String> {
        switch self {
        case .signup: ["--email", "--password-stdin", "--scope", "--attribute"]
        case .signin, .resetPassword: ["--email", "--password-stdin", "--scope"]
        case .token: ["--account", "--scope", "--force-refresh"]
        case .whoami, .signout: ["--account"]
        case .accounts, .help: []
        }
    }
}
