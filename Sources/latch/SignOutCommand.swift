import Latch

/// `latch signout [--account EMAIL] [--global]`: removes the selected account and its tokens from
/// the credential store; with `--global` also revokes its session on the server.
struct SignOutCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Signs out and reports which account, and with `--global` whether the server revoked the
    /// session. A failed revocation is reported on standard error; the account is signed out here
    /// either way, so the exit status stays 0.
    func run() async throws {
        let account = try await AccountSelector(context: context).select()
        let scope: SignOutScope = context.options.signOutGlobally ? .global : .local
        let outcome = try await context.client.signOut(account: account, scope: scope)
        var result: [String: JSONValue] = ["status": .string("signed_out"), "account": OutputPrinter.account(account)]
        var human = "Signed out \(account.username)."
        if scope == .global {
            result["revoked_on_server"] = .bool(outcome.isRevokedOnServer)
            if let error = outcome.revocationError {
                result["revocation_error"] = .string(error.code.name)
                human += " The server did not revoke the session (\(error.code.name)): it stays valid there until it expires."
            } else if outcome.isRevokedOnServer {
                human += " The session is revoked on the server."
            }
        }
        context.output.result(result, human: human)
    }
}
