/// What a per-source rate limit counts. Each kind has its own token bucket per source address and
/// tenant, so one kind of traffic never uses up another's allowance.
public enum RateLimitKind: String, Sendable, CaseIterable, Codable {
    /// Flow starts: sign-in `initiate`, sign-up `start`, password-reset `start`, and device
    /// authorization requests (RFC 8628 § 3.1).
    case flowStarts = "flow_starts"
    /// One-time codes sent (to any address).
    case codeSends = "code_sends"
    /// Passwords checked (sign-in, on any wire).
    case passwordAttempts = "password_attempts"
    /// Token-endpoint requests, every grant.
    case tokenRequests = "token_requests"
    /// Wrong user codes entered on the device verification page (RFC 8628 § 5.1: guessing a live
    /// user code is the attack the grant invites).
    case userCodeGuesses = "user_code_guesses"
}
