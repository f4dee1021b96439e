/// A credential to reauthenticate with (``LatchUser/reauthenticate(with:)``) or to link
/// (``LatchUser/link(with:)``); Firebase's `EmailAuthProvider.credential(withEmail:password:)`.
public struct LatchAuthCredential: Sendable, Hashable {
    /// The provider the credential belongs to: `password` for an e-mail credential.
    public let providerID: String
    let email: String
    let password: String

    /// An e-mail and password credential.
    public static func email(_ email: String, password: String) -> LatchAuthCredential {
        LatchAuthCredential(providerID: "password", email: email, password: password)
    }
}
