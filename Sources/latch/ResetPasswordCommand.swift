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
        var step = try await context.client.resetPassword(username: email)
        while true {
            switch step {
            case .codeRequired(let state):
                step = try await context.submitting({ try prompter.code(sentTo: state.delivery.sentTo) }) {
                    try await state.submitCode($0)
                }
            case .passwordRequired(let state):
                step = try await context.submitting({ try prompter.password("New password", confirm: true) }) {
                    try await state.submitPassword($0)
                }
            case .passwordReset(let finished):
                let signIn = try await finished.signIn(scopes: context.options.requestedScopes)
                try await SignInCommand(context: context).complete(signIn, flow: "reset_password")
                return
            @unknown default:
                throw LatchError(
                    code: .browserRequired, message: "The password reset needs a step this version of latch cannot do.")
            }
        }
    }
}
