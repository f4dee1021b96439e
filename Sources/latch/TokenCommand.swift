import Foundation
import Latch

/// `latch token [--scope S]... [--force-refresh] [--account EMAIL] [--mfa-method M]`: prints an
/// access token for the selected account, from the cache or refreshed silently. When the refresh
/// is refused with a claims challenge (a conditional-access rule wants a recent second factor),
/// it steps the session up: the same second-factor interaction as `latch signin`, then the token.
/// When the session ended and standard input is a terminal, it signs in again in the browser
/// (`latch signin --browser`, with the account as the login hint), then prints the token.
struct TokenCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Prints the token (or, with `--json`, the token, its expiry, scopes and account).
    func run() async throws {
        let account = try await AccountSelector(context: context).select()
        let scopes = context.options.requestedScopes
        let result: LatchTokenResult
        do {
            result = try await context.client.acquireTokenSilent(
                scopes: scopes, account: account, forceRefresh: context.options.forceRefresh)
        } catch let error as LatchError where error.code == .interactionRequired && error.claimsChallenge != nil {
            result = try await stepUp(account, claims: error.claimsChallenge ?? "", scopes: scopes ?? [])
        } catch let error as LatchError where error.code == .interactionRequired && context.prompter.isTerminal {
            // The session ended: a person at the terminal signs in again in the browser, as the same account.
            context.prompter.note("The session of \(account.username) has ended; signing in again in the browser.")
            result = try await BrowserSignInCommand(context: context).signIn(
                LatchInteractiveParameters(error: error, scopes: scopes ?? []))
        }
        context.output.result(
            [
                "access_token": .string(result.accessToken), "token_type": .string("Bearer"),
                "expires_on": .int(Int(result.expiresOn.timeIntervalSince1970)),
                "scopes": .array(result.scopes.map(JSONValue.string)), "account": OutputPrinter.account(result.account),
            ], human: result.accessToken)
    }

    /// Proves the second factor the claims challenge asks for, in the same session
    /// (``LatchClient/stepUp(account:claims:scopes:correlationID:)``), and returns its tokens.
    private func stepUp(_ account: LatchAccount, claims: String, scopes: [String]) async throws -> LatchTokenResult {
        context.prompter.note("The server asks for a second factor for \(account.username).")
        let step = try await context.client.stepUp(account: account, claims: claims, scopes: scopes)
        return try await SignInSteps(context: context).answer(step).result
    }
}
