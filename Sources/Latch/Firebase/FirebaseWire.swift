import Foundation

/// The Identity Toolkit v1 and securetoken shapes the Firebase-style API reads (see the protocol
/// reference: `accounts:*` answers are camelCase, securetoken's are snake_case). Internal: the
/// public surface is ``LatchUser`` and ``LatchFirebaseAuth``.
enum FirebaseWire {
    /// The token triple of a sign-in, sign-up or account update; `expiresIn` is a string.
    struct TokenReply: Decodable, Sendable {
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
        var localId: String?
        var email: String?
        /// `signInWithIdp`: the provider signed in with; the Apple SDK fails a link without it.
        var providerId: String?
        /// `signInWithIdp`: an account with the token's e-mail exists and signs in another way.
        var needConfirmation: Bool?
        /// `signInWithIdp` and `signInWithCustomToken`: the account was created by this call.
        var isNewUser: Bool?
        /// `signInWithIdp` may carry an error in a 200 answer.
        var errorMessage: String?
    }

    /// `accounts:lookup`: exactly one user is expected.
    struct LookupReply: Decodable, Sendable {
        var users: [UserRecord]?
    }

    /// One user of `accounts:lookup`, kept with the stored account as its profile.
    struct UserRecord: Codable, Sendable, Equatable {
        var localId: String?
        var email: String?
        var emailVerified: Bool?
        var displayName: String?
        var photoUrl: String?
        var passwordHash: String?
        /// Milliseconds since 1970, as a string.
        var createdAt: String?
        /// Milliseconds since 1970, as a string.
        var lastLoginAt: String?
        var providerUserInfo: [ProviderUserInfo]?
    }

    /// One linked provider of a user.
    struct ProviderUserInfo: Codable, Sendable, Equatable {
        var providerId: String?
        var federatedId: String?
        var rawId: String?
        var email: String?
        var displayName: String?
        var photoUrl: String?
    }

    /// `accounts:createAuthUri`.
    struct CreateAuthURIReply: Decodable, Sendable {
        var signinMethods: [String]?
        var registered: Bool?
    }

    /// `accounts:sendOobCode`, `accounts:resetPassword`, `accounts:update` with an `oobCode`.
    struct EmailReply: Decodable, Sendable {
        var email: String?
    }

    /// Any JSON object (`accounts:delete`).
    struct Empty: Decodable, Sendable {}

    /// securetoken `v1/token`.
    struct SecureTokenReply: Decodable, Sendable {
        var accessToken: String?
        var expiresIn: String?
        var idToken: String?
        var refreshToken: String?
        var userId: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
            case idToken = "id_token"
            case refreshToken = "refresh_token"
            case userId = "user_id"
        }
    }

    /// The `firebase` claim of an ID token.
    struct FirebaseClaim: Decodable, Sendable {
        var signInProvider: String?
        var signInSecondFactor: String?

        enum CodingKeys: String, CodingKey {
            case signInProvider = "sign_in_provider"
            case signInSecondFactor = "sign_in_second_factor"
        }
    }
}
