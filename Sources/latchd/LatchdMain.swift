import Foundation
import LatchServer

/// Dispatches `latchd` commands. Exit status: 0 success, 1 failure, 2 usage error. `--help` or `-h`
/// anywhere among a command's arguments prints its help and does nothing else.
enum LatchdMain {
    static func run(_ words: [String]) -> Int32 {
        guard let first = words.first else {
            FileHandleOutput.standardError(CommandSpec.fullHelp)
            return 2
        }
        if ["help", "--help", "-h"].contains(first) {
            return help(words.dropFirst().filter { $0 != "--help" && $0 != "-h" })
        }
        let command: CommandSpec
        let arguments: [String]
        do {
            switch try CommandLineRoute(words) {
            case .command(let found, let rest):
                (command, arguments) = (found, rest)
            case .group(let group):
                guard Arguments.asksForHelp(words) else {
                    let names = CommandSpec.commands(in: group).compactMap(\.words.last).joined(separator: " or ")
                    throw UsageError("'\(group)' needs a command: \(names)", usage: CommandSpec.groupUsage(group))
                }
                FileHandleOutput.standardOutput(CommandSpec.groupHelp(group))
                return 0
            }
        } catch {
            return report(error, usage: CommandSpec.fullHelp)
        }
        if Arguments.asksForHelp(arguments) {
            FileHandleOutput.standardOutput(command.help)
            return 0
        }
        do {
            let parsed = try Arguments(arguments, for: command)
            if command.name == CommandSpec.serve.name { return try ServeCommand.run(ServeOptions(parsed)) }
            return try AdminCommands.run(command, parsed)
        } catch {
            return report(error, usage: command.usage)
        }
    }

    /// `latchd help [COMMAND]`: the full help, or the help of COMMAND.
    private static func help(_ words: [String]) -> Int32 {
        guard !words.isEmpty else {
            FileHandleOutput.standardOutput(CommandSpec.fullHelp)
            return 0
        }
        do {
            switch try CommandLineRoute(words) {
            case .command(let command, _): FileHandleOutput.standardOutput(command.help)
            case .group(let group): FileHandleOutput.standardOutput(CommandSpec.groupHelp(group))
            }
            return 0
        } catch {
            return report(error, usage: CommandSpec.fullHelp)
        }
    }

    /// Prints `error` to standard error (a usage error followed by `usage`, or its own) and returns the exit status.
    private static func report(_ error: any Error, usage: String) -> Int32 {
        switch error {
        case let error as UsageError:
            FileHandleOutput.standardError("latchd: \(error.description)\n\n\(error.usage ?? usage)")
            return 2
        case let failure as AuthFailure:
            FileHandleOutput.standardError("latchd: \(describe(failure))\n")
            return 1
        default:
            FileHandleOutput.standardError("latchd: \(error)\n")
            return 1
        }
    }

    private static func describe(_ failure: AuthFailure) -> String {
        switch failure {
        case .unknownTenant: "no such tenant"
        case .userAlreadyExists: "a user with this e-mail address exists"
        case .invalidParameter(.tenantName): "tenant names are 1-63 of a-z, 0-9 and '-', starting alphanumeric"
        case .invalidParameter(.clientID): "client ids are 1-128 of A-Z, a-z, 0-9, '-', '_' and '.'"
        case .invalidParameter(.email): "not an e-mail address"
        case .invalidParameter(.keyID): "the tenant has no such signing key (see latchd keys list)"
        case .invalidParameter(.adminTokenID): "no such admin token (see latchd admin-token list)"
        case .invalidParameter(.adminTokenLabel): "admin token labels are at most \(AdminToken.maximumLabelLength) characters"
        case .invalidParameter(.redirectURI):
            "redirect URIs are absolute, without a fragment: https, http on 127.0.0.1 or [::1], "
                + "or a private-use scheme with a dot (com.example.app:/callback)"
        case .invalidParameter(.grantType):
            "unknown grant type, client_credentials on a public client, or a native-auth grant on a third-party client"
        case .missingParameter(let parameter), .invalidParameter(let parameter): "\(parameter.rawValue) is missing or not valid"
        case .passwordPolicy(let violation): violation.explanation
        default: "\(failure)"
        }
    }
}
