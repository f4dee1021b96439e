import Foundation
import LatchCrypto

/// An application registered in a tenant (RFC 6749 § 2).
public struct Client: Sendable, Equatable {
    /// The `client_id`.
    public var id: String
    /// The tenant the client belongs to.
    public var tenantID: String
    /// A display name.
    public var name: String
    /// Public clients (RFC 6749 § 2.1) hold no secret; native apps are public.
    public var isPublic: Bool
    /// Scopes beyond the OpenID ones the client may request; empty allows any.
    public var allowedScopes: [String]
    /// When the client was registered.
    public var createdAt: Date
    /// The client's protection policy: when not empty, every native-auth request must carry
    /// `Latch-App-Attestation` with one of these registered key ids (an app-attestation check the
    /// app integrates; see ``ClientProtection``).
    public var attestationKeyIDs: [String] = []
    /// The API key the Firebase-shaped family takes as `?key=`; unique across tenants, so it names
    /// the client and its tenant (the Firebase project). Random unless given.
    public var apiKey: String = Client.makeAPIKey()
    /// A confidential client's secret as ``ClientSecret/hash(_:)``; `nil` for public clients
    /// (RFC 6749 § 2.3.1; the secret itself is never stored).
    public var secretHash: String?
    /// The redirection endpoints registered for the authorization code flow (RFC 6749 § 3.1.2.2),
    /// compared exactly; a loopback `http` one matches on any port (RFC 8252 § 7.3). See ``RedirectURIRule``.
    public var redirectURIs: [String] = []
    /// The grant types the client may use at the token endpoint (RFC 7591 § 2 names); empty allows
    /// the defaults of its kind (``Client/effectiveGrantTypes``).
    public var grantTypes: [String] = []
    /// A third-party client (not the tenant's own app): the user consents to what it asks for on
    /// the hosted consent page, and it may not use the browserless grants.
    public var thirdParty = false
    /// Where RP-initiated logout may send the browser back to (OpenID Connect RP-Initiated Logout
    /// 1.0 § 3), compared like redirect URIs.
    public var postLogoutRedirectURIs: [String] = []
    /// The development client: any loopback redirect is registered (`latchd serve --dev`).
    public var acceptsAnyLoopbackRedirect = false

    /// Creates a client record.
    public init(
        id: String, tenantID: String, name: String, isPublic: Bool = true, allowedScopes: [String] = [],
        createdAt: Date
    ) {
        self.id = id
        self.tenantID = tenantID
        self.name = name
        self.isPublic = isPublic
        self.allowedScopes = allowedScopes
        self.createdAt = createdAt
    }

    /// The grant types that work for this client: the registered ones, else the defaults —
    /// `authorization_code`, `refresh_token` and the device grant for every client, the native-auth
    /// grants for first-party clients, `client_credentials` for confidential ones.
    public var effectiveGrantTypes: Set<String> {
        if !grantTypes.isEmpty { return Set(grantTypes) }
        var grants: Set<String> = [GrantType.authorizationCode, GrantType.refreshToken, GrantType.deviceCode]
        if !thirdParty { grants.formUnion(GrantType.nativeAuth) }
        if !isPublic { grants.insert(GrantType.clientCredentials) }
        return grants
    }

    /// Whether the client may use `grant` at the token endpoint.
    /// (The same rule as ``effectiveGrantTypes``, without building a set on the token endpoint's path.)
    public func allows(grant: String) -> Bool {
        if !grantTypes.isEmpty { return grantTypes.contains(grant) }
        switch grant {
        case GrantType.authorizationCode, GrantType.refreshToken, GrantType.deviceCode: return true
        case GrantType.clientCredentials: return !isPublic
        default: return !thirdParty && GrantType.nativeAuth.contains(grant)
        }
    }

    /// A new random API key: 32 random bytes, base64url (43 characters).
    public static func makeAPIKey() -> String { SecureRandom.token(byteCount: 32) }

    /// Whether `key` is usable as an API key: 16–128 of `A-Z a-z 0-9 - _ .`.
    public static func isValidAPIKey(_ key: String) -> Bool { key.utf8.count >= 16 && isValidID(key) }

    /// Whether `id` is usable as a client id: 1–128 of `A-Z a-z 0-9 - _ .`.
    public static func isValidID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
    }
}
