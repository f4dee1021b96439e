import Latch

/// `latch signin`: asks for the e-mail address, then the password or an e-mail code, whichever
/// the server asks for, and stores the tokens.
struct SignInCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Runs the sign-in.
    func run() async throws {
        let email = try context.prompter.email(preset: context.options.email).value
        try await complete(
            try await context.client.signIn(username: email, scopes: context.options.requestedScopes), flow: "signin")
    }

    /// What a step latch cannot answer ends in.
    private static let unsupportedStep = LatchError(
        code: .browserRequired, message: "The sign-in needs a step this version of latch cannot do.")

    /// Answers each step of a sign-in (this one, or the one that ends a sign-up or reset) until it
    /// completes, and prints the result.
    func complete(_ first: SignInStep, flow: String) async throws {
        let prompter = context.prompter
        var step = first
        while true {
            switch step {
            case .completed(let result):
                context.output.signedIn(result, flow: flow)
                return
            case .passwordRequired(let state):
                step = try await context.submitting({ try prompter.password() }) { try await state.submitPassword($0) }
            case .codeRequired(let state):
                step = try await context.submitting({ try prompter.code(sentTo: state.delivery.sentTo) }) {
                    try await state.submitCode($0)
                }
            case .awaitingMFA, .strongAuthMethodRegistrationRequired:
                // latch announces no capability, so the server asks for neither second step.
                throw Self.unsupportedStep
            @unknown default:
                throw Self.unsupportedStep
            }
        }
    }
}
