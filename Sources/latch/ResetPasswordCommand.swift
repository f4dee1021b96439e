import Latch

/// `latch reset-password`: asks for the e-mail address, the code sent to it and a new password,
/// then signs in with it.
struct ResetPasswordCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Runs the password reset.
    func run() async throws {
        let prompter = context.prompter
        let email = try prompter.email(preset: context.options.email).value
        guard case .codeRequired(let codeState) = try await context.client.resetPassword(username: email) else { return }
        let passwordState = try await context.submitting({ try prompter.code(sentTo: codeState.delivery.sentTo) }) {
            try await codeState.submitCode($0)
        }
        let finished = try await context.submitting({ try prompter.password("New password", confirm: true) }) {
            try await passwordState.submitPassword($0)
        }
        let result = try await finished.signIn(scopes: context.options.requestedScopes)
        context.output.signedIn(result, flow: "reset_password")
    }
}
