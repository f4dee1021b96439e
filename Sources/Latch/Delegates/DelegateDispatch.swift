import Foundation

/// Runs a flow step of the async API and hands its outcome to a delegate on the main actor.
enum DelegateDispatch {
    /// Runs `operation` off the main actor, then calls `deliver` exactly once on the main actor with
    /// its outcome — also when it fails or the returned task is cancelled. The delegate that
    /// `deliver` captures stays alive until then.
    @discardableResult
    static func run<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value,
        deliver: @escaping @MainActor @Sendable (Result<Value, LatchError>) -> Void
    ) -> Task<Void, Never> {
        Task {
            let outcome: Result<Value, LatchError>
            do {
                outcome = .success(try await operation())
            } catch {
                outcome = .failure(LatchError.delegated(error))
            }
            await MainActor.run { deliver(outcome) }
        }
    }

    /// Runs the sign-in that ends a finished sign-up or reset and reports it: `onSignInCompleted`,
    /// `onSignInAwaitingMFA` or `onSignInStrongAuthMethodRegistration` on success (or `failed` if
    /// the delegate lacks it), `failed` on error.
    @discardableResult
    static func signInAfterFlow(
        _ operation: @escaping @Sendable () async throws -> SignInStep, delegate: any SignInOutcomeDelegate,
        failed: @escaping @MainActor @Sendable (LatchError) -> Void
    ) -> Task<Void, Never> {
        run(operation) { outcome in
            switch outcome {
            case .success(let step):
                DelegateCallback.signInOutcome(step, delegate: delegate, failed: failed)
            case .failure(let error):
                failed(error)
            }
        }
    }
}

/// The callbacks that end a sign-in call: signed in, or a second step.
typealias SignInOutcomeDelegate = OnSignInCompletedDelegate & OnSignInAwaitingMFADelegate
    & OnSignInStrongAuthMethodRegistrationDelegate

/// Routes the default implementations of callbacks that several delegate protocols share
/// (`onSignInCompleted`, `onSignInAwaitingMFA`, `onSignInStrongAuthMethodRegistration`,
/// `onSignUpCompleted`, `onSignUpAttributesRequired`) to the error callback
/// of the call being delivered, as MSAL does for an optional method the delegate lacks.
@MainActor
enum DelegateCallback {
    static let signInCompleted = "onSignInCompleted(result:)"
    static let signUpCompleted = "onSignUpCompleted(newState:)"
    static let signUpAttributesRequired = "onSignUpAttributesRequired(attributes:newState:)"
    static let signInAwaitingMFA = "onSignInAwaitingMFA(newState:)"
    static let signInStrongAuthMethodRegistration = "onSignInStrongAuthMethodRegistration(authMethods:newState:)"

    private struct Delivery {
        let method: String
        let fallback: @MainActor (LatchError) -> Void
        var routed = false
    }

    private static var deliveries: [Delivery] = []

    /// Calls `call`, which invokes the delegate's `method`; if the delegate relies on the default
    /// implementation, `fallback` receives the not-implemented error instead.
    static func deliver(
        _ method: String, fallback: @escaping @MainActor (LatchError) -> Void, _ call: () -> Void
    ) {
        deliveries.append(Delivery(method: method, fallback: fallback))
        defer { deliveries.removeLast() }
        call()
    }

    /// Hands a sign-in step to the callback it ends in — `onSignInCompleted`, `onSignInAwaitingMFA`
    /// or `onSignInStrongAuthMethodRegistration` — or, for a step that needs another credential
    /// (which only the start of a sign-in has callbacks for), reports it to `failed`.
    static func signInOutcome(
        _ step: SignInStep, delegate: any SignInOutcomeDelegate, failed: @escaping @MainActor (LatchError) -> Void
    ) {
        switch step {
        case .completed(let result):
            deliver(signInCompleted, fallback: failed) { delegate.onSignInCompleted(result: result) }
        case .awaitingMFA(let state):
            deliver(signInAwaitingMFA, fallback: failed) { delegate.onSignInAwaitingMFA(newState: state) }
        case .strongAuthMethodRegistrationRequired(let methods, let state):
            deliver(signInStrongAuthMethodRegistration, fallback: failed) {
                delegate.onSignInStrongAuthMethodRegistration(authMethods: methods, newState: state)
            }
        case .codeRequired, .passwordRequired:
            failed(.unexpectedStep(step))
        }
    }

    /// Called by a shared default implementation: reports `method` as missing, at most once per delivery.
    static func notImplemented(_ method: String) {
        guard let index = deliveries.indices.last, deliveries[index].method == method, !deliveries[index].routed
        else { return }
        deliveries[index].routed = true
        deliveries[index].fallback(.delegateMethodNotImplemented(method))
    }
}

extension LatchError {
    /// The error a delegate callback receives for anything the async API threw.
    static func delegated(_ error: any Error) -> LatchError {
        if error is CancellationError || (error as? URLError)?.code == .cancelled {
            return LatchError(code: .userCanceled, message: "The operation was cancelled.", underlyingError: error)
        }
        if let error = error as? LatchError { return error }
        return LatchError(code: .internal, message: "Unexpected error: \(error)", underlyingError: error)
    }

    /// The error an optional callback's default implementation reports (MSAL's "delegate method not implemented").
    static func delegateMethodNotImplemented(_ method: String) -> LatchError {
        LatchError(code: .internal, message: "\(method) not implemented by the delegate.")
    }

    /// A step the delegate protocol of the call has no callback for (``FlowStepOutcome/outcomeName`` names it).
    static func unexpectedStep(_ step: some FlowStepOutcome) -> LatchError {
        LatchError(
            code: .unexpectedResponse,
            message: "The server answered with the step '\(step.outcomeName)', which this delegate has no callback for.")
    }

    /// Whether the state whose call failed can be used again — MSAL then passes it as `newState`.
    var leavesStateUsable: Bool {
        if code == .userCanceled { return true }
        switch recovery {
        case .correctInput, .resendCode, .retry, .chooseAnotherMethod: return true
        default: return false
        }
    }
}
