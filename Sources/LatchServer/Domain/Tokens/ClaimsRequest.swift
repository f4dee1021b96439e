import Foundation

/// The `claims` request parameter (OIDC Core § 5.5): a JSON object naming claims, per token, that
/// the authentication must satisfy. Latch acts on one of them: `acr` with the value `mfa`.
enum ClaimsRequest {
    /// Whether `text` asks, for the access token or the ID token, for an `acr` of `mfa` (as the
    /// value, or among the values). Malformed text asks for nothing.
    static func asksForSecondFactor(_ text: String) -> Bool {
        guard text.utf8.count <= 4096,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return false }
        for member in ["access_token", "id_token"] {
            guard let acr = (object[member] as? [String: Any])?["acr"] as? [String: Any] else { continue }
            if acr["value"] as? String == "mfa" { return true }
            if let values = acr["values"] as? [Any], values.contains(where: { $0 as? String == "mfa" }) { return true }
        }
        return false
    }
}
