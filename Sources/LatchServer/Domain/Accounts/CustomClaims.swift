import Foundation

/// The developer claims an administrator sets on an account (`customAttributes`,
/// `reference/firebase-auth-protocol.md` § 6): a JSON object of at most ``maximumBytes`` bytes,
/// whose names are not reserved, put at the top level of each of the account's ID tokens (§ 3).
public enum CustomClaims {
    /// The longest claims text, in UTF-8 bytes, as firebase-admin allows.
    public static let maximumBytes = 1000

    /// `text` checked: `nil` when it clears the claims (empty, `null` or `{}`), otherwise the text
    /// to store.
    /// - Throws: ``AuthFailure/accountAdministration(_:)`` with ``AccountAdminFailure/claimsTooLarge``,
    ///   ``AccountAdminFailure/invalidClaims`` (not a JSON object) or
    ///   ``AccountAdminFailure/forbiddenClaim(_:)`` (a reserved name, as
    ///   ``CustomTokenService/reservedClaims``).
    public static func validated(_ text: String) throws -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed == "null" { return nil }
        guard trimmed.utf8.count <= maximumBytes else { throw AuthFailure.accountAdministration(.claimsTooLarge) }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8))) as? [String: Any] else {
            throw AuthFailure.accountAdministration(.invalidClaims)
        }
        if let reserved = object.keys.sorted().first(where: { CustomTokenService.reservedClaims.contains($0) }) {
            throw AuthFailure.accountAdministration(.forbiddenClaim(reserved))
        }
        return object.isEmpty ? nil : trimmed
    }

    /// The stored claims as values for a token's claim set; empty when there are none.
    public static func decode(_ text: String?) -> [String: any Sendable] {
        guard let text, let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        else { return [:] }
        return object.mapValues { CustomTokenService.sendable($0) }
    }
}
