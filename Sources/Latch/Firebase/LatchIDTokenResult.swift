import Foundation

/// An ID token with the claims the Firebase-style API reads from it (Firebase `AuthTokenResult`),
/// from ``LatchUser/getIDTokenResult(forceRefresh:)``. The claims are decoded without verifying the
/// signature: the token came straight from the server over TLS.
public struct LatchIDTokenResult: Sendable {
    /// The ID token (a JWT).
    public let token: String
    /// Every claim of the token, custom ones included (``LatchClaims/value(_:for:)``).
    public let claims: LatchClaims
    /// `exp`.
    public let expirationDate: Date
    /// `iat`.
    public let issuedAtDate: Date
    /// `auth_time`: when the user last signed in with a credential.
    public let authDate: Date
    /// `firebase.sign_in_provider`, e.g. `password`, `anonymous`.
    public let signInProvider: String
    /// `firebase.sign_in_second_factor`, when the sign-in used one.
    public let signInSecondFactor: String?

    /// Decodes `token`.
    /// - Throws: ``LatchError/Code/malformedJWT`` when it is not a JWT with `exp`, `iat`, `auth_time`
    ///   and `firebase.sign_in_provider`.
    init(token: String) throws {
        guard let claims = LatchClaims(token: token), let authDate = claims.authTime,
            let firebase = claims.value(FirebaseWire.FirebaseClaim.self, for: "firebase"),
            let provider = firebase.signInProvider
        else {
            throw LatchError(
                code: .malformedJWT,
                message: "The ID token lacks exp, iat, auth_time or firebase.sign_in_provider, or is not a JWT.")
        }
        self.token = token
        self.claims = claims
        expirationDate = claims.expiresAt
        issuedAtDate = claims.issuedAt
        self.authDate = authDate
        signInProvider = provider
        signInSecondFactor = firebase.signInSecondFactor
    }
}
