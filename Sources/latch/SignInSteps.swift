import Latch

/// Answers the steps of a sign-in until it completes: the password or e-mail code, then the
/// second factor or the registration of a strong method (``SecondStepPrompts``). Shared by `latch
/// signin`, the sign-ins that end `signup` and `reset-password`, and the step-up of `latch token`.
struct SignInSteps: Sendable {
    /// The shared context.
    let context: CommandContext

    /// A completed sign-in and what its second steps did.
    struct Outcome: Sendable {
        /// The tokens.
        let result: LatchTokenResult
        /// The method the second-factor code went through, when one was asked for.
        var mfaMethod: LatchAuthMethod?
        /// The strong method registered, when the server asked for one.
        var registration: SecondStepPrompts.Registration?
    }

    /// What a step latch cannot answer ends in.
    static let unsupportedStep = LatchError(
        code: .browserRequired, message: "The sign-in needs a step this version of latch cannot do.")

    /// Answers `first` and each step after it.
    func answer(_ first: SignInStep) async throws -> Outcome {
        let prompter = context.prompter
        let secondSteps = SecondStepPrompts(context: context)
        var step = first
        var mfaMethod: LatchAuthMethod?
        var registration: SecondStepPrompts.Registration?
        while true {
            switch step {
            case .completed(let result):
                return Outcome(result: result, mfaMethod: mfaMethod, registration: registration)
            case .passwordRequired(let state):
                step = try await context.submitting({ try prompter.password() }) { try await state.submitPassword($0) }
            case .codeRequired(let state):
                step = try await context.submitting({ try prompter.code(sentTo: state.delivery.sentTo) }) {
                    try await state.submitCode($0)
                }
            case .awaitingMFA(let state):
                let verified = try await secondSteps.verify(state)
                step = verified.step
                mfaMethod = verified.method
            case .strongAuthMethodRegistrationRequired(let methods, let state):
                let registered = try await secondSteps.register(methods, state)
                step = registered.step
                registration = registered.registration
            @unknown default:
                throw Self.unsupportedStep
            }
        }
    }
}
