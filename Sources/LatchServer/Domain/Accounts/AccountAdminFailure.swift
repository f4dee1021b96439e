/// Why an administrative account operation was refused, beyond the failures every call shares
/// (`reference/firebase-auth-protocol.md` § 6, the firebase-admin surface). Carried by
/// ``AuthFailure/accountAdministration(_:)``; each wire words it its own way.
public enum AccountAdminFailure: Error, Sendable, Equatable {
    /// An account with the requested id already exists.
    case duplicateAccountID
    /// The custom claims are not a JSON object.
    case invalidClaims
    /// The custom claims use a reserved claim name (carried, for the message).
    case forbiddenClaim(String)
    /// The custom claims exceed ``CustomClaims/maximumBytes`` bytes.
    case claimsTooLarge
    /// A session cookie's lifetime is outside 5 minutes … 14 days.
    case invalidSessionCookieDuration
    /// More accounts in one batch than allowed (carried, for the message).
    case tooManyAccounts(limit: Int)
    /// The password-hash options of an import are malformed; the text says which one.
    case invalidHashOptions(String)
    /// The emulator configuration asks for something Latch does not do; the text says what.
    case unsupportedSetting(String)
    /// The project named in the path does not exist.
    case unknownProject
    /// The tenant named in the path is not the project's.
    case unknownTenant
    /// The page token is not one this server handed out.
    case invalidPageToken
    /// A field of the request is missing or malformed (carried: its wire name, for the message).
    case invalidField(String)
}
