/// Checks how a client authenticated to the token and introspection endpoints (RFC 6749 § 2.3).
///
/// A public client must send no secret; a confidential one must send its own. Every failed
/// secret check takes from the source's password-check bucket, so guessing is throttled with the
/// same numbers as password guessing (``RateLimitKind/passwordAttempts``).
public struct ClientAuthenticator: Sendable {
    let limiter: RateLimiter

    /// Creates an authenticator that meters failures with `limiter`.
    public init(limiter: RateLimiter) { self.limiter = limiter }

    /// Accepts `context.client` when `secret` fits it.
    /// - Parameters:
    ///   - secret: the `client_secret` sent, or `nil` when none was.
    ///   - basic: whether the request tried HTTP Basic (the failure then challenges with Basic).
    /// - Throws: ``AuthFailure/invalidClientAuthentication(basic:)``, or
    ///   ``AuthFailure/tooManyAttempts(retryAfter:)`` once the source failed too often.
    public func authenticate(_ context: ClientContext, secret: String?, basic: Bool) throws {
        let client = context.client
        if client.isPublic {
            // RFC 6749 § 2.1: a public client holds no secret, so one sent is a mistake.
            guard secret == nil else { throw AuthFailure.invalidClientAuthentication(basic: basic) }
            return
        }
        guard let secret, !secret.isEmpty else { throw AuthFailure.invalidClientAuthentication(basic: basic) }
        guard let stored = client.secretHash, ClientSecret.matches(secret, storedHash: stored) else {
            try limiter.admit(.passwordAttempts, context)
            throw AuthFailure.invalidClientAuthentication(basic: basic)
        }
    }
}
