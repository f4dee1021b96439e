import LatchWire

/// The challenge types and capabilities a native-auth request declares, checked once.
struct ChallengeTypes: Sendable {
    let types: Set<String>
    let capabilities: [String]

    /// Parses `challenge_type` / `capabilities`.
    /// - Throws: ``AuthFailure/invalidRequest(_:)`` when `challenge_type` is absent,
    ///   ``AuthFailure/unsupportedChallengeType`` when it lacks `redirect`.
    init(_ challengeType: String?, capabilities: String?) throws {
        guard let challengeType, !challengeType.isEmpty else {
            throw AuthFailure.invalidRequest("challenge_type is required")
        }
        let types = Set(ChallengeType.parseList(challengeType).map(\.rawValue))
        guard types.contains(ChallengeType.redirect.rawValue) else { throw AuthFailure.unsupportedChallengeType }
        self.types = types
        self.capabilities = (capabilities ?? "").split(separator: " ").map(String.init)
    }

    /// Restores the declaration stored in a flow.
    init(stored types: [String], capabilities: [String]) {
        self.types = Set(types)
        self.capabilities = capabilities
    }

    var supportsPassword: Bool { types.contains(ChallengeType.password.rawValue) }
    var supportsCode: Bool { types.contains(ChallengeType.oob.rawValue) }
    var sorted: [String] { types.sorted() }
}
