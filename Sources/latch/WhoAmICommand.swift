import Latch

/// `latch whoami [--account EMAIL]`: prints the claims of the selected account's ID token, decoded
/// without verification, as stored by the last sign-in or refresh.
struct WhoAmICommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Prints the claims (`name: value` lines, or a JSON object with `account` and `claims`).
    func run() async throws {
        let account = try await AccountSelector(context: context).select()
        guard let claims = account.claims else {
            throw LatchError(
                code: .malformedJWT, message: "No readable ID token is stored for \(account.username); sign in again.")
        }
        let decoded = try JSONValue.from(claims)
        guard case .object(let members) = decoded else { return }
        let lines = members.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.plain)" }
        context.output.result(
            ["account": OutputPrinter.account(account), "claims": decoded],
            human: lines.joined(separator: "\n"))
    }
}
