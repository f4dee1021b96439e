import Foundation
import LatchServer

/// Dispatches `latchd` subcommands. Exit status: 0 success, 1 failure, 2 usage error.
enum LatchdMain {
    static func run(_ words: [String], usage: String) -> Int32 {
        guard let command = words.first, !["-h", "--help", "help"].contains(command) else {
            FileHandleOutput.standardOutput(usage)
            return words.isEmpty ? 2 : 0
        }
        do {
            switch command {
            case "serve":
                return try ServeCommand.run(try Arguments(words, valued: ServeCommand.options))
            case "tenant", "client", "user", "keys", "outbox", "audit":
                return try AdminCommands.run(command, try Arguments(words, valued: AdminCommands.options))
            default:
                throw UsageError("unknown command '\(command)'")
            }
        } catch let error as UsageError {
            FileHandleOutput.standardError("latchd: \(error.description)\n\n\(usage)")
            return 2
        } catch let failure as AuthFailure {
            FileHandleOutput.standardError("latchd: \(describe(failure))\n")
            return 1
        } catch {
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
        case .missingParameter(let parameter), .invalidParameter(let parameter): "\(parameter.rawValue) is missing or not valid"
        case .passwordPolicy(let violation): violation.explanation
        default: "\(failure)"
        }
    }
}
