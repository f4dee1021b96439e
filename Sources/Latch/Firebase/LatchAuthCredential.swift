import Foundation

/// A credential to sign in with (``LatchFirebaseAuth/signIn(with:)``), reauthenticate with
/// (``LatchUser/reauthenticate(with:)``) or link (``LatchUser/link(with:)``): an e-mail and
/// password (Firebase's `EmailAuthProvider.credential(withEmail:password:)`) or the ID token of an
/// OpenID Connect provider the tenant trusts (Firebase's `OAuthProvider.credential(providerID:idToken:rawNonce:)`).
public struct LatchAuthCredential: Sendable, Hashable {
    /// What the credential carries.
    enum Kind: Sendable, Hashable {
        case password(email: String, password: String)
        case openID(idToken: String, nonce: String?)
    }

    /// The provider the credential belongs to: `password` for an e-mail credential, the provider
    /// id (`oidc.…`) for an OpenID Connect one.
    public let providerID: String
    let kind: Kind

    /// An e-mail and password credential.
    public static func email(_ email: String, password: String) -> LatchAuthCredential {
        LatchAuthCredential(providerID: "password", kind: .password(email: email, password: password))
    }

    /// An OpenID Connect credential: the ID token an identity provider issued to the app, checked by
    /// the server against the provider the tenant configured under `providerID` (`oidc.…`).
    /// - Parameter nonce: the raw nonce the app sent to the provider, when it sent one; the
    ///   server checks it against the token's `nonce` claim (OpenID Connect Core § 3.1.3.7).
    public static func openID(providerID: String, idToken: String, nonce: String? = nil) -> LatchAuthCredential {
        LatchAuthCredential(providerID: providerID, kind: .openID(idToken: idToken, nonce: nonce))
    }

    /// The Identity Toolkit body fields of this credential, for `accounts:signInWithPassword`
    /// (e-mail) or `accounts:signInWithIdp` (OpenID Connect; `requestUri` and a form-encoded
    /// `postBody`, reference § 4).
    func body(autoCreate: Bool = true) -> (call: String, fields: [String: any Sendable]) {
        switch kind {
        case .password(let email, let password):
            return ("signInWithPassword", ["email": email, "password": password, "returnSecureToken": true])
        case .openID(let idToken, let nonce):
            var form = [("providerId", providerID), ("id_token", idToken)]
            if let nonce { form.append(("nonce", nonce)) }
            let postBody = form.map { "\($0.0)=\(Self.formEncoded($0.1))" }.joined(separator: "&")
            return (
                "signInWithIdp",
                [
                    "requestUri": "http://localhost", "postBody": postBody, "returnSecureToken": true,
                    "returnIdpCredential": true, "autoCreate": autoCreate,
                ]
            )
        }
    }

    /// `application/x-www-form-urlencoded` encoding of one value (WHATWG URL § 5.2).
    private static func formEncoded(_ value: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
