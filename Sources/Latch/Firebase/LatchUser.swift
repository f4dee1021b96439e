import Foundation

/// A signed-in user as the Firebase-style account API (``LatchClient/firebase``) shows it: the
/// profile of ``LatchFirebaseAuth/currentUser``, and the calls that act on that user
/// (`LatchUser+Calls.swift`). A value: ``reload()`` and the updates return a new one.
///
/// A user signed in natively (``LatchClient/signIn(username:password:scopes:claims:correlationID:)``)
/// is a `LatchUser` too, built from its ID token's claims, with the `password` provider.
public struct LatchUser: Sendable, Hashable {
    /// One provider linked to the user (Firebase `UserInfo`).
    public struct ProviderInfo: Sendable, Hashable {
        /// The provider, e.g. `password`, `google.com`.
        public let providerID: String
        /// The user's id at the provider (for `password`, the e-mail address).
        public let uid: String
        /// The e-mail address the provider gave.
        public let email: String?
        /// The display name the provider gave.
        public let displayName: String?
        /// The photo URL the provider gave.
        public let photoURL: URL?
    }

    /// When the user was created and last signed in (Firebase `UserMetadata`).
    public struct Metadata: Sendable, Hashable {
        /// When the account was created, when the server said.
        public let creationDate: Date?
        /// When the user last signed in, when known.
        public let lastSignInDate: Date?
    }

    /// The user's id (the ID token's `sub`, Identity Toolkit's `localId`).
    public let uid: String
    /// The e-mail address, if any.
    public let email: String?
    /// Whether the e-mail address is verified.
    public let isEmailVerified: Bool
    /// The display name, if any.
    public let displayName: String?
    /// The photo URL, if any.
    public let photoURL: URL?
    /// Whether the user signed in anonymously and has no linked provider yet.
    public let isAnonymous: Bool
    /// The linked providers.
    public let providerData: [ProviderInfo]
    /// Creation and last sign-in times.
    public let metadata: Metadata
    /// The same user as a ``LatchAccount``: the value ``LatchClient/currentAccount`` returns, for
    /// ``LatchClient/acquireTokenSilent(scopes:account:forceRefresh:correlationID:)``.
    public let account: LatchAccount
    let auth: LatchFirebaseAuth

    init(_ record: StoredAccount, auth: LatchFirebaseAuth) {
        self.auth = auth
        account = LatchAccount(record)
        let claims = record.idToken.flatMap { LatchClaims(token: $0) }
        if let profile = record.firebaseUser {
            uid = profile.localId ?? record.accountID
            email = profile.email
            isEmailVerified = profile.emailVerified ?? false
            displayName = profile.displayName
            photoURL = profile.photoUrl.flatMap(URL.init(string:))
            let providers = (profile.providerUserInfo ?? []).compactMap { info -> ProviderInfo? in
                guard let id = info.providerId else { return nil }
                return ProviderInfo(
                    providerID: id, uid: info.rawId ?? info.federatedId ?? info.email ?? "", email: info.email,
                    displayName: info.displayName, photoURL: info.photoUrl.flatMap(URL.init(string:)))
            }
            providerData = providers
            isAnonymous = providers.isEmpty && profile.email == nil && (profile.passwordHash ?? "").isEmpty
            metadata = Metadata(
                creationDate: Self.date(milliseconds: profile.createdAt),
                lastSignInDate: Self.date(milliseconds: profile.lastLoginAt) ?? claims?.authTime)
        } else {
            uid = record.accountID
            let address = claims?.email ?? (record.username.isEmpty ? nil : record.username)
            email = address
            isEmailVerified = claims?.emailVerified ?? false
            displayName = claims?.name
            photoURL = claims?.value(String.self, for: "picture").flatMap(URL.init(string:))
            isAnonymous = false
            providerData =
                address.map {
                    [ProviderInfo(providerID: "password", uid: $0, email: $0, displayName: nil, photoURL: nil)]
                } ?? []
            metadata = Metadata(creationDate: nil, lastSignInDate: claims?.authTime)
        }
    }

    private static func date(milliseconds text: String?) -> Date? {
        guard let text, let value = Double(text) else { return nil }
        return Date(timeIntervalSince1970: value / 1000)
    }

    /// Whether both values show the same user with the same profile.
    public static func == (lhs: LatchUser, rhs: LatchUser) -> Bool {
        lhs.uid == rhs.uid && lhs.email == rhs.email && lhs.isEmailVerified == rhs.isEmailVerified
            && lhs.displayName == rhs.displayName && lhs.photoURL == rhs.photoURL && lhs.isAnonymous == rhs.isAnonymous
            && lhs.providerData == rhs.providerData && lhs.metadata == rhs.metadata && lhs.account == rhs.account
    }

    /// Hashes the user's id and account.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uid)
        hasher.combine(account)
    }
}
