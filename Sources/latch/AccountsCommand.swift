import Latch

/// `latch accounts`: lists the accounts stored for this server, tenant and client, with their
/// session state (`signed_in`, or `interaction_required` once the session ended).
struct AccountsCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Prints one line per account (or one JSON object with an `accounts` array).
    func run() async throws {
        let accounts = try await context.client.accounts()
        let lines = accounts.map { account in
            let state = account.sessionState == .signedIn ? "signed in" : "sign-in required"
            return "\(account.username)\t\(state)\t\(account.id)"
        }
        context.output.result(
            ["accounts": .array(accounts.map(OutputPrinter.account))],
            human: lines.isEmpty ? "No accounts. Run 'latch signin'." : lines.joined(separator: "\n"))
    }
}
