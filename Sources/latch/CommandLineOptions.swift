/// The parsed command line: `latch [GLOBAL OPTIONS] SUBCOMMAND [OPTIONS]`. Options may come before
/// or after the subcommand; `--name value` and `--name=value` are both accepted.
struct CommandLineOptions: Sendable {
    /// The subcommand, or `nil` when none was given.
    var subcommand: Subcommand?
    /// `--help` / `-h`.
    var help = false
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
    /// `--attribute NAME=VALUE`, repeatable.
    var attributes: [String: String] = [:]

    /// The requested scopes, or `nil` for the SDK's defaults.
    var requestedScopes: [String]? { scopes.isEmpty ? nil : scopes }

    private static let globalValueOptions: Set<String> = ["--server", "--tenant", "--client-id", "--config", "--cache"]
    private static let valueOptions: Set<String> =
        globalValueOptions.union(["--email", "--account", "--scope", "--attribute"])
    private static let flags: Set<String> = ["--json", "--help", "-h", "--password-stdin", "--force-refresh"]

    /// Parses `arguments` (without the program name).
    /// - Throws: ``UsageError`` for an unknown subcommand or option, a missing value, or an option
    ///   the subcommand does not take.
    static func parse(_ arguments: [String]) throws -> CommandLineOptions {
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
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                guard options.subcommand == nil else { throw UsageError("unexpected argument '\(argument)'") }
                guard let subcommand = Subcommand(rawValue: argument) else {
                    throw UsageError("unknown subcommand '\(argument)'; run 'latch --help'")
                }
                options.subcommand = subcommand
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("option \(name) takes no value") }
                try options.setFlag(name)
            } else if valueOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("option \(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                try options.setValue(name, value)
            } else {
                throw UsageError("unknown option '\(name)'; run 'latch --help'")
            }
            used.append(name)
        }
        if let subcommand = options.subcommand, !options.help {
            let allowed = subcommand.allowedOptions.union(globalValueOptions).union(["--json", "--help", "-h"])
            if let stray = used.first(where: { !allowed.contains($0) }) {
                throw UsageError("option \(stray) does not apply to 'latch \(subcommand.rawValue)'")
            }
        }
        return options
    }

    private mutating func setFlag(_ name: String) throws {
        switch name {
        case "--json": json = true
        case "--help", "-h": help = true
        case "--password-stdin": passwordFromStandardInput = true
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
        case "--email": email = value
        case "--account": account = value
        case "--scope":
            let parts = value.split(separator: " ").map(String.init)
            guard !parts.isEmpty else { throw UsageError("option --scope needs a non-empty value") }
            scopes.append(contentsOf: parts)
        default:
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
                throw UsageError("option --attribute needs NAME=VALUE, got '\(value)'")
            }
            attributes[String(value[..<equals])] = String(value[value.index(after: equals)...])
        }
    }
}
