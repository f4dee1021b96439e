import Foundation

/// Checks made before any request.
enum Input {
    static func missing(_ what: String) -> LatchError {
        LatchError(code: .missingInput, message: "The \(what) is empty.")
    }

    static func username(_ username: String) throws -> String {
        let email = username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !email.isEmpty else { throw missing("username") }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !email.contains(" ") else {
            throw LatchError(code: .invalidEmail, message: "The username must be an e-mail address.")
        }
        return email
    }

    static func code(_ code: String) throws -> String {
        let trimmed = code.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw missing("code") }
        return trimmed
    }

    static func attributesJSON(_ attributes: [String: String]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: attributes, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
