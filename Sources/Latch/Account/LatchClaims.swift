import Foundation

internal import LatchWire

/// The claims of a token issued by Latch — registered JWT claims (RFC 7519 § 4.1), OpenID Connect
/// claims (OpenID Connect Core § 2 and § 5.1) and whatever custom claims the server adds — decoded
/// without verifying the signature.
///
/// Times are `Date` values; every claim, custom ones included, can be read by name:
///
/// ```swift
/// if let claims = account.claims {
///     print(claims.subject, claims.expiresAt, claims.authTime ?? .distantPast)
///     let roles = claims.value([String].self, for: "roles") ?? []
/// }
/// ```
///
/// Encoding a claim set writes the JSON object the token carried.
public struct LatchClaims: Codable, Sendable, Equatable {
    private let values: [String: ClaimValue]

    /// Issuer (`iss`, RFC 7519 § 4.1.1).
    public let issuer: String
    /// Subject: the user id (`sub`, RFC 7519 § 4.1.2).
    public let subject: String
    /// When the token expires (`exp`, RFC 7519 § 4.1.4).
    public let expiresAt: Date
    /// When the token was issued (`iat`, RFC 7519 § 4.1.6).
    public let issuedAt: Date

    /// Decodes a claim set from its JSON object; `iss`, `sub`, `exp` and `iat` must be present
    /// (OpenID Connect Core § 2).
    public init(from decoder: any Decoder) throws {
        let values = try decoder.singleValueContainer().decode([String: ClaimValue].self)
        guard let issuer = values["iss"]?.string, let subject = values["sub"]?.string,
            let expiresAt = values["exp"]?.date, let issuedAt = values["iat"]?.date
        else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "A claim set needs iss, sub, exp and iat."))
        }
        self.values = values
        self.issuer = issuer
        self.subject = subject
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
    }

    /// Writes the claim set as the JSON object it was decoded from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    /// Decodes the payload of a compact JWS (RFC 7515 § 7.1) without verifying its signature;
    /// `nil` when it is not a JWT with a valid claim set.
    init?(token: String) {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Base64URL.decode(segments[1]) else { return nil }
        guard let claims = try? JSONDecoder().decode(LatchClaims.self, from: Data(payload)) else { return nil }
        self = claims
    }

    // MARK: - Registered and OpenID Connect claims

    /// Audience: the client ids the token is meant for (`aud`, RFC 7519 § 4.1.3).
    public var audience: [String] { values["aud"]?.strings ?? [] }
    /// Not valid before this time (`nbf`, RFC 7519 § 4.1.5).
    public var notBefore: Date? { values["nbf"]?.date }
    /// When the user last authenticated (`auth_time`, OpenID Connect Core § 2).
    public var authTime: Date? { values["auth_time"]?.date }
    /// How the user authenticated, e.g. `pwd`, `otp` (`amr`, RFC 8176).
    public var authenticationMethods: [String] { values["amr"]?.strings ?? [] }
    /// The token's unique id (`jti`, RFC 7519 § 4.1.7).
    public var tokenID: String? { values["jti"]?.string }
    /// The session the token belongs to (`sid`).
    public var sessionID: String? { values["sid"]?.string }
    /// The tenant id (`tid`).
    public var tenantID: String? { values["tid"]?.string }
    /// The client the token was issued to (`client_id`, RFC 9068 § 2.2).
    public var clientID: String? { values["client_id"]?.string }
    /// The granted scopes (`scp`, space separated on the wire), in access tokens.
    public var scopes: [String] { values["scp"]?.string?.split(separator: " ").map(String.init) ?? [] }
    /// The e-mail address (`email`, OpenID Connect Core § 5.1).
    public var email: String? { values["email"]?.string }
    /// Whether the e-mail address is verified (`email_verified`).
    public var emailVerified: Bool? { value(Bool.self, for: "email_verified") }
    /// The display name (`name`).
    public var name: String? { values["name"]?.string }
    /// The username the user signs in with (`preferred_username`).
    public var preferredUsername: String? { values["preferred_username"]?.string }

    // MARK: - Any claim by name

    /// The names of every claim in the set, sorted.
    public var names: [String] { values.keys.sorted() }

    /// The claim `name` decoded as `type`, or `nil` when it is absent or of another type. Numbers
    /// decode as `Date` when they are NumericDates (seconds since the epoch, RFC 7519 § 2).
    ///
    /// ```swift
    /// let roles = claims.value([String].self, for: "roles")
    /// let plan = claims.value(String.self, for: "https://example.com/plan")
    /// ```
    public func value<T: Decodable>(_ type: T.Type, for name: String) -> T? {
        guard let value = values[name], let data = try? JSONEncoder().encode(value) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(T.self, from: data)
    }
}
