import Foundation

/// What every state of one native-auth flow shares: the session, the kind of flow and its
/// correlation id, which every request of the flow sends as `client-request-id`, every error of the
/// flow carries, and every log line about it names.
struct FlowContext: Sendable {
    /// The kind of flow, as log lines name it.
    enum Kind: String, Sendable {
        case signIn = "sign_in"
        case signUp = "sign_up"
        case resetPassword = "reset_password"
        case stepUp = "step_up"
        case interactive
        case deviceCode = "device_code"
    }

    let session: LatchSession
    let kind: Kind
    let correlationID: UUID
    /// The app's claims request (OpenID Connect Core § 5.5, JSON text), sent as `claims` with every
    /// `/token` call of the flow.
    let claims: String?

    /// Starts a flow with the app's correlation id, or a new one.
    init(session: LatchSession, kind: Kind, correlationID: UUID?, claims: String? = nil) {
        self.session = session
        self.kind = kind
        self.correlationID = correlationID ?? UUID()
        self.claims = claims
    }

    /// The same flow continuing as another kind (the sign-in that ends a sign-up or a reset).
    func continuing(as kind: Kind) -> FlowContext {
        FlowContext(session: session, kind: kind, correlationID: correlationID, claims: claims)
    }

    /// The correlation id as sent on the wire.
    var id: String { correlationID.correlationValue }

    var configuration: LatchConfiguration { session.configuration }

    /// POSTs one request of this flow.
    func post(_ path: String, _ form: [String: String?], _ repeatability: NativeAuthChannel.Repeatability) async throws
        -> NativeAuthReply
    {
        try await session.channel.post(path, form, repeatability, correlationID: id)
    }

    /// Runs one step of the flow: logs its outcome at debug level and stamps the flow's correlation
    /// id on any ``LatchError`` it throws, input errors raised before any request included.
    func step<T>(_ name: String, outcome: (T) -> String, _ body: () async throws -> T) async throws -> T {
        let logger = configuration.logger
        do {
            let result = try await body()
            logger.log(.debug, "flow=\(kind.rawValue) step=\(name) outcome=\(outcome(result)) correlation_id=\(id)")
            return result
        } catch let error as LatchError {
            let error = error.correlated(with: id)
            logger.log(
                .debug,
                "flow=\(kind.rawValue) step=\(name) outcome=error error=\(error.code.name) "
                    + "correlation_id=\(error.correlationID ?? id)")
            throw error
        } catch {
            logger.log(.debug, "flow=\(kind.rawValue) step=\(name) outcome=error error=\(type(of: error)) correlation_id=\(id)")
            throw error
        }
    }
}

/// A flow step's result as log lines name it (`code_required`, `completed`, …).
protocol FlowStepOutcome {
    /// The outcome's name in log lines.
    var outcomeName: String { get }
}

extension FlowContext {
    /// ``step(_:outcome:_:)`` for results that name themselves.
    func step<T: FlowStepOutcome>(_ name: String, _ body: () async throws -> T) async throws -> T {
        try await step(name, outcome: \.outcomeName, body)
    }
}
