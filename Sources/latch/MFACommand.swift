import Latch

/// `latch mfa list [--account EMAIL]`: lists the selected account's strong authentication methods
/// (its second factors) as the server holds them, contacts masked. The request carries the
/// account's access token, acquired silently first (``AuthMethodsRequest``).
struct MFACommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Prints a table (channel, masked contact, verified, created, id), or with `--json` an object
    /// with `account` and `methods` (`id`, `channel`, `login_hint`, `verified`, `created_at`).
    func run() async throws {
        let account = try await AccountSelector(context: context).select()
        let token = try await context.client.acquireTokenSilent(account: account)
        let methods = try await AuthMethodsRequest(settings: context.settings, transport: context.client.configuration.transport)
            .methods(accessToken: token.accessToken)
        let json = methods.map { method in
            JSONValue.object([
                "id": .string(method.id), "channel": .string(method.challengeChannel), "login_hint": .string(method.loginHint),
                "verified": .bool(method.verified), "created_at": .string(method.createdAt),
            ])
        }
        let rows = methods.map { [$0.challengeChannel, $0.loginHint, $0.verified ? "yes" : "no", $0.createdAt, $0.id] }
        context.output.result(
            ["account": OutputPrinter.account(token.account), "methods": .array(json)],
            human: rows.isEmpty
                ? "No second-factor methods are registered for \(token.account.username)."
                : OutputPrinter.columns([["CHANNEL", "CONTACT", "VERIFIED", "CREATED", "ID"]] + rows))
    }
}
