import Foundation
import Latch

/// The `latch` program: parses the command line, runs the subcommand and maps its outcome to an
/// ``ExitCode``.
enum LatchCommand {
    /// Runs `latch` with `arguments` (without the program name) and returns the exit status.
    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        let json = arguments.contains("--json")
        let output = OutputPrinter(json: json)
        do {
            let options = try CommandLineOptions.parse(arguments)
            if options.help || options.subcommand == .help {
                OutputPrinter.standardOutput(options.helpSubject.map(HelpText.help) ?? HelpText.full)
                return ExitCode.success.rawValue
            }
            guard let subcommand = options.subcommand else {
                throw UsageError("no subcommand given", usage: HelpText.usage)
            }
            let settings = try ClientSettings(options: options, environment: environment)
            let context = CommandContext(
                options: options, settings: settings, client: try LatchClient(configuration: settings.configuration()),
                prompter: Prompter(options: options, environment: environment), output: OutputPrinter(json: options.json))
            do {
                try await execute(subcommand, context)
                return ExitCode.success.rawValue
            } catch let error as LatchError {
                let report = context.report(error)
                output.failure(human: report.humanText, json: report.json)
                return report.exitCode.rawValue
            }
        } catch let error as UsageError {
            output.failure(
                human: "latch: \(error.message)" + (error.usage.map { "\n\n" + $0 } ?? ""),
                json: [
                    "name": .string("ERROR_USAGE"), "message": .string(error.message),
                    "exit_code": .int(Int(ExitCode.usage.rawValue)),
                ])
            return ExitCode.usage.rawValue
        } catch {
            output.failure(
                human: "latch: \(error)",
                json: ["name": .string("ERROR_INTERNAL"), "message": .string("\(error)"), "exit_code": .int(1)])
            return ExitCode.failure.rawValue
        }
    }

    private static func execute(_ subcommand: Subcommand, _ context: CommandContext) async throws {
        switch subcommand {
        case .signup: try await SignUpCommand(context: context).run()
        case .signin:
            if context.options.browser {
                try await BrowserSignInCommand(context: context).run()
            } else if context.options.device {
                try await DeviceSignInCommand(context: context).run()
            } else if FirebaseSignInCommand.applies(to: context.options) {
                try await FirebaseSignInCommand(context: context).run()
            } else {
                try await SignInCommand(context: context).run()
            }
        case .resetPassword: try await ResetPasswordCommand(context: context).run()
        case .token: try await TokenCommand(context: context).run()
        case .whoami: try await WhoAmICommand(context: context).run()
        case .accounts: try await AccountsCommand(context: context).run()
        case .signout: try await SignOutCommand(context: context).run()
        case .mfa: try await MFACommand(context: context).run()
        case .account: try await AccountCommand(context: context).run()
        case .help: OutputPrinter.standardOutput(context.options.helpSubject.map(HelpText.help) ?? HelpText.full)
        }
    }
}
