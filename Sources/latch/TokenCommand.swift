import Foundation
import Latch

/// `latch token [--scope S]... [--force-refresh] [--account EMAIL]`: prints an access token for the
/// selected account, from the cache or refreshed silently.
struct TokenCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Prints the token (or, with `--json`, the token, its expiry, scopes and account).
    func run() async throws {
        let account = try await AccountSelector(context: context).select()
        let result = try await context.client.acquireTokenSilent(
            scopes: context.options.requestedScopes, account: account, forceRefresh: context.options.forceRefresh)
        context.output.result(
            [
                "access_token": .string(result.accessToken), "token_type": .string("Bearer"),
                "expires_on": .int(Int(result.expiresOn.timeIntervalSince1970)),
                "scopes": .array(result.scopes.map(JSONValue.string)), "account": OutputPrinter.account(result.account),
            ], human: result.accessToken)
    }
}
