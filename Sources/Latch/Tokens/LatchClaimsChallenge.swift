import Foundation

internal import LatchWire

/// Claims challenges in resource answers: a protected API that needs more than the access token
/// proves (a second factor, a fresher sign-in) answers `401` with
/// `WWW-Authenticate: Bearer error="insufficient_claims", claims="…"` (RFC 6750 § 3, the
/// OpenID Connect claims request of RFC 9470 / Microsoft's CAE), whose `claims` goes to
/// ``LatchClient/stepUp(account:claims:scopes:correlationID:)`` or to a sign-in's `claims:`.
///
/// ```swift
/// if let header = response.value(forHTTPHeaderField: "WWW-Authenticate"),
///     let claims = LatchClaimsChallenge.parse(wwwAuthenticate: header) {
///     let step = try await client.stepUp(account: account, claims: claims, scopes: ["api.write"])
/// }
/// ```
public enum LatchClaimsChallenge {
    /// The claims request of a `WWW-Authenticate` header: the `claims` auth-param of its `Bearer`
    /// challenge (RFC 9110 § 11.6.1: a token or a quoted string with `\` escapes, among other
    /// parameters and challenges), base64url- or base64-decoded when it is encoded.
    /// - Returns: the JSON text of the claims request, or `nil` when the header has no `Bearer`
    ///   challenge with a `claims` parameter whose value is (or encodes) a JSON object.
    public static func parse(wwwAuthenticate: String) -> String? {
        for challenge in AuthenticateHeader.challenges(wwwAuthenticate) where challenge.scheme.lowercased() == "bearer" {
            guard let value = challenge.parameters.first(where: { $0.name.lowercased() == "claims" })?.value else {
                continue
            }
            return claimsJSON(value)
        }
        return nil
    }

    /// `value` itself when it is a JSON object, else its base64url (or base64) decoding when that is one.
    private static func claimsJSON(_ value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if isJSONObject(trimmed) { return trimmed }
        guard let bytes = Base64URL.decode(trimmed), let text = String(bytes: bytes, encoding: .utf8), isJSONObject(text)
        else { return nil }
        return text
    }

    private static func isJSONObject(_ text: String) -> Bool {
        guard text.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
            return false
        }
        return object is [String: Any]
    }
}
