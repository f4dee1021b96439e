import Latch

/// `latch signin`: asks for the e-mail address, then the password or an e-mail code, whichever
/// the server asks for, then the second factor or the registration of a strong method when the
/// tenant asks for one, and stores the tokens.
struct SignInCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Runs the sign-in.
    func run() async throws {
        let email = try context.prompter.email(preset: context.options.email).value
        try await complete(
            try await context.client.signIn(username: email, scopes: context.options.requestedScopes), flow: "signin")
    }

    /// Answers each step of a sign-in (this one, or the one that ends a sign-up or reset) until it
    /// completes, and prints the result.
    func complete(_ first: SignInStep, flow: String) async throws {
        context.output.signedIn(try await SignInSteps(context: context).answer(first), flow: flow)
    }
}
