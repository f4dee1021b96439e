import Latch

/// `latch signout [--account EMAIL]`: removes the selected account and its tokens from the
/// credential store.
struct SignOutCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Signs out and reports which account.
    func run() async throws {
        let account = try await AccountSelector(context: context).select()
        try await context.client.signOut(account: account)
        context.output.result(
            ["status": .string("signed_out"), "account": OutputPrinter.account(account)],
            human: "Signed out \(account.username).")
    }
}
