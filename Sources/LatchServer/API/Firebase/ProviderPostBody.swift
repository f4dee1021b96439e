import Foundation

/// The `postBody` of `signInWithIdp` / `verifyAssertion`: a form-encoded string
/// (`providerId=oidc.x&id_token=…&nonce=…`, `reference/firebase-auth-protocol.md` § 4) inside the
/// JSON body. `+` is a space and `%XX` a byte (WHATWG URL Standard § 5.1); a name given twice
/// keeps its first value; an undecodable pair is skipped.
enum ProviderPostBody {
    /// The longest `postBody` read, in bytes; longer ones read as empty.
    static let maximumLength = 32_768

    /// The parameters of `text`.
    static func parse(_ text: String?) -> [String: String] {
        guard let text, text.utf8.count <= maximumLength else { return [:] }
        var parameters: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), !name.isEmpty, parameters[name] == nil else { continue }
            guard let value = parts.count == 2 ? decode(parts[1]) : "" else { continue }
            parameters[name] = value
        }
        return parameters
    }

    private static func decode(_ part: Substring) -> String? {
        part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
