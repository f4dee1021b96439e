import Foundation

extension LatchError: CustomNSError, LocalizedError {
    /// The error domain, `LatchErrorDomain`.
    public static let domain = "LatchErrorDomain"

    /// userInfo keys of the bridged `NSError`.
    public enum UserInfoKey {
        /// The `ERROR_…` name (String).
        public static let name = "LatchErrorNameKey"
        /// The OAuth `error` (String).
        public static let oauthError = "LatchOAuthErrorKey"
        /// The native-auth `suberror` (String).
        public static let suberror = "LatchOAuthSubErrorKey"
        /// The server's numeric codes ([Int]).
        public static let serverErrorCodes = "LatchServerErrorCodesKey"
        /// The correlation id (String).
        public static let correlationID = "LatchCorrelationIDKey"
        /// The HTTP status (Int).
        public static let httpStatus = "LatchHTTPResponseCodeKey"
        /// Seconds to wait before retrying (Double).
        public static let retryAfter = "LatchRetryAfterKey"
        /// Invalid attribute names ([String]).
        public static let invalidAttributes = "LatchInvalidAttributesKey"
        /// The scopes granted, with ``Code/serverDeclinedScopes`` ([String]).
        public static let grantedScopes = "LatchGrantedScopesKey"
        /// The requested scopes declined, with ``Code/serverDeclinedScopes`` ([String]).
        public static let declinedScopes = "LatchDeclinedScopesKey"
        /// The protection policy to satisfy, with ``Code/serverProtectionPoliciesRequired`` (String).
        public static let protectionPolicy = "LatchProtectionPolicyKey"
        /// The claims challenge, with ``Code/interactionRequired`` (String, JSON).
        public static let claimsChallenge = "LatchClaimsChallengeKey"
        /// The e-mail address of ``Code/accountExistsWithDifferentCredential`` and
        /// ``Code/credentialAlreadyInUse`` (String); Firebase's key name, so code written for
        /// Firebase finds it.
        public static let email = "FIRAuthErrorUserInfoEmailKey"
    }

    public static var errorDomain: String { domain }
    public var errorCode: Int { code.rawValue }

    /// `NSLocalizedDescriptionKey` (the developer message), `NSLocalizedFailureReasonErrorKey`,
    /// `NSUnderlyingErrorKey` and the ``UserInfoKey`` values that are known.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message, UserInfoKey.name: name]
        if let failureReason { info[NSLocalizedFailureReasonErrorKey] = failureReason }
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError as NSError }
        if let oauthError { info[UserInfoKey.oauthError] = oauthError }
        if let suberror { info[UserInfoKey.suberror] = suberror }
        if !serverErrorCodes.isEmpty { info[UserInfoKey.serverErrorCodes] = serverErrorCodes }
        if let correlationID { info[UserInfoKey.correlationID] = correlationID }
        if let httpStatus { info[UserInfoKey.httpStatus] = httpStatus }
        if let retryAfter { info[UserInfoKey.retryAfter] = retryAfter }
        if !invalidAttributes.isEmpty { info[UserInfoKey.invalidAttributes] = invalidAttributes }
        if code == .serverDeclinedScopes || !grantedScopes.isEmpty { info[UserInfoKey.grantedScopes] = grantedScopes }
        if code == .serverDeclinedScopes || !declinedScopes.isEmpty { info[UserInfoKey.declinedScopes] = declinedScopes }
        if let protectionPolicy { info[UserInfoKey.protectionPolicy] = protectionPolicy }
        if let claimsChallenge { info[UserInfoKey.claimsChallenge] = claimsChallenge }
        if let email { info[UserInfoKey.email] = email }
        return info
    }

    public var errorDescription: String? { message }
}
