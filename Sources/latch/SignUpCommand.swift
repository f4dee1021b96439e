import Latch

/// `latch signup`: asks for the e-mail address and a password, then the code sent to the address,
/// then any attributes the tenant requires (`--attribute NAME=VALUE` answers them up front), and
/// signs in with the new account.
struct SignUpCommand: Sendable {
    /// The shared context.
    let context: CommandContext

    /// Runs the sign-up.
    func run() async throws {
        let prompter = context.prompter
        let email = try prompter.email(preset: context.options.email).value
        let attributes = context.options.attributes
        var step = try await context.submitting({ try prompter.password(confirm: true) }) { password in
            try await context.client.signUp(username: email, password: password, attributes: attributes)
        }
        while true {
            switch step {
            case .codeRequired(let state):
                step = try await context.submitting({ try prompter.code(sentTo: state.delivery.sentTo) }) {
                    try await state.submitCode($0)
                }
            case .accountCreated(let finished):
                let signIn = try await finished.signIn(scopes: context.options.requestedScopes)
                try await SignInCommand(context: context).complete(signIn, flow: "signup")
                return
            case .passwordRequired(let state):
                step = try await context.submitting({ try prompter.password(confirm: true) }) {
                    try await state.submitPassword($0)
                }
            case .attributesRequired(let state, let required):
                var values: [String: String] = [:]
                for attribute in required {
                    if let preset = attributes[attribute.name] {
                        values[attribute.name] = preset
                    } else {
                        let answer = try prompter.text(attribute.name).value
                        if !answer.isEmpty || attribute.isRequired { values[attribute.name] = answer }
                    }
                }
                step = try await state.submitAttributes(values)
            @unknown default:
                throw LatchError(code: .browserRequired, message: "The sign-up needs a step this version of latch cannot do.")
            }
        }
    }
}
