/// What a `challenge` step tells the client to do next.
public enum ChallengeOutcome: Sendable, Equatable {
    /// Send the password with this token.
    case password(continuationToken: String)
    /// A code went out; submit it with this token.
    case oob(continuationToken: String, channel: String, targetLabel: String, codeLength: Int, interval: Int)
    /// The client cannot finish natively.
    case redirect(reason: String)
}

/// A successful `continue` step of sign-up or password reset.
public struct ContinuationGrant: Sendable, Equatable {
    /// The next token.
    public var continuationToken: String
    /// Its lifetime in seconds.
    public var expiresIn: Int
}
