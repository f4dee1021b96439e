import Foundation

/// Validation of the user-supplied parameters native-auth endpoints share.
enum NativeAuthInput {
    /// The normalized e-mail username.
    /// - Throws: ``AuthFailure/invalidRequest(_:)`` when absent or not an e-mail address.
    static func username(_ username: String?) throws -> String {
        guard let username, !username.isEmpty else { throw AuthFailure.invalidRequest("username is required") }
        let email = User.normalizeEmail(username)
        guard User.isPlausibleEmail(email) else { throw AuthFailure.invalidRequest("username must be an e-mail address") }
        return email
    }

    /// Parses the `attributes` parameter (a JSON object of strings) and validates the values the
    /// tenant defines.
    /// - Throws: ``AuthFailure/invalidRequest(_:)`` when not a JSON object of strings,
    ///   ``AuthFailure/invalidAttributes(_:)`` naming the attributes that fail validation.
    static func attributes(_ text: String?, definitions: [AttributeDefinition]) throws -> [String: String] {
        guard let text, !text.isEmpty else { return [:] }
        guard text.utf8.count <= 8192, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
            let dictionary = object as? [String: Any]
        else { throw AuthFailure.invalidRequest("attributes must be a JSON object") }
        var values: [String: String] = [:]
        var invalid: [String] = []
        for (name, value) in dictionary {
            guard let string = value as? String, name.count <= 64 else {
                invalid.append(name)
                continue
            }
            if let definition = definitions.first(where: { $0.name == name }), !definition.accepts(string) {
                invalid.append(name)
                continue
            }
            guard string.count <= 256, AttributeDefinition(name: name).accepts(string) else {
                invalid.append(name)
                continue
            }
            values[name] = string
        }
        guard invalid.isEmpty else { throw AuthFailure.invalidAttributes(invalid.sorted()) }
        return values
    }
}
