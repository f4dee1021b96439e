internal import LatchWire

extension LatchAuthEvent {
    /// Why the server ended a session (``LatchAuthEvent/sessionEnded(_:reason:)``). Only an
    /// authoritative answer ends one: network failures, timeouts and 5xx answers never do.
    ///
    /// A growing value set, so a struct of constants rather than an enum.
    public struct SessionEndReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable name, e.g. `revoked`.
        public let rawValue: String
        /// Wraps a name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The server revoked the session: a sign-out elsewhere with global scope, a password
        /// reset, the user disabled or deleted, or its lifetime ran out (Latch reports all of
        /// these alike, so as not to tell a token holder which).
        public static let revoked = Self(rawValue: "revoked")
        /// A refresh token was presented a second time, so the server revoked the whole session
        /// (refresh-token reuse detection, RFC 9700 § 4.14.2).
        public static let refreshTokenReused = Self(rawValue: "refresh_token_reused")
        /// The refresh token expired.
        public static let expired = Self(rawValue: "expired")
        /// The server does not know the refresh token (issued to another client, or forged).
        public static let invalidRefreshToken = Self(rawValue: "invalid_refresh_token")
        /// The user is disabled.
        public static let userDisabled = Self(rawValue: "user_disabled")
        /// The user no longer exists.
        public static let userNotFound = Self(rawValue: "user_not_found")
        /// The session ended for a reason this SDK does not name, or in another process that did
        /// not record why.
        public static let unknown = Self(rawValue: "unknown")

        /// The raw value.
        public var description: String { rawValue }

        /// The reason a refresh error gives, or `nil` when the error does not end the session: only
        /// a server's answer (HTTP 4xx) that the refresh token is dead, or that the user is gone or
        /// disabled, does. `interaction_required` (a claims challenge) does not: the refresh token
        /// still works, and a step-up (``LatchClient/stepUp(account:claims:scopes:correlationID:)``) uses it.
        static func ending(_ error: LatchError) -> SessionEndReason? {
            guard let status = error.httpStatus, (400..<500).contains(status) else { return nil }
            if error.oauthError == NativeAuthErrorCode.interactionRequired.rawValue { return nil }
            let codes = error.serverErrorCodes
            switch error.code {
            case .interactionRequired:
                if codes.contains(ServerErrorCode.refreshTokenReused) { return .refreshTokenReused }
                if codes.contains(ServerErrorCode.refreshTokenRevoked) { return .revoked }
                if codes.contains(ServerErrorCode.invalidRefreshToken) { return .invalidRefreshToken }
                if error.oauthError == NativeAuthErrorCode.expiredRefreshToken.rawValue { return .expired }
                return .unknown
            case .userDisabled:
                return .userDisabled
            case .userNotFound:
                return .userNotFound
            case .userTokenExpired:
                return .expired
            case .invalidUserToken:
                return .invalidRefreshToken
            default:
                return nil
            }
        }
    }
}
