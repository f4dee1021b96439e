/// The help texts of `latch`: `latch --help` and `latch SUBCOMMAND --help`, and the usage lines
/// printed after a usage error.
enum HelpText {
    /// The full help, ending with the exit-status table.
    static var full: String {
        let exits = ExitCode.allCases.map { "  \($0.rawValue)    \($0.summary)" }.joined(separator: "\n")
        let subcommands = Subcommand.allCases.map { ($0.rawValue, $0.summary) }
        return """
            USAGE: latch [--server URL] [--tenant T] [--client-id ID] [OPTIONS] SUBCOMMAND [OPTIONS]

            Sign up, sign in and get tokens from a Latch server (latchd).

            SUBCOMMANDS:
            \(table(subcommands))

            GLOBAL OPTIONS:
            \(table(globalOptions.map { ($0.spelling, $0.summary) }))

            SIGNUP / SIGNIN / RESET-PASSWORD OPTIONS:
              --email E          The e-mail address (else env LATCH_EMAIL, else a prompt).
              --password-stdin   Read the password as one line from standard input.
              --scope S          Request scope S (repeatable; default openid offline_access).
              --attribute K=V    signup only: a user attribute (repeatable).
              Env LATCH_PASSWORD and LATCH_CODE answer the password and code prompts.

            SECOND FACTOR (SIGNUP / SIGNIN / RESET-PASSWORD, and --mfa-method for TOKEN):
              --mfa-method M     The method the second-factor code goes through: its id, or email
                                 or sms (the first of that channel). Default: asked at a terminal,
                                 else the first method.
              --register-email ADDRESS, --register-phone +E164
                                 The contact to register when the tenant requires a second factor
                                 and the account has none; required when stdin is not a terminal.
              Env LATCH_MFA_CODE and LATCH_REGISTRATION_CODE answer the second-factor and
              registration code prompts.

            SIGNIN IN A BROWSER OR WITH A DEVICE CODE:
              --browser          Sign in in the system browser (authorization code + PKCE; the
                                 redirect comes back to 127.0.0.1 on a random port).
              --browser-command CMD
                                 The command that opens the page (%s is the URL, else it is
                                 appended); default env BROWSER, else xdg-open.
              --device           Print a verification URL and a code to enter there on another
                                 device, then wait for the approval.

            SIGNIN THROUGH THE ACCOUNT API (need --api-key or env LATCH_API_KEY):
              --anonymous        Sign in as a new anonymous user.
              --custom-token T   Sign in with a custom token ('latchd custom-token mint').
              --email-link       E-mail a sign-in link to --email, then ask for the link
                                 (env LATCH_EMAIL_LINK answers the prompt).

            ACCOUNT ACTIONS ('latch account ACTION [--account EMAIL]', need the API key too):
              show               The profile the server holds: uid, e-mail, verified, providers.
              update-email       Change the e-mail address to --email (else a prompt).
              update-password    Change the password (prompt, --password-stdin or LATCH_PASSWORD).
              verify-email       Send a verification e-mail, then ask for its link or code
                                 (LATCH_CODE answers; an empty answer leaves it for later).
              delete             Delete the account on the server and sign it out here.
              link               Link an e-mail and password (--email, then a password), or
                                 with --provider-id oidc.X --id-token T an OpenID identity.
              unlink             Unlink --provider-id P.
              A change of e-mail, password or providers, and delete, need a recent sign-in.

            TOKEN / WHOAMI / SIGNOUT / MFA OPTIONS:
              --account EMAIL    The account (default: the only one, else the most recently used).
              --scope S          token only: request scope S (repeatable); when a conditional-
                                 access rule wants a second factor for it, token asks for one.
              --force-refresh    token only: refresh even when the cached token is still valid.
              --global           signout only: also revoke the session on the server.
              When the session has ended and standard input is a terminal, token signs in
              again in the browser (--browser-command CMD as for signin).

            Run 'latch SUBCOMMAND --help' (or -h) for one subcommand; help signs in, sends and
            writes nothing.

            INPUT:
            \(input)

            EXIT STATUS:
            \(exits)
            """
    }

    /// What a usage error without a subcommand prints after the message.
    static var usage: String {
        "USAGE: latch [GLOBAL OPTIONS] SUBCOMMAND [OPTIONS]\nRun 'latch --help' for the subcommands and options."
    }

    /// What a usage error of `subcommand` prints after the message.
    static func usage(_ subcommand: Subcommand) -> String {
        synopsis(subcommand) + "\nRun 'latch \(subcommand.rawValue) --help' for what each option does."
    }

    /// The text of `latch SUBCOMMAND --help`.
    static func help(_ subcommand: Subcommand) -> String {
        var sections = [synopsis(subcommand), subcommand.summary.replacing("\n", with: " ")]
        let own = options(of: subcommand)
        if !own.isEmpty { sections.append("OPTIONS:\n" + table(own.map { ($0.spelling, $0.summary) })) }
        if let answers = environmentAnswers(subcommand) { sections.append(answers + "\n\nINPUT:\n" + input) }
        sections.append("GLOBAL OPTIONS:\n" + table(globalOptions.map { ($0.spelling, $0.summary) }))
        sections.append("Run 'latch --help' for every subcommand and the exit statuses.")
        return sections.joined(separator: "\n\n")
    }

    /// Which environment variables answer the prompts of `subcommand`, or `nil` when it asks nothing.
    private static func environmentAnswers(_ subcommand: Subcommand) -> String? {
        switch subcommand {
        case .signup, .signin, .resetPassword:
            """
            Env LATCH_PASSWORD and LATCH_CODE answer the password and code prompts; LATCH_MFA_CODE
            and LATCH_REGISTRATION_CODE the second-factor and registration code prompts.
            """
        case .token: "Env LATCH_MFA_CODE answers the second-factor code prompt of a step-up."
        case .account:
            """
            Env LATCH_PASSWORD answers the password prompt (update-password, link) and LATCH_CODE
            the verification prompt (verify-email).
            """
        default: nil
        }
    }

    /// `USAGE: latch signin [--email E] [--password-stdin] [--scope S]... [GLOBAL OPTIONS]`.
    private static func synopsis(_ subcommand: Subcommand) -> String {
        let own = options(of: subcommand).map { "[\($0.spelling)]" + ($0.repeatable ? "..." : "") }
        let operand =
            switch subcommand {
            case .help: ["[SUBCOMMAND]"]
            case .mfa: ["list"]
            case .account: ["ACTION"]
            default: [String]()
            }
        return (["USAGE: latch", subcommand.rawValue] + operand + own + ["[GLOBAL OPTIONS]"]).joined(separator: " ")
    }

    /// The subcommand-specific options of `subcommand`, in help order.
    private static func options(of subcommand: Subcommand) -> [Option] {
        subcommandOptions.filter { subcommand.allowedOptions.contains($0.name) }
    }

    /// How prompts read their answers.
    private static let input = """
          Prompts are written to stderr. Passwords typed at a terminal are not echoed. When
          standard input is not a terminal, every prompt reads its answer as one line from
          standard input, in order (signup: e-mail, password, code; signin: e-mail, then
          password or code; reset-password: e-mail, code, new password; then, when the
          tenant asks, the registration code or the second-factor code; token: the
          second-factor code of a step-up), skipping answers given by options or the
          environment. Without a terminal no list is offered: --mfa-method picks the method
          (else the first one), and registering one needs --register-email or --register-phone.
        """
}
