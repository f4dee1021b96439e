import Foundation
import Latch

/// What every subcommand works with: the parsed options, the resolved settings, the SDK client,
/// the prompter and the output printer.
struct CommandContext: Sendable {
    /// The command line.
    let options: CommandLineOptions
    /// Server, tenant, client and credential file.
    let settings: ClientSettings
    /// The SDK client.
    let client: LatchClient
    /// Input.
    let prompter: Prompter
    /// Output.
    let output: OutputPrinter

    /// How often a person at the terminal may correct a rejected answer.
    static let attemptsPerPrompt = 3

    /// Reads an answer with `read` and submits it with `submit`. When a person typed the answer at
    /// the terminal and the server rejects it with one of `recoveries` (by default as input to
    /// correct: wrong password, wrong code, weak password), the error is shown and the prompt asked
    /// again, up to ``attemptsPerPrompt`` times.
    func submitting<T: Sendable>(
        _ read: () throws -> Prompter.Answer, retryingOn recoveries: [LatchError.Recovery] = [.correctInput],
        _ submit: (String) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            let answer = try read()
            do {
                return try await submit(answer.value)
            } catch let error as LatchError
                where answer.interactive && recoveries.contains(error.recovery) && attempt < Self.attemptsPerPrompt
            {
                warn(error)
                attempt += 1
            }
        }
    }

    /// Shows `error` on standard error, for an answer that will be asked again.
    func warn(_ error: LatchError) {
        FileHandle.standardError.write(Data((report(error).humanText + "\n").utf8))
    }

    /// The report of `error` for these settings.
    func report(_ error: LatchError) -> ErrorReport {
        ErrorReport(
            error: error, server: settings.serverKey, cachePath: settings.cachePath,
            certificateAuthorityFile: settings.certificateAuthorityFile)
    }
}
