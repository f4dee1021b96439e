import Latch

/// `latch signin`: asks for the e-mail address, then the password or an e-mail code, whichever
/// the server asks for, and stores the tokens.
struct SignInCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Runs the sign-in.
    func run() async throws {
        let prompter = context.prompter
        let email = try prompter.email(preset: context.options.email).value
        let result: LatchTokenResult
        switch try await context.client.signIn(username: email, scopes: context.options.requestedScopes) {
        case .completed(let finished):
            result = finished
        case .passwordRequired(let state):
            result = try await context.submitting({ try prompter.password() }) { try await state.submitPassword($0) }
        case .codeRequired(let state):
            result = try await context.submitting({ try prompter.code(sentTo: state.delivery.sentTo) }) {
                try await state.submitCode($0)
            }
        }
        context.output.signedIn(result, flow: "signin")
    }
}
