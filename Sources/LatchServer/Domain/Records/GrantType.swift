/// The `grant_type` names of the token endpoint (RFC 6749 § 4, RFC 8628 § 3.4, and the native-auth
/// grants of `reference/native-auth-protocol.md`), as clients register them (RFC 7591 § 2).
public enum GrantType {
    /// RFC 6749 § 4.1.3.
    public static let authorizationCode = "authorization_code"
    /// RFC 6749 § 6.
    public static let refreshToken = "refresh_token"
    /// RFC 6749 § 4.4.
    public static let clientCredentials = "client_credentials"
    /// RFC 8628 § 3.4.
    public static let deviceCode = "urn:ietf:params:oauth:grant-type:device_code"
    /// The browserless sign-in grants of native auth.
    public static let nativeAuth: Set<String> = ["password", "oob", "continuation_token", "mfa_oob"]
    /// Every grant a client may register.
    public static let all: Set<String> = nativeAuth.union([authorizationCode, refreshToken, clientCredentials, deviceCode])
}
