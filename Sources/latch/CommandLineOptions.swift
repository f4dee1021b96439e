/// The parsed command line: `latch [GLOBAL OPTIONS] SUBCOMMAND [OPTIONS]`. Options may come before
/// or after the subcommand; `--name value` and `--name=value` are both accepted. `--help` or `-h`
/// anywhere (before a `--`) asks for the help of the subcommand and nothing else.
struct CommandLineOptions: Sendable {
    /// The subcommand, or `nil` when none was given.
    var subcommand: Subcommand?
    /// `--help` / `-h`.
    var help = false
    /// The subcommand named after `help` (`latch help signin`), whose help is asked for.
    var helpTopic: Subcommand?
    /// `--server URL`.
    var server: String?
    /// `--tenant T`.
    var tenant: String?
    /// `--client-id ID`.
    var clientID: String?
    /// `--config FILE`.
    var config: String?
    /// `--cache FILE`.
    var cache: String?
    /// `--ca-file FILE`.
    var certificateAuthorityFile: String?
    /// `--json`.
    var json = false
    /// `--email E`.
    var email: String?
    /// `--password-stdin`.
    var passwordFromStandardInput = false
    /// `--account EMAIL`.
    var account: String?
    /// `--scope S`, repeatable.
    var scopes: [String] = []
    /// `--force-refresh`.
    var forceRefresh = false
    /// `--global`: sign out on the server too.
    var signOutGlobally = false
    /// `--attribute NAME=VALUE`, repeatable.
    var attributes: [String: String] = [:]
    /// `--mfa-method ID|email|sms`: the second-factor method, by id or by channel.
    var mfaMethod: String?
    /// `--register-email ADDRESS`: the e-mail address to register when a strong method is required.
    var registerEmail: String?
    /// `--register-phone +E164`: the phone number to register when a strong method is required.
    var registerPhone: String?
    /// The action of `latch mfa` (`list`).
    var mfaAction: MFAAction?
    /// The action of `latch account`.
    var accountAction: AccountAction?
    /// `--api-key K`: the client's API key for the Firebase-style account API.
    var apiKey: String?
    /// `--anonymous`: `latch signin` as a new anonymous user.
    var anonymous = false
    /// `--custom-token T`: `latch signin` with a custom token.
    var customToken: String?
    /// `--email-link`: `latch signin` through a link e-mailed to the address.
    var emailLink = false
    /// `--provider-id P`: the provider of `latch account link|unlink`.
    var providerID: String?
    /// `--id-token T`: the OpenID Connect ID token `latch account link` links.
    var idToken: String?
    /// `--browser`: `latch signin` in the system browser (authorization code flow, loopback redirect).
    var browser = false
    /// `--browser-command CMD`: the command that opens the sign-in page (else `BROWSER`, else `xdg-open`).
    var browserCommand: String?
    /// `--device`: `latch signin` with a device code approved on another device.
    var device = false

    /// The requested scopes, or `nil` for the SDK's defaults.
    var requestedScopes: [String]? { scopes.isEmpty ? nil : scopes }

    /// The subcommand whose help to print, when help is asked for; `nil` for the full help
    /// (`latch help`, `latch --help`). `latch help --help` asks for the help of `help`.
    var helpSubject: Subcommand? {
        guard subcommand == .help else { return subcommand }
        return helpTopic ?? (help ? .help : nil)
    }

    /// The options every subcommand takes that need a value.
    static let globalValueOptions: Set<String> = [
        "--server", "--tenant", "--client-id", "--config", "--cache", "--ca-file", "--api-key",
    ]
    private static let valueOptions: Set<String> =
        globalValueOptions.union([
            "--email", "--account", "--scope", "--attribute", "--mfa-method", "--register-email", "--register-phone",
            "--custom-token", "--provider-id", "--id-token", "--browser-command",
        ])
    private static let flags: Set<String> = [
        "--json", "--help", "-h", "--password-stdin", "--force-refresh", "--global", "--anonymous", "--email-link",
        "--browser", "--device",
    ]

    /// Parses `arguments` (without the program name).
    /// - Throws: ``UsageError`` for an unknown subcommand or option, a missing value, or an option
    ///   the subcommand does not take; it names the culprit and carries the subcommand's usage.
    static func parse(_ arguments: [String]) throws -> CommandLineOptions {
        let named = namedSubcommands(arguments)
        do {
            if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
                var options = CommandLineOptions()
                options.help = true
                options.subcommand = try named.first.map(subcommand)
                if options.subcommand == .help { options.helpTopic = try named.dropFirst().first.map(subcommand) }
                return options
            }
            return try parseStrictly(arguments, naming: named.first.flatMap { Subcommand(rawValue: $0) })
        } catch let error as UsageError where error.usage == nil {
            let usage = named.first.flatMap { Subcommand(rawValue: $0) }.map(HelpText.usage) ?? HelpText.usage
            throw UsageError(error.message, usage: usage)
        }
    }

    /// Parses `arguments` without help asked for; errors name the subcommand `named` when known.
    private static func parseStrictly(_ arguments: [String], naming named: Subcommand?) throws -> CommandLineOptions {
        let context = named.map { " for 'latch \($0.rawValue)'" } ?? ""
        var options = CommandLineOptions()
        var used: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !optionsEnded, argument == "--" {
                optionsEnded = true
                continue
            }
            guard !optionsEnded, isOption(argument) else {
                if options.subcommand == .help, options.helpTopic == nil {
                    options.helpTopic = try subcommand(argument)
                    continue
                }
                if options.subcommand == .mfa, options.mfaAction == nil {
                    guard let action = MFAAction(rawValue: argument) else {
                        throw UsageError("unknown action '\(argument)'\(context); the action is 'list'")
                    }
                    options.mfaAction = action
                    continue
                }
                if options.subcommand == .account, options.accountAction == nil {
                    guard let action = AccountAction(rawValue: argument) else {
                        throw UsageError("unknown action '\(argument)'\(context); the actions are \(AccountAction.spelled)")
                    }
                    options.accountAction = action
                    continue
                }
                guard options.subcommand == nil else { throw UsageError("unexpected argument '\(argument)'\(context)") }
                options.subcommand = try subcommand(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value") }
                options.setFlag(name)
            } else if valueOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count, !isOption(arguments[index]) else {
                        throw UsageError("option '\(name)' needs a value")
                    }
                    value = arguments[index]
                    index += 1
                }
                try options.setValue(name, value)
            } else {
                throw UsageError("unknown option '\(name)'\(context)")
            }
            used.append(name)
        }
        if let subcommand = options.subcommand {
            let allowed = subcommand.allowedOptions.union(globalValueOptions).union(["--json", "--help", "-h"])
            if let stray = used.first(where: { !allowed.contains($0) }) {
                throw UsageError("option '\(stray)' does not apply to 'latch \(subcommand.rawValue)'")
            }
            if subcommand == .mfa, options.mfaAction == nil {
                throw UsageError("'latch mfa' needs an action: 'latch mfa list'")
            }
            if subcommand == .account, options.accountAction == nil {
                throw UsageError("'latch account' needs an action: \(AccountAction.spelled)")
            }
            let ways = [options.anonymous, options.customToken != nil, options.emailLink, options.browser, options.device]
                .filter { $0 }.count
            if ways > 1 {
                throw UsageError(
                    "options '--anonymous', '--custom-token', '--email-link', '--browser' and '--device' exclude each other")
            }
            if options.browserCommand != nil, subcommand == .signin, !options.browser {
                throw UsageError("option '--browser-command' needs '--browser'")
            }
        }
        return options
    }

    /// Whether `word` is an option (a value starting with `-` is written `--name=-value`).
    private static func isOption(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-"
    }

    /// The subcommand spelled `word`.
    private static func subcommand(_ word: String) throws -> Subcommand {
        guard let subcommand = Subcommand(rawValue: word) else {
            throw UsageError("unknown subcommand '\(word)'", usage: HelpText.usage)
        }
        return subcommand
    }

    /// The words of `arguments` that are neither options nor their values, up to a `--`: the
    /// subcommand first (and, after `help`, the subcommand whose help is asked for).
    private static func namedSubcommands(_ arguments: [String]) -> [String] {
        var words: [String] = []
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            if !isOption(argument) {
                words.append(argument)
            } else if valueOptions.contains(argument) {
                index += 1
            }
            index += 1
        }
        return words
    }

    private mutating func setFlag(_ name: String) {
        switch name {
        case "--json": json = true
        case "--help", "-h": help = true
        case "--password-stdin": passwordFromStandardInput = true
        case "--global": signOutGlobally = true
        case "--anonymous": anonymous = true
        case "--email-link": emailLink = true
        case "--browser": browser = true
        case "--device": device = true
        default: forceRefresh = true
        }
    }

    private mutating func setValue(_ name: String, _ value: String) throws {
        switch name {
        case "--server": server = value
        case "--tenant": tenant = value
        case "--client-id": clientID = value
        case "--config": config = value
        case "--cache": cache = value
        case "--ca-file": certificateAuthorityFile = value
        case "--email": email = value
        case "--account": account = value
        case "--mfa-method": mfaMethod = try Self.nonEmpty(name, value)
        case "--register-email": registerEmail = try Self.nonEmpty(name, value)
        case "--register-phone": registerPhone = try Self.nonEmpty(name, value)
        case "--api-key": apiKey = try Self.nonEmpty(name, value)
        case "--custom-token": customToken = try Self.nonEmpty(name, value)
        case "--provider-id": providerID = try Self.nonEmpty(name, value)
        case "--id-token": idToken = try Self.nonEmpty(name, value)
        case "--browser-command": browserCommand = try Self.nonEmpty(name, value)
        case "--scope":
            let parts = value.split(separator: " ").map(String.init)
            guard !parts.isEmpty else { throw UsageError("option '--scope' needs a non-empty value") }
            scopes.append(contentsOf: parts)
        default:
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw UsageError("option '--attribute' needs NAME=VALUE, got '\(value)'")
            }
            attributes[String(value[..<equals])] = String(value[value.index(after: equals)...])
        }
    }

    /// `value`, once it is known to be more than white space.
    private static func nonEmpty(_ name: String, _ value: String) throws -> String {
        guard !value.allSatisfy(\.isWhitespace) else { throw UsageError("option '\(name)' needs a non-empty value") }
        return value
    }
}

/// What `latch account` does.
enum AccountAction: String, CaseIterable, Sendable {
    /// Print the account's profile as the server has it.
    case show
    /// Change the e-mail address.
    case updateEmail = "update-email"
    /// Change the password.
    case updatePassword = "update-password"
    /// Send a verification e-mail, then apply its code.
    case verifyEmail = "verify-email"
    /// Delete the account on the server.
    case delete
    /// Link an e-mail and password, or an OpenID Connect identity.
    case link
    /// Unlink a provider.
    case unlink

    /// The actions as a usage message lists them.
    static var spelled: String { allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") }
}

/// What `latch mfa` does.
enum MFAAction: String, Sendable {
    /// List the account's strong authentication methods.
    case list
}
